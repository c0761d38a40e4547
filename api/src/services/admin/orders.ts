// Back-office order search and the order's full picture (lines, payments, timeline).
import { and, asc, count, desc, eq, exists, gte, inArray, lt, min, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import {
  games,
  gifts,
  type OrderStatus,
  orders,
  paymentMethods,
  payments,
  type RefundStatus,
  refunds,
} from '../../db/schema'
import { toMoney } from '../../lib/money'
import { isUuid } from '../orders/access'
import { refundOut } from '../refunds/view'
import { canRetryFulfilment } from '../fulfilment/retry'
import { listOrderEvents } from '../orders/events'
import { serializeOrderHistory } from '../orders/serialize'
import { maskCode } from './mask'
import { ledgerOfOrder } from '../receipts/ledger'
import { parseOrderNumber } from '../../../../shared/order-number'
import { DEFAULT_SHOP_TIMEZONE, shopDayEnd, shopDayStart } from '../../../../shared/shop-time'

/** The states the search filters by (the back-office's route declares them). */
export { ORDER_STATUSES, REFUND_STATUSES } from '../../db/schema'

export interface OrderSearch {
  /** An order id, its short number («10234», «№ 10234»), or (part of) a buyer's email. */
  q?: string
  status?: OrderStatus
  game?: number
  gift?: number
  /** Inclusive day bounds, YYYY-MM-DD, in the shop's time zone (decision 136). */
  from?: string
  to?: string
  /** The shop's time zone (default Moscow). */
  timeZone?: string
  refund?: RefundStatus
  page: number
  pageSize: number
}

/** Orders matching the filters, newest first, one page; every filter is served by an index. */
export async function searchOrders(db: Db, s: OrderSearch) {
  const where: SQL[] = []
  const q = s.q?.trim()
  if (q) {
    const number = parseOrderNumber(q)
    if (isUuid(q)) where.push(eq(orders.id, q.toLowerCase()))
    else if (number !== null) where.push(eq(orders.number, number))
    else if (q.includes('@')) where.push(eq(sql`lower(${orders.email})`, q.toLowerCase()))
    else where.push(sql`lower(${orders.email}) like ${`%${q.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`}`)
  }
  if (s.status) where.push(eq(orders.status, s.status))
  if (s.game) where.push(eq(orders.gameId, s.game))
  if (s.gift) where.push(eq(orders.giftId, s.gift))
  const zone = s.timeZone ?? DEFAULT_SHOP_TIMEZONE
  if (s.from) where.push(gte(orders.created, shopDayStart(s.from, zone)))
  if (s.to) where.push(lt(orders.created, shopDayEnd(s.to, zone)))
  // a refund filter: any refund of the order (its own, or of a refused payment) in that state
  if (s.refund)
    where.push(
      exists(
        db
          .select({ id: refunds.id })
          .from(refunds)
          .where(and(eq(refunds.orderId, orders.id), eq(refunds.status, s.refund))),
      ),
    )
  // the column shows the order's own refund (one per order)
  const orderRefundOf = and(eq(refunds.orderId, orders.id), eq(refunds.kind, 'order'))
  const filter = where.length ? and(...where) : undefined
  const [total] = await db.select({ n: count() }).from(orders).where(filter)
  const rows = await db
    .select({
      id: orders.id,
      number: orders.number,
      kind: orders.kind,
      status: orders.status,
      created: orders.created,
      email: orders.email,
      total: orders.total,
      totalToPay: orders.totalToPay,
      rejectReason: orders.rejectReason,
      userId: orders.userId,
      gameTitle: games.title,
      giftTitle: gifts.title,
      refundStatus: refunds.status,
    })
    .from(orders)
    .leftJoin(refunds, orderRefundOf)
    .leftJoin(games, eq(games.id, orders.gameId))
    .leftJoin(gifts, eq(gifts.id, orders.giftId))
    .where(filter)
    .orderBy(desc(orders.created), desc(orders.id))
    .limit(s.pageSize)
    .offset((s.page - 1) * s.pageSize)
  return {
    count: total?.n ?? 0,
    results: rows.map((r) => ({
      id: r.id,
      number: r.number,
      kind: r.kind,
      status: r.status,
      created: r.created.toISOString(),
      email: r.email,
      total: toMoney(r.total),
      total_to_pay: toMoney(r.totalToPay),
      reject_reason: r.rejectReason,
      signed_in: r.userId !== null,
      item: r.gameTitle ?? r.giftTitle ?? '',
      refund_status: r.refundStatus,
    })),
  }
}

/**
 * The titles buyers saw for these payment methods. A payment keeps only the method's name, which
 * is unique per country group; the groups of one shop name a method alike, so any title will do.
 */
async function methodTitles(db: Db, names: string[]): Promise<Map<string, string>> {
  if (names.length === 0) return new Map()
  const rows = await db
    .select({ name: paymentMethods.name, title: min(paymentMethods.title) })
    .from(paymentMethods)
    .where(inArray(paymentMethods.name, [...new Set(names)]))
    .groupBy(paymentMethods.name)
  return new Map(rows.flatMap((r) => (r.title ? [[r.name, r.title] as const] : [])))
}

/** The order as the buyer sees it (codes masked), its payments and its timeline. */
export async function orderDetail(db: Db, id: string) {
  const [row] = await db.select().from(orders).where(eq(orders.id, id))
  if (!row) return null
  const [history] = await serializeOrderHistory(db, [row])
  const masked = JSON.parse(JSON.stringify(history), (key, value) =>
    key === 'code' && typeof value === 'string' ? maskCode(value) : value,
  )
  const pays = await db.select().from(payments).where(eq(payments.orderId, id)).orderBy(asc(payments.created))
  const titles = await methodTitles(
    db,
    pays.map((p) => p.methodName),
  )
  const events = await listOrderEvents(db, id)
  return {
    order: masked,
    user_id: row.userId,
    payments: pays.map((p) => ({
      id: p.id,
      method: p.methodName,
      method_title: titles.get(p.methodName) ?? null,
      provider: p.provider,
      amount: toMoney(p.amount),
      currency: p.currency,
      status: p.status,
      external_id: p.externalId,
      created: p.created.toISOString(),
    })),
    timeline: [
      { id: 0, kind: 'created', data: {}, actor_user_id: null, created: row.created.toISOString() },
      ...events.map((e) => ({
        id: e.id,
        kind: e.kind,
        data: e.data,
        actor_user_id: e.actorUserId,
        created: e.created.toISOString(),
      })),
    ],
    refund: await refundOut(db, id),
    receipts: await ledgerOfOrder(db, id),
    can_retry_fulfilment: await canRetryFulfilment(db, row),
  }
}
