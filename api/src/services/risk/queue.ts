// The «Проверка» queue of the delivery desk (issue 34): paid orders held for review, oldest first,
// with the rules that tripped, the buyer's other orders, and the card's and address's history.
import { and, asc, desc, eq, gte, isNull, ne, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { games, giftCodes, orderReviews, orders, payments, voucherCodes } from '../../db/schema'
import { toMoney } from '../../lib/money'

const DAY = 86_400_000

/**
 * The codes a held order still has put aside (issue 47: the desk said «Коды зарезервированы» for an
 * order whose hold had lapsed): `held` while every unsold code it holds is held past now, `lapsed`
 * once one's hold ran out (another buyer may take it), `none` when it holds no code (no codes in
 * its kind, or they went back to stock). `until`: the first hold to end.
 */
async function codesHold(db: Db, orderId: string, now: Date) {
  const rows = await Promise.all(
    [voucherCodes, giftCodes].map(async (t) => {
      const [r] = await db
        .select({
          n: sql<number>`count(*)::int`,
          until: sql<Date | string | null>`min(${t.heldUntil})`,
        })
        .from(t)
        .where(and(eq(t.heldBy, orderId), isNull(t.soldAt)))
      return r
    }),
  )
  const n = rows.reduce((sum, r) => sum + Number(r?.n ?? 0), 0)
  const ends = rows.flatMap((r) => (r?.until ? [new Date(r.until)] : []))
  const until = ends.length ? new Date(Math.min(...ends.map((d) => d.getTime()))) : null
  if (n === 0) return { codes_hold: 'none' as const, codes_held_until: null }
  return {
    codes_hold: until && until > now ? ('held' as const) : ('lapsed' as const),
    codes_held_until: until?.toISOString() ?? null,
  }
}

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
              number: orders.number,
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
        number: order.number,
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
        ...(await codesHold(db, order.id, now)),
        other_orders: others.map((o) => ({
          id: o.id,
          number: o.number,
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
