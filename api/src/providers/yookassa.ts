// YooKassa (API v3): cards, SBP, SberPay and T-Pay. Every call is HTTP Basic (shop id : secret key);
// every POST carries an Idempotence-Key derived from what it is for (our payment id, our refund's
// cause), so a retry after a crash or a timeout is the same request and YooKassa answers it with
// the first answer instead of charging or refunding twice. Notifications are only a hint: the
// route (routes/payments-yookassa.ts) asks GET /payments/{id} and settles from that answer.
import { createHash } from 'node:crypto'
import type { ApiDeps } from '../context'
import type { ApiConfig } from '../env'
import { parseMoney, toMoney } from '../lib/money'
import { atolTimestamp, yookassaReceipt, yookassaSettlementReceipt } from '../services/receipts/formats'
import {
  type CreatePaymentInput,
  type CreatePaymentResult,
  type PaymentMethodRow,
  type PaymentProvider,
  type PaymentRow,
  ProviderError,
  type ProviderPaymentState,
  type ProviderReceiptState,
  ProviderRejected,
  type ProviderRefundResult,
  type RefundOptions,
} from './types'

type YookassaConfig = NonNullable<ApiConfig['yookassa']>

/** HTTP statuses YooKassa documents as the request refused outright (nothing created). */
const REJECTED_STATUSES = new Set([400, 403, 404])

const TIMEOUT_MS = 15_000
/** How long an SBP QR is offered before the page offers a new one (the bank apps' links last longer). */
export const SBP_QR_MINUTES = 20

/** payment_method_data.type of each kind of method we offer. */
export const YOOKASSA_KINDS = ['bank_card', 'sbp', 'sberbank', 'tinkoff_bank'] as const
export type YookassaKind = (typeof YOOKASSA_KINDS)[number]

/** The currencies our YooKassa methods charge: a shop's YooKassa account takes roubles only. */
export const YOOKASSA_CURRENCIES = ['RUB'] as const

/** The methods created when the keys are set (services/payments/yookassa-setup.ts). */
export const YOOKASSA_METHODS: ReadonlyArray<{ name: string; kind: YookassaKind }> = [
  { name: 'yookassa_card', kind: 'bank_card' },
  { name: 'yookassa_sbp', kind: 'sbp' },
  { name: 'yookassa_sberpay', kind: 'sberbank' },
  { name: 'yookassa_tpay', kind: 'tinkoff_bank' },
]

/**
 * Which YooKassa method a row means: its `scenario` column when it names one (set in the
 * back-office), else its name (`yookassa_sbp`…), else a card.
 */
export function yookassaKindOf(method: Pick<PaymentMethodRow, 'name' | 'scenario'>): YookassaKind {
  if (YOOKASSA_KINDS.includes(method.scenario as YookassaKind)) return method.scenario as YookassaKind
  return YOOKASSA_METHODS.find((m) => m.name === method.name)?.kind ?? 'bank_card'
}

/** A stable Idempotence-Key (YooKassa accepts up to 64 characters) for what a request is for. */
export function idempotenceKeyFor(purpose: string): string {
  return createHash('sha256').update(`yookassa|${purpose}`).digest('hex').slice(0, 64)
}

function configOf(deps: ApiDeps): YookassaConfig {
  const cfg = deps.config.yookassa
  if (!cfg) throw new ProviderError('yookassa is not configured')
  return cfg
}

/** One authenticated call; the parsed JSON answer. 4xx/5xx and unreadable bodies are ProviderErrors. */
export async function call(
  deps: ApiDeps,
  method: 'GET' | 'POST',
  path: string,
  payload?: unknown,
  idempotenceKey?: string,
): Promise<Record<string, unknown>> {
  const cfg = configOf(deps)
  const headers: Record<string, string> = {
    authorization: `Basic ${Buffer.from(`${cfg.shopId}:${cfg.secretKey}`).toString('base64')}`,
    accept: 'application/json',
  }
  if (payload !== undefined) headers['content-type'] = 'application/json'
  if (idempotenceKey) headers['idempotence-key'] = idempotenceKey
  let res: Response
  try {
    res = await deps.fetch(`${cfg.apiUrl}${path}`, {
      method,
      headers,
      body: payload === undefined ? undefined : JSON.stringify(payload),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (e) {
    throw new ProviderError(`yookassa unreachable: ${(e as Error).message}`)
  }
  const text = await res.text()
  if (!res.ok) {
    const what = `yookassa answered ${res.status}: ${text.slice(0, 200)}`
    // YooKassa's documented client errors (invalid_request, forbidden, not_found) mean the request
    // did nothing; 401 (our keys), 429 and 5xx leave its outcome unknown (repeat with the same key)
    throw REJECTED_STATUSES.has(res.status) ? new ProviderRejected(what) : new ProviderError(what)
  }
  try {
    const body = JSON.parse(text) as unknown
    if (body && typeof body === 'object') return body as Record<string, unknown>
  } catch {}
  throw new ProviderError('yookassa answered with a body that is not a JSON object')
}

/** A YooKassa payment object as far as we read it. */
export interface YookassaPayment {
  id: string
  status: 'pending' | 'waiting_for_capture' | 'succeeded' | 'canceled'
  paid?: boolean
  amount?: { value: string; currency: string }
  confirmation?: { type: string; confirmation_url?: string; confirmation_data?: string }
  cancellation_details?: { party?: string; reason?: string }
  metadata?: Record<string, string>
  created_at?: string
  payment_method?: {
    type?: string
    card?: {
      first6?: string
      last4?: string
      expiry_month?: string
      expiry_year?: string
      issuer_country?: string
    }
  }
}

export function asPayment(body: Record<string, unknown>): YookassaPayment {
  if (typeof body.id !== 'string' || typeof body.status !== 'string')
    throw new ProviderError('yookassa sent a payment without id or status')
  return body as unknown as YookassaPayment
}

/**
 * Our state from YooKassa's payment object. `succeeded` pays (amount as YooKassa took it);
 * `canceled` fails with its cancellation reason; `pending` and `waiting_for_capture` wait (we
 * create payments with capture: true, so the latter only passes by).
 */
export function stateOfYookassaPayment(p: YookassaPayment): ProviderPaymentState {
  if (p.status === 'succeeded' && p.paid !== false) {
    const amount = parseMoney(p.amount?.value ?? '')
    if (amount === null) throw new ProviderError('yookassa sent an amount that is not money')
    const card = p.payment_method?.card
    return {
      state: 'succeeded',
      amount,
      currency: p.amount?.currency ?? '',
      eventKey: `${p.id}:succeeded`,
      card: card ? { first6: card.first6, last4: card.last4, issuerCountry: card.issuer_country } : null,
    }
  }
  if (p.status === 'canceled')
    return {
      state: 'failed',
      eventKey: `${p.id}:canceled`,
      reason: p.cancellation_details?.reason ?? 'general_decline',
    }
  return { state: 'pending' }
}

/** GET /payments/{id}: the payment as YooKassa has it now. */
export async function fetchYookassaPayment(deps: ApiDeps, id: string): Promise<YookassaPayment> {
  return asPayment(await call(deps, 'GET', `/payments/${encodeURIComponent(id)}`))
}

/** A YooKassa refund object as far as we read it. */
export interface YookassaRefund {
  id: string
  payment_id: string
  status: 'pending' | 'succeeded' | 'canceled'
  amount?: { value: string; currency: string }
  created_at?: string
}

export function asRefund(body: Record<string, unknown>): YookassaRefund {
  if (typeof body.id !== 'string' || typeof body.status !== 'string')
    throw new ProviderError('yookassa sent a refund without id or status')
  return body as unknown as YookassaRefund
}

export async function fetchYookassaRefund(deps: ApiDeps, id: string): Promise<YookassaRefund> {
  return asRefund(await call(deps, 'GET', `/refunds/${encodeURIComponent(id)}`))
}

/** Our refund state from YooKassa's refund object (its three documented statuses, nothing else). */
export function stateOfYookassaRefund(r: YookassaRefund): ProviderRefundResult {
  if (r.status === 'pending' || r.status === 'succeeded' || r.status === 'canceled')
    return { state: r.status, externalId: r.id }
  throw new ProviderError(`yookassa sent a refund status it does not document: ${String(r.status)}`)
}

/**
 * POST /refunds of the payment (what it took, or `opts.amount`), keyed by the refund's cause: a
 * retried job gets YooKassa's first answer back, never a second refund. YooKassa's answer is the
 * refund's state as it is: `pending` stays pending in the shop until its notification or the
 * requery (decision 110).
 */
async function refundPayment(
  payment: PaymentRow,
  deps: ApiDeps,
  opts: RefundOptions,
): Promise<ProviderRefundResult> {
  if (!payment.externalId) throw new ProviderRejected('yookassa payment id unknown: nothing to refund')
  const refund = asRefund(
    await call(
      deps,
      'POST',
      '/refunds',
      {
        payment_id: payment.externalId,
        amount: {
          value: toMoney(opts.amount ?? payment.amount),
          currency: opts.currency ?? payment.currency,
        },
        ...(opts.receipt ? { receipt: yookassaReceipt(opts.receipt) } : {}),
      },
      idempotenceKeyFor(opts.key),
    ),
  )
  return stateOfYookassaRefund(refund)
}

/** A YooKassa receipt as our receipt state: `succeeded` is registered, with its fiscal attributes. */
function stateOfYookassaReceipt(r: Record<string, unknown>): ProviderReceiptState {
  const id = String(r.id ?? '')
  if (!id) throw new ProviderError('yookassa gave no receipt id')
  if (r.status === 'succeeded')
    return {
      state: 'registered',
      id,
      fiscal: {
        fn_number: String(r.fiscal_storage_number ?? ''),
        fiscal_document_number: String(r.fiscal_document_number ?? ''),
        fiscal_document_attribute: String(r.fiscal_attribute ?? ''),
        receipt_datetime: atolTimestamp(new Date(String(r.registered_at ?? Date.now()))),
      },
    }
  if (r.status === 'canceled') return { state: 'failed', id, reason: 'yookassa canceled the receipt' }
  return { state: 'pending', id }
}

export const yookassaProvider: PaymentProvider = {
  name: 'yookassa',
  // YooKassa registers the receipt sent with the payment or refund (receipt transport `with_payment`)
  carriesReceipt: true,
  isAvailable: (deps) => deps.config.yookassa !== null,
  async createPayment(input: CreatePaymentInput, deps: ApiDeps): Promise<CreatePaymentResult> {
    const kind = yookassaKindOf(input.method)
    const returnUrl = `${deps.config.publicUrl}/orders/${input.order.id}/pay`
    const answer = asPayment(
      await call(
        deps,
        'POST',
        '/payments',
        {
          amount: { value: toMoney(input.amount), currency: input.currency },
          capture: true,
          payment_method_data: { type: kind },
          confirmation: kind === 'sbp' ? { type: 'qr' } : { type: 'redirect', return_url: returnUrl },
          description: `Заказ ${input.order.id}`.slice(0, 128),
          metadata: { order_id: input.order.id, payment_id: input.payment.id },
          ...(input.receipt ? { receipt: yookassaReceipt(input.receipt) } : {}),
        },
        // one payment row is one YooKassa payment, however often the call is repeated
        idempotenceKeyFor(`payment:${input.payment.id}`),
      ),
    )
    const c = answer.confirmation
    if (kind === 'sbp') {
      if (typeof c?.confirmation_data !== 'string' || !c.confirmation_data)
        throw new ProviderError('yookassa gave no SBP QR data')
      const expires = new Date(Date.now() + SBP_QR_MINUTES * 60_000).toISOString()
      return {
        scenario: { type: 'invoice_qr', qr_str: c.confirmation_data, expires_at: expires },
        externalId: answer.id,
      }
    }
    const url = c?.confirmation_url
    if (typeof url !== 'string' || !/^https?:\/\//.test(url))
      throw new ProviderError('yookassa gave no confirmation url')
    return { scenario: { type: 'redirect', url }, externalId: answer.id }
  },
  async fetchState(payment: PaymentRow, deps: ApiDeps): Promise<ProviderPaymentState> {
    // a payment whose creation answer never reached us has no YooKassa id to ask about
    if (!payment.externalId) return { state: 'pending' }
    return stateOfYookassaPayment(await fetchYookassaPayment(deps, payment.externalId))
  },
  refund: refundPayment,
  // POST /receipts: the settlement of the advance the payment took (decision 059)
  async registerSettlement(doc, payment, deps, key) {
    if (!payment.externalId) throw new ProviderRejected('yookassa payment id unknown: no receipt to make')
    return stateOfYookassaReceipt(
      await call(
        deps,
        'POST',
        '/receipts',
        yookassaSettlementReceipt(doc, payment.externalId),
        idempotenceKeyFor(key),
      ),
    )
  },
  async receiptState(id, deps) {
    return stateOfYookassaReceipt(await call(deps, 'GET', `/receipts/${encodeURIComponent(id)}`))
  },
  async refundState(externalId: string, deps: ApiDeps): Promise<ProviderRefundResult> {
    return stateOfYookassaRefund(await fetchYookassaRefund(deps, externalId))
  },
}
