// Where «Сверка» reads a provider's books: one source per payment provider whose API lists its
// payments and refunds. YooKassa does (GET /payments, GET /refunds); Payselection and GetPay offer
// no list in the API the shop uses, and the sandbox is the shop itself (nothing to compare with).
import type { ApiDeps } from '../../context'
import { parseMoney } from '../../lib/money'
import {
  fetchYookassaPayment,
  fetchYookassaRefund,
  type YookassaPayment,
  type YookassaRefund,
} from '../../providers/yookassa'
import { listYookassaPayments, listYookassaRefunds } from '../../providers/yookassa-lists'
import { ProviderError } from '../../providers/types'
import type { ProviderPayment, ProviderRefund } from './compare'

export interface ReconcileSource {
  provider: string
  isAvailable(deps: ApiDeps): boolean
  listPayments(deps: ApiDeps, from: Date, to: Date): Promise<ProviderPayment[]>
  listRefunds(deps: ApiDeps, from: Date, to: Date): Promise<ProviderRefund[]>
  /** One payment or refund by the provider's id; null when the provider does not have it. */
  payment(deps: ApiDeps, id: string): Promise<ProviderPayment | null>
  refund(deps: ApiDeps, id: string): Promise<ProviderRefund | null>
}

const amountOf = (a: { value: string; currency: string } | undefined) => ({
  amount: a ? parseMoney(a.value) : null,
  currency: a?.currency ?? '',
})

const when = (iso: string | undefined) => {
  const t = Date.parse(iso ?? '')
  if (Number.isNaN(t)) throw new ProviderError('yookassa listed an object without created_at')
  return new Date(t)
}

function fromYookassaPayment(p: YookassaPayment): ProviderPayment {
  return {
    id: p.id,
    status: p.status,
    ...amountOf(p.amount),
    createdAt: when(p.created_at),
    ourPaymentId: p.metadata?.payment_id,
    ourOrderId: p.metadata?.order_id,
  }
}

function fromYookassaRefund(r: YookassaRefund): ProviderRefund {
  return {
    id: r.id,
    paymentId: r.payment_id,
    status: r.status,
    ...amountOf(r.amount),
    createdAt: when(r.created_at),
  }
}

/** null when YooKassa has no such object (404) or cannot say now (the difference stays reported). */
async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read()
  } catch (e) {
    if (e instanceof ProviderError) return null
    throw e
  }
}

const yookassaSource: ReconcileSource = {
  provider: 'yookassa',
  isAvailable: (deps) => deps.config.yookassa !== null,
  listPayments: async (deps, from, to) =>
    (await listYookassaPayments(deps, from, to)).map(fromYookassaPayment),
  listRefunds: async (deps, from, to) => (await listYookassaRefunds(deps, from, to)).map(fromYookassaRefund),
  payment: (deps, id) => orNull(async () => fromYookassaPayment(await fetchYookassaPayment(deps, id))),
  refund: (deps, id) => orNull(async () => fromYookassaRefund(await fetchYookassaRefund(deps, id))),
}

export const RECONCILE_SOURCES: readonly ReconcileSource[] = [yookassaSource]
