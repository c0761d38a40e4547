// «Сверка»: the pure comparison of a provider's books with the shop's for one period (issue 43).
// No database, no network: the service (./run.ts) reads both sides and stores what this answers.
// Money is in minor units. Every difference has a stable key (provider, object, kind), so the same
// difference found again by a later run or another instance is the same row.
import type { ReconciliationKind } from '../../db/schema'

/** A payment as the provider lists it. */
export interface ProviderPayment {
  id: string
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled'
  /** null when the provider sent no readable amount */
  amount: number | null
  currency: string
  createdAt: Date
  /** What we sent in the payment's metadata (our payment's and order's ids), when present. */
  ourPaymentId?: string
  ourOrderId?: string
}

/** A refund as the provider lists it. */
export interface ProviderRefund {
  id: string
  paymentId: string
  status: 'pending' | 'succeeded' | 'canceled'
  amount: number | null
  currency: string
  createdAt: Date
}

/** One of the shop's payments through this provider. */
export interface ShopPayment {
  id: string
  orderId: string
  externalId: string | null
  status: 'pending' | 'succeeded' | 'failed' | 'refused'
  amount: number
  currency: string
  created: Date
}

/** One of the shop's refunds of a payment through this provider. */
export interface ShopRefund {
  id: number
  orderId: string
  paymentId: string | null
  externalId: string | null
  status: 'pending' | 'done' | 'manual'
  method: 'provider' | 'balance' | 'manual'
  /** What the provider was asked to give back (minor units of `currency`). */
  amount: number
  currency: string
  created: Date
}

export interface Difference {
  key: string
  kind: ReconciliationKind
  orderId: string | null
  paymentId: string | null
  refundId: number | null
  externalId: string | null
  providerAmount: number | null
  providerCurrency: string | null
  shopAmount: number | null
  shopCurrency: string | null
  occurredAt: Date
}

export interface BooksInput {
  provider: string
  /** The period compared: objects created in [from, to). */
  from: Date
  to: Date
  now: Date
  /** Provider lists: the period and a margin either side (a clock's or a retry's difference). */
  providerPayments: ProviderPayment[]
  providerRefunds: ProviderRefund[]
  /** The shop's records of the period, and those the provider's objects name. */
  shopPayments: ShopPayment[]
  shopRefunds: ShopRefund[]
}

/**
 * How long a payment the provider took may stay pending in the shop before it is a difference:
 * the provider's notification (or the requery job) is on its way.
 */
export const SETTLE_MS = 15 * 60_000

/** The shop took the money of these payments (settled, or refused and refunded). */
const MONEY_TAKEN = new Set<ShopPayment['status']>(['succeeded', 'refused'])
/** The provider gave (or is giving) this refund back. */
const REFUND_LIVE = new Set<ProviderRefund['status']>(['pending', 'succeeded'])

const inPeriod = (at: Date, input: BooksInput) =>
  at.getTime() >= input.from.getTime() && at.getTime() < input.to.getTime()

const sameMoney = (a: number | null, ac: string, b: number, bc: string) => a === b && ac === bc

/** Every difference between the two books for the period, in a stable order. */
export function compareBooks(input: BooksInput): Difference[] {
  return [...comparePayments(input), ...compareRefunds(input)]
}

function comparePayments(input: BooksInput): Difference[] {
  const { provider } = input
  const out: Difference[] = []
  const shopByExternal = new Map<string, ShopPayment>()
  const shopById = new Map<string, ShopPayment>()
  for (const s of input.shopPayments) {
    shopById.set(s.id, s)
    if (s.externalId) shopByExternal.set(s.externalId, s)
  }
  const providerById = new Map(input.providerPayments.map((p) => [p.id, p]))
  const providerByOurs = new Map(
    input.providerPayments.flatMap((p) => (p.ourPaymentId ? [[p.ourPaymentId, p] as const] : [])),
  )

  for (const p of input.providerPayments) {
    if (p.status !== 'succeeded' || !inPeriod(p.createdAt, input)) continue
    // a payment whose creation answer never reached us is still ours by the metadata we sent
    const shop = shopByExternal.get(p.id) ?? (p.ourPaymentId ? shopById.get(p.ourPaymentId) : undefined)
    const common = {
      orderId: shop?.orderId ?? p.ourOrderId ?? null,
      paymentId: shop?.id ?? null,
      refundId: null,
      externalId: p.id,
      providerAmount: p.amount,
      providerCurrency: p.currency,
      occurredAt: p.createdAt,
    }
    if (!shop || !MONEY_TAKEN.has(shop.status)) {
      // the notification may still be on its way
      const inFlight = shop?.status === 'pending' && input.now.getTime() - p.createdAt.getTime() < SETTLE_MS
      if (inFlight) continue
      out.push({
        ...common,
        key: `${provider}:payment:${p.id}:paid_at_provider_only`,
        kind: 'paid_at_provider_only',
        shopAmount: shop ? shop.amount : null,
        shopCurrency: shop ? shop.currency : null,
      })
      continue
    }
    if (!sameMoney(p.amount, p.currency, shop.amount, shop.currency))
      out.push({
        ...common,
        key: `${provider}:payment:${p.id}:amount_differs`,
        kind: 'amount_differs',
        shopAmount: shop.amount,
        shopCurrency: shop.currency,
      })
  }

  for (const s of input.shopPayments) {
    if (!MONEY_TAKEN.has(s.status) || !inPeriod(s.created, input)) continue
    const p = (s.externalId ? providerById.get(s.externalId) : undefined) ?? providerByOurs.get(s.id)
    if (p?.status === 'succeeded') continue
    out.push({
      key: `${provider}:payment:${s.id}:paid_in_shop_only`,
      kind: 'paid_in_shop_only',
      orderId: s.orderId,
      paymentId: s.id,
      refundId: null,
      externalId: s.externalId,
      providerAmount: p ? p.amount : null,
      providerCurrency: p ? p.currency : null,
      shopAmount: s.amount,
      shopCurrency: s.currency,
      occurredAt: s.created,
    })
  }
  return out
}

function compareRefunds(input: BooksInput): Difference[] {
  const { provider } = input
  const out: Difference[] = []
  const shopByExternal = new Map<string, ShopRefund>()
  for (const r of input.shopRefunds) if (r.externalId) shopByExternal.set(r.externalId, r)
  const paymentsById = new Map(input.shopPayments.map((p) => [p.id, p]))
  const providerById = new Map(input.providerRefunds.map((r) => [r.id, r]))
  // a refund the shop asked for whose answer has not come back yet: known by its payment
  const asking = new Set<string>()
  for (const r of input.shopRefunds) {
    const ext = r.paymentId ? paymentsById.get(r.paymentId)?.externalId : null
    if (r.status === 'pending' && r.method === 'provider' && !r.externalId && ext) asking.add(ext)
  }

  for (const p of input.providerRefunds) {
    if (!REFUND_LIVE.has(p.status) || !inPeriod(p.createdAt, input)) continue
    const shop = shopByExternal.get(p.id)
    if (!shop) {
      if (asking.has(p.paymentId)) continue
      const paid = input.shopPayments.find((s) => s.externalId === p.paymentId)
      out.push({
        key: `${provider}:refund:${p.id}:refund_at_provider_only`,
        kind: 'refund_at_provider_only',
        orderId: paid?.orderId ?? null,
        paymentId: paid?.id ?? null,
        refundId: null,
        externalId: p.id,
        providerAmount: p.amount,
        providerCurrency: p.currency,
        shopAmount: null,
        shopCurrency: null,
        occurredAt: p.createdAt,
      })
      continue
    }
    if (!sameMoney(p.amount, p.currency, shop.amount, shop.currency))
      out.push({
        key: `${provider}:refund:${p.id}:amount_differs`,
        kind: 'amount_differs',
        orderId: shop.orderId,
        paymentId: shop.paymentId,
        refundId: shop.id,
        externalId: p.id,
        providerAmount: p.amount,
        providerCurrency: p.currency,
        shopAmount: shop.amount,
        shopCurrency: shop.currency,
        occurredAt: p.createdAt,
      })
  }

  for (const r of input.shopRefunds) {
    if (r.method !== 'provider' || r.status !== 'done' || !inPeriod(r.created, input)) continue
    const p = r.externalId ? providerById.get(r.externalId) : undefined
    if (p && REFUND_LIVE.has(p.status)) continue
    out.push({
      key: `${provider}:refund:${r.id}:refund_in_shop_only`,
      kind: 'refund_in_shop_only',
      orderId: r.orderId,
      paymentId: r.paymentId,
      refundId: r.id,
      externalId: r.externalId,
      providerAmount: p ? p.amount : null,
      providerCurrency: p ? p.currency : null,
      shopAmount: r.amount,
      shopCurrency: r.currency,
      occurredAt: r.created,
    })
  }
  return out
}
