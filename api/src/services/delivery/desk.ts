// The delivery desk: paid orders of `manual` games waiting for a person, oldest first, with
// everything needed to deliver each; and the three actions on one (take, delivered, not
// delivered), each audited and on the order's timeline. An order is taken by one operator at a
// time: another sees who has it and cannot take it for TAKE_LOCK_MINUTES unless an owner reassigns.
import { aliasedTable, and, asc, count, eq, isNotNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import {
  games,
  orderEvents,
  orderProducts,
  orders,
  products,
  steamSettings,
  supplyServers,
  users,
} from '../../db/schema'
import { message } from '../../lib/errors'
import { refuse } from '../../lib/domain-error'
import { toMoney } from '../../lib/money'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { recordOrderEvent } from '../orders/events'
import { transitionOrder } from '../orders/state-machine'
import { goldText } from './facts'
import { standoffSettingsRow } from './listing'
import { awaitingDelivery, secondsSince, waitingForDelivery as waiting } from './waiting'

/** The kinds of order (the desk filters by them). */
export { ORDER_KINDS } from '../../db/schema'

export const TAKE_LOCK_MINUTES = 15

/** The desk's filters: every waiting order, or only those escalated to the owner (decision 125). */
export type DeskFilter = 'all' | 'escalated'

const escalatedWaiting = and(waiting, isNotNull(orders.escalatedAt))

/**
 * One page of the queue, oldest first, and how many wait in all (and since when the oldest), and
 * how many of them are escalated to the owner.
 */
export async function listWaiting(
  db: Db,
  page: number,
  pageSize: number,
  now = new Date(),
  filter: DeskFilter = 'all',
) {
  const taker = aliasedTable(users, 'taker')
  const [all, [escalated], rows, standoff, [steam]] = await Promise.all([
    awaitingDelivery(db, now),
    db.select({ n: count() }).from(orders).where(escalatedWaiting),
    db
      .select({
        order: orders,
        gameTitle: games.title,
        deliveryMinutes: games.deliveryMinutes,
        takenByEmail: taker.email,
        serverName: supplyServers.name,
        serverCode: supplyServers.code,
      })
      .from(orders)
      .leftJoin(games, eq(games.id, orders.gameId))
      .leftJoin(taker, eq(taker.id, orders.takenBy))
      .leftJoin(supplyServers, eq(supplyServers.id, orders.moogoldServer))
      .where(filter === 'escalated' ? escalatedWaiting : waiting)
      .orderBy(asc(orders.awaitingSince), asc(orders.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    standoffSettingsRow(db),
    db.select().from(steamSettings).orderBy(asc(steamSettings.id)).limit(1),
  ])
  const ids = rows.map((r) => r.order.id)
  const lineRows = ids.length
    ? await db
        .select({ orderId: orderProducts.orderId, title: products.title, quantity: orderProducts.quantity })
        .from(orderProducts)
        .innerJoin(products, eq(products.id, orderProducts.productId))
        .where(sql`${orderProducts.orderId} in ${ids}`)
        .orderBy(asc(orderProducts.id))
    : []
  const linesOf = new Map<string, Array<{ title: string; quantity: number }>>()
  for (const l of lineRows) {
    const list = linesOf.get(l.orderId) ?? []
    list.push({ title: l.title, quantity: l.quantity })
    linesOf.set(l.orderId, list)
  }
  const escalatedCount = escalated?.n ?? 0
  return {
    ...all,
    count: filter === 'escalated' ? escalatedCount : all.count,
    escalated_count: escalatedCount,
    results: rows.map((r) => {
      const o = r.order
      const since = o.awaitingSince ?? o.paidAt ?? o.created
      const waitingSeconds = secondsSince(since, now)
      const minutes = r.deliveryMinutes ?? 30
      const lockActive =
        o.takenAt !== null && now.getTime() - o.takenAt.getTime() < TAKE_LOCK_MINUTES * 60_000
      return {
        id: o.id,
        number: o.number,
        kind: o.kind,
        game: { id: o.gameId, title: r.gameTitle ?? '' },
        email: o.email,
        paid_at: (o.paidAt ?? since).toISOString(),
        waiting_seconds: waitingSeconds,
        delivery_minutes: minutes,
        overdue: waitingSeconds > minutes * 60,
        total_to_pay: toMoney(o.totalToPay),
        player_nickname: o.playerNickname,
        lines: linesOf.get(o.id) ?? [],
        assignee:
          o.takenBy === null ? null : { user_id: o.takenBy, email: r.takenByEmail ?? '', locked: lockActive },
        taken_at: o.takenAt?.toISOString() ?? null,
        auto_refund:
          o.refundDueAt === null
            ? null
            : {
                due_at: o.refundDueAt.toISOString(),
                seconds_left: Math.max(0, Math.floor((o.refundDueAt.getTime() - now.getTime()) / 1000)),
              },
        escalated: o.escalatedAt !== null,
        standoff:
          o.kind === 'StandoffOrder'
            ? {
                game_account_id: o.gameAccountId ?? '',
                game_avatar: o.gameAvatar,
                skin_name: standoff?.skinName ?? '',
                skin_picture: standoff?.skinPicture ?? '',
                listing_price: o.listingPrice === null ? null : goldText(o.listingPrice),
                surplus: o.surplus === null ? null : toMoney(o.surplus),
                skin_listed: o.skinListedAt !== null,
              }
            : null,
        steam:
          o.kind === 'SteamOrder'
            ? {
                login: o.steamAccountId ?? '',
                amount: toMoney(o.steamAmount ?? 0),
                currency: steam?.currency ?? 'RUB',
                commission: toMoney(Math.max(0, o.total - (o.steamAmount ?? 0))),
              }
            : null,
        supply:
          o.kind === 'MooGoldOrder'
            ? {
                user_id: o.moogoldUserId ?? '',
                server:
                  o.moogoldServer === null
                    ? null
                    : { id: o.moogoldServer, name: r.serverName ?? '', code: r.serverCode ?? '' },
                server_custom_id: o.moogoldServerCustomId,
              }
            : null,
      }
    }),
  }
}

export type DeskAction = 'take' | 'delivered' | 'not_delivered'
export interface DeskOutcome {
  id: string
  status: string
  /** False when the call changed nothing (a repeat): `detail` says why. */
  changed: boolean
  detail: string
}

async function lockOrder(tx: Tx, id: string) {
  const [o] = await tx.select().from(orders).where(eq(orders.id, id)).for('update')
  if (!o) throw refuse('order_not_found')
  return o
}

/** Whether the staff member made this move on the order before (a repeated call). */
async function didBefore(tx: Tx, id: string, action: DeskAction) {
  const rows = await tx
    .select({ id: orderEvents.id })
    .from(orderEvents)
    .where(
      and(
        eq(orderEvents.orderId, id),
        eq(orderEvents.kind, 'admin_action'),
        sql`${orderEvents.data}->>'action' = ${`delivery.${action}`}`,
      ),
    )
    .limit(1)
  return rows.length > 0
}

type OrderRow = typeof orders.$inferSelect

/** Refuses a move on an order another operator holds (an owner may always act). */
async function checkHolder(tx: Tx, staff: StaffMember, o: OrderRow, now: Date) {
  if (o.takenBy === null || o.takenBy === staff.userId || staff.role === 'owner') return
  if (o.takenAt === null || now.getTime() - o.takenAt.getTime() >= TAKE_LOCK_MINUTES * 60_000) return
  const [holder] = await tx.select({ email: users.email }).from(users).where(eq(users.id, o.takenBy))
  const left = Math.ceil((TAKE_LOCK_MINUTES * 60_000 - (now.getTime() - o.takenAt.getTime())) / 60_000)
  throw refuse('delivery_taken_by_other', { who: holder?.email ?? '—', minutes: left })
}

async function record(
  tx: Tx,
  staff: StaffMember,
  o: OrderRow,
  action: DeskAction,
  after: Record<string, unknown>,
) {
  await recordOrderEvent(
    tx,
    o.id,
    'admin_action',
    { action: `delivery.${action}`, by: staff.email, ...after },
    staff.userId,
  )
  await audit(tx, staff, {
    action: `order.delivery_${action}`,
    entity: 'order',
    entityId: o.id,
    before: { status: o.status, taken_by: o.takenBy },
    after,
  })
}

export async function takeOrder(
  db: Db,
  staff: StaffMember,
  id: string,
  now = new Date(),
): Promise<DeskOutcome> {
  return db.transaction(async (tx) => {
    const o = await lockOrder(tx, id)
    if (o.status !== 'sent' || o.awaitingSince === null) throw refuse('delivery_not_waiting')
    if (o.takenBy === staff.userId)
      return { id, status: o.status, changed: false, detail: message('delivery_take_repeat') }
    await checkHolder(tx, staff, o, now)
    await tx.update(orders).set({ takenBy: staff.userId, takenAt: now }).where(eq(orders.id, id))
    await record(tx, staff, o, 'take', { taken_by: staff.userId })
    return { id, status: o.status, changed: true, detail: message('delivery_take_done') }
  })
}

export async function markDelivered(
  db: Db,
  staff: StaffMember,
  id: string,
  now = new Date(),
): Promise<DeskOutcome> {
  return db.transaction(async (tx) => {
    const o = await lockOrder(tx, id)
    if (o.status === 'done' && (await didBefore(tx, id, 'delivered')))
      return { id, status: o.status, changed: false, detail: message('delivery_delivered_repeat') }
    if (o.status !== 'sent' || o.awaitingSince === null) throw refuse('delivery_not_waiting')
    await checkHolder(tx, staff, o, now)
    // done: the buyer's done mail and a gift's cashback come with the move (state machine)
    await transitionOrder(tx, id, 'done', { takenBy: o.takenBy ?? staff.userId, takenAt: o.takenAt ?? now })
    await record(tx, staff, o, 'delivered', { status: 'done' })
    return { id, status: 'done', changed: true, detail: message('delivery_delivered_done') }
  })
}

export async function markNotDelivered(
  db: Db,
  staff: StaffMember,
  id: string,
  reason: string,
  now = new Date(),
): Promise<DeskOutcome> {
  return db.transaction(async (tx) => {
    const o = await lockOrder(tx, id)
    if (o.status === 'failed' && (await didBefore(tx, id, 'not_delivered')))
      return { id, status: o.status, changed: false, detail: message('delivery_not_delivered_repeat') }
    if (o.status !== 'sent' || o.awaitingSince === null) throw refuse('delivery_not_waiting')
    await checkHolder(tx, staff, o, now)
    // failed after paying: the refund by the shop's rules and the failed mail with the reason
    await transitionOrder(tx, id, 'failed', { rejectReason: reason })
    await record(tx, staff, o, 'not_delivered', { status: 'failed', reason })
    return { id, status: 'failed', changed: true, detail: message('delivery_not_delivered_done') }
  })
}
