// The «Проверка» queue of the delivery desk (issue 34): paid orders held for review, oldest first,
// with the rules that tripped, the buyer's other orders, and the card's and address's history.
import { and, asc, desc, eq, gte, ne, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { games, orderReviews, orders, payments } from '../../db/schema'
import { toMoney } from '../../lib/money'

const DAY = 86_400_000

export async function listHeld(db: Db, limit = 50, now = new Date()) {
  const rows = await db
    .select({ review: orderReviews, order: orders, gameTitle: games.title })
    .from(orderReviews)
    .innerJoin(orders, eq(orders.id, orderReviews.orderId))
    .leftJoin(games, eq(games.id, orders.gameId))
    .where(eq(orderReviews.status, 'held'))
    .orderBy(asc(orderReviews.created))
    .limit(limit)
  const monthAgo = new Date(now.getTime() - 30 * DAY)
  return Promise.all(
    rows.map(async ({ review, order, gameTitle }) => {
      const [pay] = await db
        .select()
        .from(payments)
        .where(and(eq(payments.orderId, order.id), eq(payments.status, 'succeeded')))
        .orderBy(desc(payments.created))
        .limit(1)
      const others = order.email
        ? await db
            .select({
              id: orders.id,
              status: orders.status,
              total: orders.totalToPay,
              created: orders.created,
            })
            .from(orders)
            .where(and(sql`lower(${orders.email}) = ${order.email.toLowerCase()}`, ne(orders.id, order.id)))
            .orderBy(desc(orders.created))
            .limit(10)
        : []
      const historyOf = async (cond: ReturnType<typeof eq>) => {
        const [h] = await db
          .select({
            orders: sql<number>`count(distinct ${orders.id})::int`,
            emails: sql<number>`count(distinct lower(${orders.email}))::int`,
          })
          .from(payments)
          .innerJoin(orders, eq(orders.id, payments.orderId))
          .where(and(cond, eq(payments.status, 'succeeded'), gte(payments.created, monthAgo)))
        return { paid_orders_30d: h?.orders ?? 0, emails_30d: h?.emails ?? 0 }
      }
      return {
        id: order.id,
        game: gameTitle ?? '',
        email: order.email,
        total_to_pay: toMoney(order.totalToPay),
        paid_at: (order.paidAt ?? review.created).toISOString(),
        held_at: review.created.toISOString(),
        rules: review.rules,
        client_address: pay?.clientAddress ?? null,
        card: pay?.cardHash
          ? {
              ref: pay.cardHash.slice(0, 12),
              issuer_country: pay.cardCountry,
              ...(await historyOf(eq(payments.cardHash, pay.cardHash))),
            }
          : null,
        address_history: pay?.clientAddress
          ? await historyOf(eq(payments.clientAddress, pay.clientAddress))
          : null,
        payment_country: pay?.countryCode ?? null,
        other_orders: others.map((o) => ({
          id: o.id,
          status: o.status,
          total_to_pay: toMoney(o.total),
          created: o.created.toISOString(),
        })),
      }
    }),
  )
}

/**
 * Review decisions by rule for the metrics (issue 34): for every rule, how many orders it held
 * (`held`: still waiting), and how many of those staff approved or rejected.
 */
export async function reviewCountsByRule(
  db: Db,
): Promise<Array<{ rule: string; status: 'held' | 'approved' | 'rejected'; n: number }>> {
  const res = (await db.execute(
    sql`select r.rule, v.status, count(*)::int as n
        from ${orderReviews} v, jsonb_array_elements_text(v.rules) as r(rule)
        group by r.rule, v.status order by r.rule, v.status`,
  )) as unknown as { rows: Array<{ rule: string; status: 'held' | 'approved' | 'rejected'; n: number }> }
  return res.rows.map((r) => ({ rule: String(r.rule), status: r.status, n: Number(r.n) }))
}
