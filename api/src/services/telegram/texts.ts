// What the bot writes (locales/ru/telegram.json): a staff message about an order as the order is
// now (who took it, how it ended, the buttons that still apply), and a buyer's short news. Codes
// are never written here: a buyer is sent to the order's page for them.
import { and, asc, desc, eq } from 'drizzle-orm'
import texts from '../../../../locales/ru/telegram.json' with { type: 'json' }
import type { Db, Tx } from '../../db/client'
import { games, orderEvents, orderProducts, orderReviews, orders, products, users } from '../../db/schema'
import { goldText } from '../delivery/facts'
import { fill, formatDecimalText, formatRub } from '../mail/messages'
import type { InlineButton, ReplyMarkup } from './bot-api'

export const T = texts

export type OrderRow = typeof orders.$inferSelect
export type ButtonAction = 'tk' | 'dl' | 'nd' | 'ap' | 'rj'

export const orderNo = (o: Pick<OrderRow, 'number' | 'id'>) =>
  o.number ? `№ ${o.number}` : `№ ${o.id.slice(0, 8)}`

/** The order's page for its buyer (the same link as the mails'). */
export const buyerUrl = (publicUrl: string, id: string) => `${publicUrl}/orders/${id}/pay`
const adminUrl = (publicUrl: string, id: string) => `${publicUrl}/admin/orders/${id}`

/**
 * The state a button was made for: the moment the order began waiting (a delivery button) or was
 * held (a review button). A button whose stamp is not the order's current one is stale.
 */
export function waitingStamp(o: Pick<OrderRow, 'status' | 'awaitingSince'>): string | null {
  return o.status === 'sent' && o.awaitingSince ? o.awaitingSince.getTime().toString(36) : null
}
export async function reviewStamp(db: Db | Tx, orderId: string): Promise<string | null> {
  const [r] = await db
    .select({ status: orderReviews.status, created: orderReviews.created })
    .from(orderReviews)
    .where(eq(orderReviews.orderId, orderId))
  return r?.status === 'held' ? `h${r.created.getTime().toString(36)}` : null
}

/** callback_data (at most 64 bytes): `<action>:<order id>:<stamp>`. */
export const callbackData = (action: ButtonAction, orderId: string, stamp: string) =>
  `${action}:${orderId}:${stamp}`

export function parseCallback(data: string | undefined) {
  const m = /^(tk|dl|nd|ap|rj):([0-9a-f-]{36}):(h?[0-9a-z]{1,12})$/.exec(data ?? '')
  return m ? { action: m[1] as ButtonAction, orderId: m[2]!, stamp: m[3]! } : null
}

const button = (action: ButtonAction, orderId: string, stamp: string): InlineButton => ({
  text: T.buttons[
    { tk: 'take', dl: 'delivered', nd: 'not_delivered', ap: 'approve', rj: 'reject' }[
      action
    ] as keyof typeof T.buttons
  ],
  callback_data: callbackData(action, orderId, stamp),
})

/** Staff decisions on the order's timeline, newest first. */
async function staffActions(db: Db | Tx, orderId: string) {
  const rows = await db
    .select({ data: orderEvents.data })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'admin_action')))
    .orderBy(desc(orderEvents.id))
    .limit(50)
  return rows.map((r) => r.data as { action?: string; by?: string; reason?: string })
}
export interface StaffView {
  text: string
  markup: ReplyMarkup | undefined
}

/** The staff message of a waiting (or once waiting) order, as the order is now. */
export async function staffOrderView(
  db: Db | Tx,
  orderId: string,
  purpose: 'waiting' | 'review',
  publicUrl: string,
  now = new Date(),
): Promise<StaffView | null> {
  const [row] = await db
    .select({ o: orders, game: games.title, minutes: games.deliveryMinutes, taker: users.email })
    .from(orders)
    .leftJoin(games, eq(games.id, orders.gameId))
    .leftJoin(users, eq(users.id, orders.takenBy))
    .where(eq(orders.id, orderId))
  if (!row) return null
  const { o } = row
  const lines: string[] = []
  const number = orderNo(o)
  lines.push(fill(purpose === 'waiting' ? T.staff.waiting_title : T.staff.review_title, { number }))
  lines.push(fill(T.staff.game, { game: row.game ?? '—' }))
  lines.push(fill(T.staff.amount, { amount: formatRub(o.totalToPay) }))
  if (o.kind === 'SteamOrder')
    lines.push(
      fill(T.staff.steam_login, { value: o.steamAccountId ?? '—', amount: formatRub(o.steamAmount ?? 0) }),
    )
  else if (o.kind === 'MooGoldOrder')
    lines.push(
      fill(T.staff.supply_user, {
        value: o.moogoldUserId ?? '—',
        server: o.moogoldServerCustomId ? ` (${o.moogoldServerCustomId})` : '',
      }),
    )
  else if (o.gameAccountId) lines.push(fill(T.staff.player, { value: o.gameAccountId }))
  if (o.kind === 'StandoffOrder' && o.listingPrice !== null)
    lines.push(fill(T.staff.listing_price, { price: formatDecimalText(goldText(o.listingPrice)) }))
  const items = await db
    .select({ title: products.title, quantity: orderProducts.quantity })
    .from(orderProducts)
    .innerJoin(products, eq(products.id, orderProducts.productId))
    .where(eq(orderProducts.orderId, orderId))
    .orderBy(asc(orderProducts.id))
  if (items.length)
    lines.push(fill(T.staff.lines, { lines: items.map((i) => `${i.title} × ${i.quantity}`).join(', ') }))
  if (purpose === 'review' && o.email) lines.push(fill(T.staff.email, { email: o.email }))

  const actions = await staffActions(db, orderId)
  const find = (name: string) => actions.find((a) => a.action === name)
  let markup: ReplyMarkup | undefined
  if (purpose === 'waiting') {
    const stamp = waitingStamp(o)
    if (stamp) {
      const since = o.awaitingSince ?? o.paidAt ?? o.created
      lines.push(
        fill(T.staff.waited, {
          minutes: Math.max(0, Math.floor((now.getTime() - since.getTime()) / 60_000)),
          promised: row.minutes ?? 30,
        }),
      )
      if (o.takenBy !== null) lines.push(fill(T.staff.taken_by, { who: row.taker ?? '—' }))
      markup = {
        inline_keyboard: [
          [button('tk', orderId, stamp), button('dl', orderId, stamp), button('nd', orderId, stamp)],
        ],
      }
    } else {
      const took = find('delivery.take')
      if (took?.by) lines.push(fill(T.staff.taken_by, { who: took.by }))
      const done = find('delivery.delivered')
      const failed = find('delivery.not_delivered')
      if (o.status === 'done') lines.push(fill(T.staff.delivered_by, { who: done?.by ?? '—' }))
      else if (o.status === 'failed' && failed)
        lines.push(fill(T.staff.not_delivered_by, { who: failed.by ?? '—', reason: failed.reason ?? '—' }))
      else if (o.status === 'failed') lines.push(fill(T.staff.failed, { reason: o.rejectReason ?? '—' }))
      else lines.push(fill(T.staff.closed, { status: o.status }))
    }
  } else {
    const [review] = await db
      .select({ rules: orderReviews.rules, status: orderReviews.status, reason: orderReviews.reason })
      .from(orderReviews)
      .where(eq(orderReviews.orderId, orderId))
    if (review?.rules?.length) lines.push(fill(T.staff.rules, { rules: review.rules.join(', ') }))
    const stamp = await reviewStamp(db, orderId)
    if (stamp) markup = { inline_keyboard: [[button('ap', orderId, stamp), button('rj', orderId, stamp)]] }
    else if (review?.status === 'approved')
      lines.push(fill(T.staff.approved_by, { who: find('review.approve')?.by ?? '—' }))
    else if (review?.status === 'rejected')
      lines.push(
        fill(T.staff.rejected_by, { who: find('review.reject')?.by ?? '—', reason: review.reason ?? '—' }),
      )
  }
  lines.push(fill(T.staff.link, { url: adminUrl(publicUrl, orderId) }))
  return { text: lines.join('\n'), markup }
}
