// The risk rules (issue 34), checked when a payment succeeds, before anything is delivered: each
// switchable in the «Антифрод» settings, with its threshold. Returns the rules the order trips.
import { createRequire } from 'node:module'
import { and, eq, gte, inArray, isNotNull, lt, ne, notExists, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { orderReviews, orders, payments } from '../../db/schema'
import { emailKey } from '../identity/email-key'
import { emailKeySql } from '../identity/email-key-sql'
import { emailDomain } from './gate'
import type { RiskRule, RiskSettings } from './settings'

// read through require: the compiled server keeps packages external, and esbuild drops an external
// JSON import's `with { type: 'json' }` attribute, which Node then refuses
const DISPOSABLE = new Set<string>(createRequire(import.meta.url)('disposable-email-domains') as string[])

export const isDisposableEmail = (email: string | null) =>
  email !== null && DISPOSABLE.has(emailDomain(email))

type OrderRow = typeof orders.$inferSelect
type PaymentRow = typeof payments.$inferSelect

const HOUR = 3_600_000

/** Paid orders (this one included) matching `where` since `since`. */
async function paidOrders(tx: Tx, where: ReturnType<typeof and>, since: Date): Promise<number> {
  const [r] = await tx
    .select({ n: sql<number>`count(distinct ${orders.id})::int` })
    .from(orders)
    .innerJoin(payments, eq(payments.orderId, orders.id))
    .where(and(where, isNotNull(orders.paidAt), gte(orders.paidAt, since), eq(payments.status, 'succeeded')))
  return r?.n ?? 0
}

/**
 * Decision 142: an address alone never holds an order (mobile networks put thousands of buyers
 * behind one IPv4). For an order whose own email is new — no paid order of its key before the hour,
 * orders refused or still held on review not counted — the distinct new emails that paid from its
 * network (IPv6 /64, IPv4 exact — issue 42) in the hour, its own included. Returning buyers neither
 * count nor are held by it. Zero when the order's email is not new; the paid keys alone when they
 * are no more than `over` (no need to tell the returning ones apart then).
 */
async function newEmailsOfNetwork(
  tx: Tx,
  key: string,
  network: string,
  since: Date,
  over: number,
): Promise<number> {
  const k = emailKeySql(orders.email)
  // a returning buyer: a paid order before the hour that was neither refused nor is still held
  const before = (keys: string[]) =>
    tx
      .selectDistinct({ key: k })
      .from(orders)
      .where(
        and(
          isNotNull(orders.paidAt),
          lt(orders.paidAt, since),
          ne(orders.status, 'failed'),
          inArray(k, keys),
          notExists(
            tx
              .select({ id: orderReviews.orderId })
              .from(orderReviews)
              .where(and(eq(orderReviews.orderId, orders.id), eq(orderReviews.status, 'held'))),
          ),
        ),
      )
  if ((await before([key])).length > 0) return 0
  const paid = await tx
    .selectDistinct({ key: k })
    .from(orders)
    .innerJoin(payments, eq(payments.orderId, orders.id))
    .where(
      and(
        eq(payments.clientNetwork, network),
        eq(payments.status, 'succeeded'),
        isNotNull(orders.email),
        isNotNull(orders.paidAt),
        gte(orders.paidAt, since),
      ),
    )
  const keys = [...new Set([key, ...paid.map((r) => r.key)])]
  if (keys.length <= over) return keys.length
  return keys.length - (await before(keys)).length
}

export async function trippedRules(
  tx: Tx,
  s: RiskSettings,
  order: OrderRow,
  payment: PaymentRow,
  now = new Date(),
): Promise<RiskRule[]> {
  const on = (r: RiskRule) => s.rules[r] === true
  const out: RiskRule[] = []
  const email = order.email?.toLowerCase() ?? null
  // one buyer per mailbox, aliases included (issue 42)
  const key = order.email ? emailKey(order.email) : null
  const sameEmail = key ? sql`${emailKeySql(orders.email)} = ${key}` : null
  const hourAgo = new Date(now.getTime() - HOUR)

  // an email's first order: no other order of it was ever paid
  const first =
    sameEmail !== null &&
    (
      await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(sameEmail, isNotNull(orders.paidAt), ne(orders.id, order.id)))
        .limit(1)
    ).length === 0
  if (on('first_order_over') && first && order.total > s.first_order_over) out.push('first_order_over')
  if (
    on('promo_first_order_over') &&
    first &&
    order.promoCodeId !== null &&
    order.total > s.promo_first_order_over
  )
    out.push('promo_first_order_over')
  if (on('paid_per_email') && sameEmail && (await paidOrders(tx, and(sameEmail), hourAgo)) > s.paid_per_hour)
    out.push('paid_per_email')
  if (
    on('paid_per_address') &&
    key !== null &&
    payment.clientNetwork &&
    payment.clientNetwork !== 'unknown' &&
    (await newEmailsOfNetwork(tx, key, payment.clientNetwork, hourAgo, s.paid_per_address_hour)) >
      s.paid_per_address_hour
  )
    out.push('paid_per_address')
  if (payment.cardHash) {
    const card = eq(payments.cardHash, payment.cardHash)
    if (on('paid_per_card') && (await paidOrders(tx, and(card), hourAgo)) > s.paid_per_hour)
      out.push('paid_per_card')
    if (on('card_many_emails')) {
      const [r] = await tx
        .select({ n: sql<number>`count(distinct ${emailKeySql(orders.email)})::int` })
        .from(orders)
        .innerJoin(payments, eq(payments.orderId, orders.id))
        .where(
          and(
            card,
            eq(payments.status, 'succeeded'),
            gte(orders.paidAt, new Date(now.getTime() - 24 * HOUR)),
          ),
        )
      if ((r?.n ?? 0) > s.card_emails_per_day) out.push('card_many_emails')
    }
  }
  if (
    on('card_country') &&
    payment.cardCountry &&
    payment.countryCode &&
    payment.cardCountry !== payment.countryCode
  )
    out.push('card_country')
  if (on('disposable_email') && isDisposableEmail(email)) out.push('disposable_email')
  return out
}
