// «Сверка» (issue 43): reads each provider's payments and refunds for a period, the shop's for the
// same period, compares them (./compare.ts) and keeps each difference as a row (one per key, so a
// re-run or a second instance finds it instead of adding one). A difference a later run over its
// moment no longer finds (a notification arrived meanwhile) is closed as `resolved`; one a person
// explained stays explained. The hourly job covers the last day; the owner can run it now.
import { and, eq, gte, inArray, lt, notInArray, or, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db } from '../../db/client'
import { orders, payments, reconciliationDifferences, refunds } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { log } from '../../lib/log'
import { compareBooks, type Difference, type ShopPayment, type ShopRefund } from './compare'
import { RECONCILE_SOURCES, type ReconcileSource } from './sources'

export const RECONCILIATION_JOB = 'reconciliation.run'
export const RECONCILIATION_EVERY_SECONDS = 3600
/** The period a run covers by default: the last day (each hourly run overlaps the previous ones). */
export const DEFAULT_HOURS = 24
/** The provider's lists are read this much wider than the period (its clock and ours, retries). */
const MARGIN_MS = 60 * 60_000

export interface ProviderRun {
  provider: string
  payments: number
  refunds: number
  found: number
  opened: number
  resolved: number
}

async function shopPayments(
  db: Db,
  provider: string,
  from: Date,
  to: Date,
  externalIds: string[],
  ids: string[],
) {
  const rows = await db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider),
        or(
          and(gte(payments.created, from), lt(payments.created, to)),
          externalIds.length ? inArray(payments.externalId, externalIds) : undefined,
          ids.length ? inArray(payments.id, ids) : undefined,
        ),
      ),
    )
  return rows.map(
    (p): ShopPayment => ({
      id: p.id,
      orderId: p.orderId,
      externalId: p.externalId,
      status: p.status,
      amount: p.amount,
      currency: p.currency,
      created: p.created,
    }),
  )
}

async function shopRefunds(db: Db, provider: string, from: Date, to: Date, externalIds: string[]) {
  const rows = await db
    .select({ refund: refunds, payment: payments })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        eq(payments.provider, provider),
        or(
          and(gte(refunds.created, from), lt(refunds.created, to)),
          externalIds.length ? inArray(refunds.externalId, externalIds) : undefined,
          // a refund still being asked for, whatever its age (its provider refund may be in the period)
          and(eq(refunds.status, 'pending'), eq(refunds.method, 'provider')),
        ),
      ),
    )
  return rows.map(
    ({ refund: r, payment: p }): ShopRefund => ({
      id: r.id,
      orderId: r.orderId,
      paymentId: r.paymentId,
      externalId: r.externalId,
      status: r.status,
      method: r.method,
      // what the provider was asked to give back: a refused payment's own amount, else the payment
      amount: r.kind === 'payment' ? r.amount : p.amount,
      currency: r.kind === 'payment' ? r.currency : p.currency,
      created: r.created,
    }),
  )
}

/** Reads both books of one provider and answers their differences (confirming "missing" ones one by one). */
async function differencesOf(deps: ApiDeps, source: ReconcileSource, from: Date, to: Date, now: Date) {
  const wideFrom = new Date(from.getTime() - MARGIN_MS)
  const wideTo = new Date(to.getTime() + MARGIN_MS)
  const providerPayments = await source.listPayments(deps, wideFrom, wideTo)
  const providerRefunds = await source.listRefunds(deps, wideFrom, wideTo)
  const named = providerPayments.flatMap((p) => (p.ourPaymentId ? [p.ourPaymentId] : []))
  const input = {
    provider: source.provider,
    from,
    to,
    now,
    providerPayments,
    providerRefunds,
    shopPayments: await shopPayments(
      deps.db,
      source.provider,
      from,
      to,
      providerPayments.map((p) => p.id),
      named.filter((id) => /^[0-9a-f-]{36}$/i.test(id)),
    ),
    shopRefunds: await shopRefunds(
      deps.db,
      source.provider,
      from,
      to,
      providerRefunds.map((r) => r.id),
    ),
  }
  let found = compareBooks(input)
  // what the shop has and the lists did not show may lie outside the wider period: ask for it
  const ask = found.filter(
    (d) => d.externalId && (d.kind === 'paid_in_shop_only' || d.kind === 'refund_in_shop_only'),
  )
  if (ask.length) {
    for (const d of ask) {
      const id = d.externalId as string
      if (d.kind === 'paid_in_shop_only') {
        const p = await source.payment(deps, id)
        if (p) input.providerPayments.push(p)
      } else {
        const r = await source.refund(deps, id)
        if (r) input.providerRefunds.push(r)
      }
    }
    found = compareBooks(input)
  }
  return { found, payments: providerPayments.length, refunds: providerRefunds.length }
}

/** Stores what a run found for one provider and closes what it no longer finds; counts both. */
async function store(db: Db, provider: string, from: Date, to: Date, found: Difference[], now: Date) {
  const orderIds = [
    ...new Set(found.flatMap((d) => (d.orderId && /^[0-9a-f-]{36}$/i.test(d.orderId) ? [d.orderId] : []))),
  ]
  const known = new Set(
    orderIds.length
      ? (await db.select({ id: orders.id }).from(orders).where(inArray(orders.id, orderIds))).map((o) => o.id)
      : [],
  )
  return db.transaction(async (tx) => {
    let opened = 0
    if (found.length) {
      const inserted = await tx
        .insert(reconciliationDifferences)
        .values(
          found.map((d) => ({
            key: d.key,
            provider,
            kind: d.kind,
            // the provider's metadata may name an order this shop does not have
            orderId: d.orderId && known.has(d.orderId) ? d.orderId : null,
            paymentId: d.paymentId,
            refundId: d.refundId,
            externalId: d.externalId,
            providerAmount: d.providerAmount,
            providerCurrency: d.providerCurrency,
            shopAmount: d.shopAmount,
            shopCurrency: d.shopCurrency,
            occurredAt: d.occurredAt,
            detectedAt: now,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: reconciliationDifferences.id })
      // found again after a run had closed it: open again (an explained one stays explained)
      const reopened = await tx
        .update(reconciliationDifferences)
        .set({ status: 'open', resolvedAt: null, detectedAt: now })
        .where(
          and(
            eq(reconciliationDifferences.status, 'resolved'),
            inArray(
              reconciliationDifferences.key,
              found.map((d) => d.key),
            ),
          ),
        )
        .returning({ id: reconciliationDifferences.id })
      opened = inserted.length + reopened.length
    }
    const resolved = await tx
      .update(reconciliationDifferences)
      .set({ status: 'resolved', resolvedAt: now })
      .where(
        and(
          eq(reconciliationDifferences.provider, provider),
          eq(reconciliationDifferences.status, 'open'),
          gte(reconciliationDifferences.occurredAt, from),
          lt(reconciliationDifferences.occurredAt, to),
          found.length
            ? notInArray(
                reconciliationDifferences.key,
                found.map((d) => d.key),
              )
            : undefined,
        ),
      )
      .returning({ id: reconciliationDifferences.id })
    return { opened, resolved: resolved.length }
  })
}

/** Compares every configured provider's books with the shop's for [from, to). */
export async function runReconciliation(
  deps: ApiDeps,
  period: { from: Date; to: Date },
  now = new Date(),
): Promise<ProviderRun[]> {
  const out: ProviderRun[] = []
  for (const source of RECONCILE_SOURCES) {
    if (!source.isAvailable(deps)) continue
    const read = await differencesOf(deps, source, period.from, period.to, now)
    const stored = await store(deps.db, source.provider, period.from, period.to, read.found, now)
    out.push({
      provider: source.provider,
      payments: read.payments,
      refunds: read.refunds,
      found: read.found.length,
      ...stored,
    })
  }
  if (out.some((r) => r.opened || r.resolved)) log.info({ runs: out }, 'reconciliation')
  return out
}

/** The period ending now and starting `hours` before. */
export function lastHours(hours: number, now = new Date()) {
  return { from: new Date(now.getTime() - hours * 3600_000), to: now }
}

export const reconciliationJob: JobHandler = async (_job, deps) => {
  await runReconciliation(deps, lastHours(DEFAULT_HOURS))
}

/** How many differences are open, by provider and kind (the metric, the overview). */
export async function openDifferenceCounts(db: Db) {
  return db
    .select({
      provider: reconciliationDifferences.provider,
      kind: reconciliationDifferences.kind,
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(reconciliationDifferences)
    .where(eq(reconciliationDifferences.status, 'open'))
    .groupBy(reconciliationDifferences.provider, reconciliationDifferences.kind)
}
