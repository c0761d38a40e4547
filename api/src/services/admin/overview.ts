// The owner's overview: money in, orders by status, what sells, what runs out, what needs a person
// (paid orders waiting for delivery or review, stuck or failed ones not refunded).
import { and, count, desc, eq, exists, gte, inArray, isNotNull, lt, notExists, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import {
  ORDER_STATUSES,
  type OrderStatus,
  orderProducts,
  orderReviews,
  orders,
  payments,
  products,
  refunds,
} from '../../db/schema'
import { toMoney } from '../../lib/money'
import { awaitingDelivery, waitingForDelivery } from '../delivery/waiting'
import { stockCounts } from './stock'

/** Fewer free codes than this is a warning. */
export const LOW_STOCK = 10
const isLow = (r: { free: number; threshold: number | null }) => r.free < (r.threshold ?? LOW_STOCK)

/** An order paid but not delivered after this long needs a person. */
const STUCK_MINUTES = 30

/**
 * `days` calendar days in UTC ending today (1 is today since midnight), as the chart draws them,
 * so that the totals are the sum of the chart's days.
 *
 * The figures an accountant can check (issue 37): revenue is gross (payments that succeeded, by the
 * day they were paid), refunds (the succeeded payments of orders refunded in the period, by the day
 * of the refund, in the currency paid: the money is the buyer's again, whether it went back to the
 * card or to the balance) and net = gross − refunds. A product is sold when its order was
 * delivered (`done`) and not refunded: the same rule as the codes the stock counts as sold.
 */
export async function overview(db: Db, days: number, now = new Date()) {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const since = new Date(today - (days - 1) * 86_400_000)
  const day = sql<string>`to_char(${payments.created} at time zone 'UTC', 'YYYY-MM-DD')`
  const refunded = db
    .select({ one: sql`1` })
    .from(refunds)
    .where(and(eq(refunds.orderId, orders.id), eq(refunds.kind, 'order')))
  // an order the shop already gave the money back for (or is giving it back, at the provider) needs
  // nobody; a refund left to a person (`manual`) still does
  const refundedOrGoing = db
    .select({ one: sql`1` })
    .from(refunds)
    .where(
      and(
        eq(refunds.orderId, orders.id),
        eq(refunds.kind, 'order'),
        inArray(refunds.status, ['pending', 'done']),
      ),
    )
  const held = db
    .select({ one: sql`1` })
    .from(orderReviews)
    .where(and(eq(orderReviews.orderId, orders.id), eq(orderReviews.status, 'held')))
  const [revenueRows, refundRows, statusRows, paidRows, topRows, stock, attention, waiting] =
    await Promise.all([
      db
        .select({
          day,
          currency: payments.currency,
          amount: sql<number>`sum(${payments.amount})`.mapWith(Number),
        })
        .from(payments)
        .where(and(eq(payments.status, 'succeeded'), gte(payments.created, since)))
        .groupBy(day, payments.currency)
        .orderBy(day, payments.currency),
      db
        .select({ currency: payments.currency, amount: sql<number>`sum(${payments.amount})`.mapWith(Number) })
        .from(refunds)
        .innerJoin(payments, and(eq(payments.orderId, refunds.orderId), eq(payments.status, 'succeeded')))
        .where(and(eq(refunds.kind, 'order'), gte(refunds.created, since)))
        .groupBy(payments.currency),
      db
        .select({ status: orders.status, n: count() })
        .from(orders)
        .where(gte(orders.created, since))
        .groupBy(orders.status),
      db
        .select({ n: count() })
        .from(orders)
        .where(and(gte(orders.created, since), isNotNull(orders.paidAt))),
      db
        .select({
          id: products.id,
          title: products.title,
          quantity: sql<number>`sum(${orderProducts.quantity})`.mapWith(Number),
          revenue: sql<number>`sum(${orderProducts.quantity} * ${orderProducts.price})`.mapWith(Number),
        })
        .from(orderProducts)
        .innerJoin(orders, eq(orders.id, orderProducts.orderId))
        .innerJoin(products, eq(products.id, orderProducts.productId))
        .where(and(gte(orders.created, since), eq(orders.status, 'done'), notExists(refunded)))
        .groupBy(products.id, products.title)
        .orderBy(desc(sql`sum(${orderProducts.quantity} * ${orderProducts.price})`))
        .limit(5),
      stockCounts(db),
      db
        .select({
          id: orders.id,
          number: orders.number,
          status: orders.status,
          reason: orders.rejectReason,
          created: orders.created,
          delivery: sql<boolean>`${waitingForDelivery}`.mapWith(Boolean),
          escalated: sql<boolean>`${orders.escalatedAt} is not null`.mapWith(Boolean),
          review: sql<boolean>`exists (${held})`.mapWith(Boolean),
        })
        .from(orders)
        .where(
          and(
            or(
              and(eq(orders.status, 'failed'), isNotNull(orders.paidAt), gte(orders.created, since)),
              // paid and waiting for a person: the delivery desk's queue and the antifraud review
              waitingForDelivery,
              and(eq(orders.status, 'paid'), exists(held)),
              and(
                inArray(orders.status, ['paid', 'sending', 'sent']),
                lt(orders.updated, new Date(now.getTime() - STUCK_MINUTES * 60_000)),
              ),
            ),
            notExists(refundedOrGoing),
          ),
        )
        .orderBy(desc(orders.created))
        .limit(50),
      awaitingDelivery(db, now),
    ])
  const created = statusRows.reduce((a, r) => a + r.n, 0)
  const paid = paidRows[0]?.n ?? 0
  const gross = new Map<string, number>()
  for (const r of revenueRows) gross.set(r.currency, (gross.get(r.currency) ?? 0) + r.amount)
  const back = new Map(refundRows.map((r) => [r.currency, r.amount]))
  const currencies = [...new Set([...gross.keys(), ...back.keys()])].sort()
  return {
    days,
    revenue_by_day: revenueRows.map((r) => ({ day: r.day, currency: r.currency, amount: toMoney(r.amount) })),
    revenue: currencies.map((currency) => {
      const amount = gross.get(currency) ?? 0
      const refundsIn = back.get(currency) ?? 0
      return {
        currency,
        amount: toMoney(amount),
        refunds: toMoney(refundsIn),
        net: toMoney(amount - refundsIn),
      }
    }),
    orders_by_status: Object.fromEntries(
      ORDER_STATUSES.map((st) => [st, statusRows.find((r) => r.status === st)?.n ?? 0]),
    ) as Record<OrderStatus, number>,
    orders_created: created,
    orders_paid: paid,
    /** Paid share of created orders, in whole percent. */
    paid_percent: created ? Math.round((paid * 100) / created) : 0,
    top_products: topRows.map((r) => ({
      id: r.id,
      title: r.title,
      quantity: r.quantity,
      revenue: toMoney(r.revenue),
    })),
    // under each one's own threshold (issue 37; none set: LOW_STOCK, 0: never), as the alerts count
    low_stock: [
      ...stock.products.filter(isLow).map(({ threshold: _, ...p }) => ({ kind: 'product' as const, ...p })),
      ...stock.gifts.filter(isLow).map(({ threshold: _, ...g }) => ({ kind: 'gift' as const, ...g })),
    ],
    /** Paid orders of manual games waiting for a person (the desk's queue), and the oldest's wait. */
    awaiting_delivery: waiting,
    needs_attention: attention.map((a) => ({
      id: a.id,
      number: a.number,
      status: a.status,
      reason: a.reason,
      created: a.created.toISOString(),
      // escalated: taken at the desk but past its auto-refund deadline; the owner decides (decision 125)
      waiting: a.review
        ? ('review' as const)
        : a.delivery
          ? a.escalated
            ? ('escalated' as const)
            : ('delivery' as const)
          : null,
    })),
  }
}
