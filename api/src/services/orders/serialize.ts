// Wire shapes of orders: creation results, the recalculated order, and the order-history items.
import { asc, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { games, gifts, orderProducts, products, voucherCodes } from '../../db/schema'
import { toMoney } from '../../lib/money'
import type { OrderRow } from './access'
import type { OrderTotals } from './pricing'
import type { OrderHistoryOut, RecalculatedOrderOut } from './wire-types'

type OrderHistoryLine = {
  id: number
  product: number
  title: string
  picture: string
  quantity: number
  price: string
}
import { refundOut } from '../refunds/view'
import { receiptsField, receiptsOfOrders } from '../receipts/view'
import { isHeldForReview } from '../risk/held'
import { isPaymentActive } from './state-machine'

const surplusOut = (hundredths: number | null) => (hundredths === null ? null : toMoney(hundredths))

/** §3 creation result of PUBG and supply-channel orders. */
export function createdResult(order: OrderRow, totals: OrderTotals) {
  return {
    id: order.id,
    number: order.number,
    total: toMoney(totals.total),
    products: totals.lines.map((l) => ({ quantity: l.quantity, product: l.productId, id: l.id })),
  }
}

/** §3 creation result of a Standoff order. */
export function standoffCreatedResult(order: OrderRow, totals: OrderTotals) {
  return {
    id: order.id,
    number: order.number,
    game_account_id: order.gameAccountId ?? '',
    game_avatar: order.gameAvatar,
    total: toMoney(totals.total),
  }
}

/** §3 creation result of a Steam order. */
export const steamCreatedResult = (order: OrderRow, totals: OrderTotals) => ({
  id: order.id,
  number: order.number,
  total: toMoney(totals.total),
})

/** Minutes a buyer is told while the order waits for a person; null otherwise. */
const awaitingMinutes = (o: OrderRow, minutes: number | undefined) =>
  o.status === 'sent' && o.awaitingSince !== null ? (minutes ?? 30) : null

async function gameMinutes(db: Db | Tx, order: OrderRow) {
  if (order.status !== 'sent' || order.awaitingSince === null || order.gameId === null) return undefined
  const [g] = await db.select({ m: games.deliveryMinutes }).from(games).where(eq(games.id, order.gameId))
  return g?.m
}

/** Our Standoff extensions: the listing price the server fixed, and whether the buyer listed the skin. */
const listingOut = (o: OrderRow) =>
  o.kind === 'StandoffOrder'
    ? {
        listing_price: o.listingPrice === null ? null : toMoney(o.listingPrice),
        skin_listed: o.skinListedAt !== null,
      }
    : {}

async function gameAndGift(db: Db | Tx, order: OrderRow) {
  const [game] = order.gameId
    ? await db
        .select({ id: games.id, title: games.title, logo: games.logo, resourcetype: games.kind })
        .from(games)
        .where(eq(games.id, order.gameId))
    : []
  const [gift] = order.giftId
    ? await db
        .select({ id: gifts.id, title: gifts.title, logo: gifts.logo })
        .from(gifts)
        .where(eq(gifts.id, order.giftId))
    : []
  return { game: game ?? null, gift: gift ?? null }
}

/** The voucher codes delivered for a PUBG order's lines (none before delivery). */
async function deliveredCodes(db: Db | Tx, order: OrderRow, t: OrderTotals) {
  const lineIds = t.lines.map((l) => l.id)
  if (order.kind !== 'PUBGOrder' || lineIds.length === 0) return []
  return db
    .select({ lineId: voucherCodes.orderProductId, code: voucherCodes.code, amountUc: voucherCodes.amountUc })
    .from(voucherCodes)
    .where(inArray(voucherCodes.orderProductId, lineIds))
    .orderBy(asc(voucherCodes.id))
}

/** The recalculated order (GET /api/orders/{id}/ and the update calls). */
export async function recalculatedOrderOut(
  db: Db | Tx,
  order: OrderRow,
  t: OrderTotals,
): Promise<RecalculatedOrderOut> {
  const { game, gift } = await gameAndGift(db, order)
  const codes = await deliveredCodes(db, order, t)
  return {
    id: order.id,
    number: order.number,
    resourcetype: order.kind,
    status: t.status,
    created: order.created.toISOString(),
    email: order.email,
    game,
    gift,
    products: t.lines.map((l) => ({
      id: l.id,
      product: l.productId,
      resourcetype: l.product.kind,
      title: l.product.title,
      picture: l.product.picture,
      quantity: l.quantity,
      price: toMoney(l.unitPrice),
      total: toMoney(l.unitPrice * l.quantity),
      amount_uc: l.product.amountUc,
      gold: l.product.gold,
      codes: codes.filter((c) => c.lineId === l.id).map((c) => ({ code: c.code, amount_uc: c.amountUc })),
    })),
    total: toMoney(t.total),
    total_without_promocode: toMoney(t.total),
    total_with_promocode: toMoney(t.totalWithPromo),
    promo_percent: t.promoPercent,
    balance_used: toMoney(t.balanceUsed),
    total_to_pay: toMoney(t.totalToPay),
    is_payment_active: isPaymentActive(t.status),
    reject_reason: order.rejectReason,
    game_avatar: order.gameAvatar,
    game_account_id: order.gameAccountId,
    surplus: surplusOut(order.surplus),
    ...listingOut(order),
    steam_account_id: order.steamAccountId,
    amount: t.steam ? toMoney(t.steam.amount) : null,
    commission: t.steam ? toMoney(t.steam.commission) : null,
    moogold_user_id: order.moogoldUserId,
    moogold_server: order.moogoldServer,
    moogold_server_custom_id: order.moogoldServerCustomId,
    player_nickname: order.playerNickname,
    code: order.kind === 'RokkyOrder' ? order.code : null,
    // a failed paid order's refund, or a done order's the owner refunded afterwards (decision 063)
    refund:
      order.paidAt !== null && (t.status === 'failed' || t.status === 'done')
        ? await refundOut(db, order.id)
        : null,
    ...(order.paidAt !== null ? await receiptsField(db, order.id) : {}),
    awaiting_delivery_minutes: awaitingMinutes(order, await gameMinutes(db, order)),
    ...(t.status === 'paid' && (await isHeldForReview(db, order.id)) ? { on_review: true } : {}),
  }
}

/**
 * Order-history items (§3) for a page of orders, in the given order, with a fixed number of
 * queries whatever the page size. Totals are the stored ones (recalculate unpaid orders first
 * with `recalculateOrder` when exact live totals matter).
 */
export async function serializeOrderHistory(db: Db | Tx, rows: OrderRow[]): Promise<OrderHistoryOut[]> {
  if (rows.length === 0) return []
  const orderIds = rows.map((o) => o.id)
  const gameIds = [...new Set(rows.flatMap((o) => (o.gameId ? [o.gameId] : [])))]
  const giftIds = [...new Set(rows.flatMap((o) => (o.giftId ? [o.giftId] : [])))]
  const [lineRows, gameRows, giftRows] = await Promise.all([
    db
      .select({
        id: orderProducts.id,
        orderId: orderProducts.orderId,
        product: orderProducts.productId,
        quantity: orderProducts.quantity,
        price: orderProducts.price,
        title: products.title,
        picture: products.picture,
      })
      .from(orderProducts)
      .innerJoin(products, eq(products.id, orderProducts.productId))
      .where(inArray(orderProducts.orderId, orderIds))
      .orderBy(asc(orderProducts.id)),
    gameIds.length
      ? db
          .select({
            id: games.id,
            title: games.title,
            logo: games.logo,
            resourcetype: games.kind,
            deliveryMinutes: games.deliveryMinutes,
          })
          .from(games)
          .where(inArray(games.id, gameIds))
      : Promise.resolve([]),
    giftIds.length
      ? db
          .select({ id: gifts.id, title: gifts.title, logo: gifts.logo })
          .from(gifts)
          .where(inArray(gifts.id, giftIds))
      : Promise.resolve([]),
  ])
  const pubgLineIds = lineRows
    .filter((l) => rows.find((o) => o.id === l.orderId)?.kind === 'PUBGOrder')
    .map((l) => l.id)
  const codeRows = pubgLineIds.length
    ? await db
        .select({
          lineId: voucherCodes.orderProductId,
          code: voucherCodes.code,
          amountUc: voucherCodes.amountUc,
        })
        .from(voucherCodes)
        .where(inArray(voucherCodes.orderProductId, pubgLineIds))
        .orderBy(asc(voucherCodes.id))
    : []

  const gameById = new Map(gameRows.map(({ deliveryMinutes: _, ...g }) => [g.id, g]))
  const minutesOf = new Map(gameRows.map((g) => [g.id, g.deliveryMinutes]))
  const giftById = new Map(giftRows.map((g) => [g.id, g]))
  const linesOf = (orderId: string) =>
    lineRows
      .filter((l) => l.orderId === orderId)
      .map((l) => ({
        id: l.id,
        product: l.product,
        title: l.title,
        picture: l.picture,
        quantity: l.quantity,
        price: toMoney(l.price),
      }))
  const codesOf = (lineId: number) =>
    codeRows.filter((c) => c.lineId === lineId).map((c) => ({ code: c.code, amount_uc: c.amountUc }))
  const receiptsByOrder = await receiptsOfOrders(db, orderIds)

  return rows.map((o) => {
    const list = receiptsByOrder.get(o.id)
    return {
      ...historyItem(o, gameById, giftById, linesOf, codesOf),
      awaiting_delivery_minutes: awaitingMinutes(o, o.gameId === null ? undefined : minutesOf.get(o.gameId)),
      ...(list ? { receipts: list } : {}),
    }
  })
}

function historyItem(
  o: OrderRow,
  gameById: Map<number, NonNullable<RecalculatedOrderOut['game']>>,
  giftById: Map<number, NonNullable<RecalculatedOrderOut['gift']>>,
  linesOf: (orderId: string) => Array<OrderHistoryLine>,
  codesOf: (lineId: number) => Array<{ code: string; amount_uc: number }>,
): OrderHistoryOut {
  const base = {
    id: o.id,
    number: o.number,
    status: o.status,
    created: o.created.toISOString(),
    total: toMoney(o.total),
    total_to_pay: toMoney(o.totalToPay),
    reject_reason: o.rejectReason,
    is_payment_active: isPaymentActive(o.status),
    email: o.email,
    game: (o.gameId && gameById.get(o.gameId)) || null,
  }
  switch (o.kind) {
    case 'MooGoldOrder':
      return {
        resourcetype: 'MooGoldOrder',
        ...base,
        moogold_user_id: o.moogoldUserId,
        moogold_server: o.moogoldServer,
        moogold_server_custom_id: o.moogoldServerCustomId,
        player_nickname: o.playerNickname,
        order_products: linesOf(o.id),
      }
    case 'PUBGOrder':
      return {
        resourcetype: 'PUBGOrder',
        ...base,
        order_products: linesOf(o.id).map((l) => ({ ...l, codes: codesOf(l.id) })),
      }
    case 'RokkyOrder':
      return {
        resourcetype: 'RokkyOrder',
        ...base,
        code: o.code,
        gift: (o.giftId && giftById.get(o.giftId)) || null,
      }
    case 'StandoffOrder':
      return {
        resourcetype: 'StandoffOrder',
        ...base,
        game_account_id: o.gameAccountId,
        game_avatar: o.gameAvatar,
        surplus: surplusOut(o.surplus),
        ...listingOut(o),
        player_nickname: o.playerNickname,
        order_products: linesOf(o.id),
      }
    case 'SteamOrder':
      return {
        resourcetype: 'SteamOrder',
        ...base,
        steam_account_id: o.steamAccountId,
        amount: o.steamAmount === null ? null : toMoney(o.steamAmount),
        player_nickname: o.playerNickname,
      }
  }
}
