import { createHash, randomUUID } from 'node:crypto'
import type { ApiDeps } from '../context'
import type { ApiConfig } from '../env'
import { parseMoney, toMoney } from '../lib/money'
import { payselectionReceiptData } from '../services/receipts/formats'
import { hmacSha256Hex, safeEqual } from './signing'
import {
  type CreatePaymentInput,
  type CreatePaymentResult,
  type PaymentProvider,
  type PaymentRow,
  ProviderError,
  type ProviderPaymentState,
  type ProviderRefundResult,
  ProviderRejected,
  type RefundOptions,
} from './types'

type PayselectionConfig = NonNullable<ApiConfig['payselection']>

const TIMEOUT_MS = 15_000

/**
 * Request signature: HMAC-SHA256 (hex, key = secret key) of
 * "{METHOD}\n{path of the url}\n{X-SITE-ID}\n{X-REQUEST-ID}\n{body}".
 */
export function signPayselectionRequest(
  secretKey: string,
  parts: { method: string; path: string; siteId: string; requestId: string; body: string },
): string {
  return hmacSha256Hex(
    secretKey,
    `${parts.method.toUpperCase()}\n${parts.path}\n${parts.siteId}\n${parts.requestId}\n${parts.body}`,
  )
}

/** Webhook signature: HMAC-SHA256 (hex, key = secret key) of the raw request body. */
export function signPayselectionWebhook(secretKey: string, rawBody: string): string {
  return hmacSha256Hex(secretKey, rawBody)
}

export function verifyPayselectionWebhook(
  secretKey: string,
  rawBody: string,
  signature: string | undefined,
): boolean {
  return safeEqual(signPayselectionWebhook(secretKey, rawBody), signature)
}

function configOf(deps: ApiDeps): PayselectionConfig {
  const cfg = deps.config.payselection
  if (!cfg) throw new ProviderError('payselection is not configured')
  return cfg
}

/** One signed call to the Payselection gateway; the parsed JSON answer. */
async function call(
  deps: ApiDeps,
  method: 'GET' | 'POST',
  path: string,
  payload?: unknown,
  requestId: string = randomUUID(),
): Promise<unknown> {
  const cfg = configOf(deps)
  const url = new URL(path, `${cfg.apiUrl.replace(/\/$/, '')}/`)
  const body = payload === undefined ? '' : JSON.stringify(payload)
  const headers: Record<string, string> = {
    'X-SITE-ID': cfg.siteId,
    'X-REQUEST-ID': requestId,
    'X-REQUEST-SIGNATURE': signPayselectionRequest(cfg.secretKey, {
      method,
      path: url.pathname,
      siteId: cfg.siteId,
      requestId,
      body,
    }),
    accept: 'application/json',
  }
  if (body) headers['content-type'] = 'application/json'
  let res: Response
  try {
    res = await deps.fetch(url, {
      method,
      headers,
      body: body || undefined,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
  } catch (e) {
    throw new ProviderError(`payselection unreachable: ${(e as Error).message}`)
  }
  const text = await res.text()
  if (!res.ok) throw new ProviderError(`payselection answered ${res.status}: ${text.slice(0, 200)}`)
  try {
    return JSON.parse(text)
  } catch {
    throw new ProviderError('payselection answered with a body that is not JSON')
  }
}

interface PayselectionTransaction {
  TransactionId?: string
  TransactionState?: string
  Amount?: string
  Currency?: string
}

/** Maps the gateway's transactions of one order to our final/pending state. */
export function stateFromTransactions(list: PayselectionTransaction[]): ProviderPaymentState {
  const ok = list.find((t) => t.TransactionState === 'success')
  if (ok) {
    const amount = parseMoney(ok.Amount ?? '')
    if (amount === null) throw new ProviderError('payselection sent an amount that is not money')
    return {
      state: 'succeeded',
      amount,
      currency: ok.Currency ?? '',
      eventKey: `${ok.TransactionId ?? ''}:success`,
    }
  }
  if (list.length > 0 && list.every((t) => t.TransactionState === 'declined')) {
    const last = list[list.length - 1]
    return { state: 'failed', eventKey: `${last?.TransactionId ?? ''}:declined` }
  }
  return { state: 'pending' }
}

/** A stable X-REQUEST-ID (UUID-shaped) for a key: the gateway treats a repeated id as the same request. */
export function requestIdFor(key: string): string {
  const h = createHash('sha256').update(key).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/**
 * Refund of a whole payment: the gateway's successful transaction of our payment id is looked up
 * (GET orders/{id}), then refunded (POST payments/refund) with a request id derived from `key`.
 */
async function refundPayment(
  payment: PaymentRow,
  deps: ApiDeps,
  opts: RefundOptions,
): Promise<ProviderRefundResult> {
  const cfg = configOf(deps)
  const list = await call(deps, 'GET', `orders/${encodeURIComponent(payment.id)}`)
  if (!Array.isArray(list)) throw new ProviderError('payselection order status is not a list')
  const paid = (list as PayselectionTransaction[]).find((t) => t.TransactionState === 'success')
  if (!paid?.TransactionId) throw new ProviderRejected('payselection has no successful transaction to refund')
  const answer = (await call(
    deps,
    'POST',
    'payments/refund',
    {
      TransactionId: paid.TransactionId,
      Amount: toMoney(opts.amount ?? payment.amount),
      Currency: opts.currency ?? payment.currency,
      WebhookUrl: cfg.webhookUrl ?? `${deps.config.publicUrl}/api/payments/payselection/webhook/`,
      ...(opts.receipt ? { ReceiptData: payselectionReceiptData(opts.receipt, new Date()) } : {}),
    },
    requestIdFor(opts.key),
  )) as { TransactionId?: unknown; TransactionState?: unknown } | null
  return stateOfPayselectionRefund(answer)
}

/**
 * A refund transaction's state: `success` paid back, `declined` will not be, anything else (`wait`,
 * `preauthorized`, missing) still under way — the shop waits for the webhook or the requery.
 */
export function stateOfPayselectionRefund(
  t: { TransactionId?: unknown; TransactionState?: unknown } | null,
): ProviderRefundResult {
  const externalId = typeof t?.TransactionId === 'string' ? t.TransactionId : null
  if (t?.TransactionState === 'success') return { state: 'succeeded', externalId }
  if (t?.TransactionState === 'declined') return { state: 'canceled', externalId }
  return { state: 'pending', externalId }
}

export const payselectionProvider: PaymentProvider = {
  name: 'payselection',
  carriesReceipt: true,
  isAvailable: (deps) => deps.config.payselection !== null,
  async createPayment(input: CreatePaymentInput, deps: ApiDeps): Promise<CreatePaymentResult> {
    const cfg = configOf(deps)
    const answer = await call(deps, 'POST', 'webpayments/create', {
      MetaData: { PaymentType: 'Pay' },
      PaymentRequest: {
        OrderId: input.payment.id,
        Amount: toMoney(input.amount),
        Currency: input.currency,
        Description: `Order ${input.order.id}`,
        ExtraData: {
          ReturnUrl: `${deps.config.publicUrl}/orders/${input.order.id}/pay`,
          WebhookUrl: cfg.webhookUrl ?? `${deps.config.publicUrl}/api/payments/payselection/webhook/`,
        },
      },
      ...(input.receipt ? { ReceiptData: payselectionReceiptData(input.receipt, new Date()) } : {}),
      CustomerInfo: {
        ...(input.customer.email ? { Email: input.customer.email } : {}),
        ...(input.customer.phone ? { Phone: input.customer.phone } : {}),
      },
    })
    // The gateway answers with the payment page url, as a JSON string or an object.
    const url =
      typeof answer === 'string'
        ? answer
        : typeof (answer as { Url?: unknown })?.Url === 'string'
          ? (answer as { Url: string }).Url
          : null
    if (!url || !/^https?:\/\//.test(url)) throw new ProviderError('payselection gave no payment url')
    return { scenario: { type: 'redirect', url } }
  },
  async fetchState(payment: PaymentRow, deps: ApiDeps): Promise<ProviderPaymentState> {
    const answer = await call(deps, 'GET', `orders/${encodeURIComponent(payment.id)}`)
    if (!Array.isArray(answer)) throw new ProviderError('payselection order status is not a list')
    return stateFromTransactions(answer as PayselectionTransaction[])
  },
  refund: refundPayment,
  async refundState(externalId: string, deps: ApiDeps): Promise<ProviderRefundResult> {
    const answer = await call(deps, 'GET', `transactions/${encodeURIComponent(externalId)}`)
    return stateOfPayselectionRefund(answer as { TransactionId?: unknown; TransactionState?: unknown } | null)
  },
}
