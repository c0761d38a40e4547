// Order-history items (§3) as the account pages read them: camelCase, one shape for every
// variant, with the variant's own fields where it has them (the list reads orderProducts).
import type { components } from '#openapi/schema'

type Wire = components['schemas']['OrderHistoryItem']

import type { OrderStatus } from '#app/lib/api/resourcetypes'

export { ORDER_STATUSES, type OrderStatus } from '#app/lib/api/resourcetypes'

export interface OrderHistoryLine {
  product: number
  title: string
  quantity: number
  price: string
  codes: { code: string; amountUc: number }[]
}

export interface OrderHistoryView {
  id: string
  /** The short number people read out (our extension; null from a backend without it). */
  number: number | null
  resourcetype: Wire['resourcetype']
  status: OrderStatus
  created: string
  total: string
  totalToPay: string
  rejectReason: string | null
  isPaymentActive: boolean
  email: string | null
  game: { id: number; title: string; logo: string } | null
  gift: { id: number; title: string; logo: string } | null
  orderProducts: OrderHistoryLine[]
  /** RokkyOrder: the delivered gift code. */
  giftCode: string | null
  gameAccountId: string | null
  steamAccountId: string | null
  amount: string | null
  moogoldUserId: string | null
  /** The nickname the player check answered (our extension; null: not checked). */
  playerNickname: string | null
  /** The order's fiscal receipts (our extension, issue 33); empty when it has none. */
  receipts: Array<components['schemas']['OrderReceipt']>
}

export function toOrderHistoryView(o: Wire): OrderHistoryView {
  const base: OrderHistoryView = {
    id: o.id,
    number: o.number ?? null,
    resourcetype: o.resourcetype,
    status: o.status,
    created: o.created,
    total: o.total,
    totalToPay: o.total_to_pay,
    rejectReason: o.reject_reason,
    isPaymentActive: o.is_payment_active,
    email: o.email,
    game: o.game ? { id: o.game.id, title: o.game.title, logo: o.game.logo } : null,
    gift: null,
    orderProducts: [],
    giftCode: null,
    gameAccountId: null,
    steamAccountId: null,
    amount: null,
    moogoldUserId: null,
    playerNickname: 'player_nickname' in o ? (o.player_nickname ?? null) : null,
    receipts: o.receipts ?? [],
  }
  const lines = (ls: { product: number; title: string; quantity: number; price: string }[]) =>
    ls.map((l) => ({ product: l.product, title: l.title, quantity: l.quantity, price: l.price, codes: [] }))
  switch (o.resourcetype) {
    case 'PUBGOrder':
      return {
        ...base,
        orderProducts: o.order_products.map((l) => ({
          product: l.product,
          title: l.title,
          quantity: l.quantity,
          price: l.price,
          codes: l.codes.map((c) => ({ code: c.code, amountUc: c.amount_uc })),
        })),
      }
    case 'MooGoldOrder':
      return { ...base, orderProducts: lines(o.order_products), moogoldUserId: o.moogold_user_id }
    case 'StandoffOrder':
      return { ...base, orderProducts: lines(o.order_products), gameAccountId: o.game_account_id }
    case 'SteamOrder':
      return { ...base, steamAccountId: o.steam_account_id, amount: o.amount }
    case 'RokkyOrder':
      return { ...base, giftCode: o.code, gift: o.gift }
  }
}

export const LAST_ORDERS_WINDOW_MS = 24 * 60 * 60 * 1000

/** Last orders (§4): created within 24 hours. */
export function isRecent(order: Pick<OrderHistoryView, 'created'>, now = Date.now()): boolean {
  return now - Date.parse(order.created) <= LAST_ORDERS_WINDOW_MS
}

/** Where "repeat order" leads: the game page preloading this order (§4), or the gift's page. */
export function repeatOrderHref(order: Pick<OrderHistoryView, 'id' | 'game' | 'gift'>): string | null {
  if (order.game) return `/products/${order.game.id}?repeat=${order.id}`
  if (order.gift) return `/gifts/detalis/${order.gift.id}`
  return null
}
