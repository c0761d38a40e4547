import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { ApiApp, AppEnv } from '../context'
import { ApiError, fail, message } from '../lib/errors'
import { parseMoney } from '../lib/money'
import { warnSparingly } from '../lib/log-sparingly'
import { errorResponses, jsonContent, uuidString } from '../lib/schemas'
import { type GetpayNotice, GETPAY_SIGNED_FIELDS, verifyGetpayNotice } from '../providers/getpay'
import { verifyPayselectionWebhook } from '../providers/payselection'
import { ProviderError } from '../providers/types'
import { canSee, isUuid, loadOrderForCaller } from '../services/orders/access'
import { settlePaymentFailed, settlePaymentSucceeded } from '../services/payments/settle'
import { syncPaymentWithProvider } from '../services/payments/requery'
import {
  findOrderById,
  orderExists,
  orderStatusBody,
  type PaymentRow,
  providerPaymentsOf,
} from '../services/payments/status'
import { OrderStatusSchema } from './payments-schemas'
import { actorOf } from '../lib/actor'

const OkSchema = z.object({ status: z.literal('ok') }).openapi('CallbackOk')

const webhookRoute = createRoute({
  method: 'post',
  path: '/api/payments/payselection/webhook/',
  tags: ['payments-callbacks'],
  summary: 'Payselection webhook (server to server)',
  description:
    '`X-WEBHOOK-SIGNATURE` = hex HMAC-SHA256 of the raw body keyed with the secret key, checked before ' +
    'anything else (403). Body: `Event` (Payment | Fail | …), `TransactionId`, `OrderId` (our payment id), ' +
    '`Amount` ("123.45"), `Currency`. Each (TransactionId, Event) is processed once. A payment whose ' +
    'amount or currency is not the payment’s, or whose order is no longer payable, is refused and ' +
    'refunded, and answered 200 like any processed event (an unreadable Amount is a 400).',
  responses: { 200: jsonContent(OkSchema), ...errorResponses(400, 403, 404, 409) },
})

const StatusBody = z
  .object({
    order_id: z.string().max(36).openapi({ format: 'uuid' }),
    currency: z.string().max(8).optional(),
  })
  .openapi('PayselectionStatusRequest')

const statusRoute = createRoute({
  method: 'post',
  path: '/api/payments/payselection/status/',
  tags: ['payments-callbacks'],
  summary: 'Ask Payselection for the state of the order’s latest payment and apply it',
  description:
    "Same access as GET /api/orders/{id}/. Applies what Payselection reports to the order's latest Payselection payment (in `currency` when given) and answers the order status; 404 without such a payment, 502 when Payselection cannot be reached.",
  request: { body: { content: { 'application/json': { schema: StatusBody } }, required: true } },
  responses: {
    200: jsonContent(OrderStatusSchema),
    ...errorResponses(400, 404, 409),
    502: jsonContent(z.object({ detail: z.string(), code: z.string() }), 'Payselection unreachable'),
  },
})

const termRoute = createRoute({
  method: 'post',
  path: '/api/payments/payselection/term/{order_id}/',
  tags: ['payments-callbacks'],
  summary: '3-D Secure / termination return: look up and apply the payment state',
  description:
    'Browsers are sent on with 303 to {publicUrl}/orders/{order_id}/pay. With `Accept: application/json` ' +
    'the answer is the order status instead.',
  request: {
    params: z.object({
      order_id: uuidString(message('order_id_invalid')).openapi({ param: { name: 'order_id', in: 'path' } }),
    }),
  },
  responses: {
    200: jsonContent(OrderStatusSchema),
    303: { description: 'To the order’s pay page' },
    ...errorResponses(400, 404),
  },
})

const notifyRoute = createRoute({
  method: 'post',
  path: '/api/payments/getpay/notify/',
  tags: ['payments-callbacks'],
  summary: 'GetPay payment notification (form or JSON)',
  description:
    'Fields WALLET_ID, WALLET_TYPE, SUM, ORDER_ID (our order id), P_TYPE, P_WALLET, PAYMENT_ID, SIGN. ' +
    'SIGN = lowercase hex SHA-256 of "WALLET_ID:WALLET_TYPE:SUM:ORDER_ID:P_TYPE:P_WALLET:PAYMENT_ID:{secret}", ' +
    'compared in constant time (403). WALLET_ID must be ours (403), the order must exist (404), SUM must ' +
    'be an amount (400). A PAYMENT_ID is processed once. A SUM other than the payment amount, or an ' +
    'order no longer payable: the payment is refused and given back, and still answered `OK`.',
  responses: {
    200: { description: 'Processed (or a replay)', content: { 'text/plain': { schema: z.literal('OK') } } },
    ...errorResponses(400, 403, 404, 409),
  },
})

async function latestProviderPayment(
  c: Context<AppEnv>,
  orderId: string,
  provider: string,
  currency?: string,
) {
  const rows = await providerPaymentsOf(c.var.deps.db, orderId, provider)
  const p = currency ? rows.find((r) => r.currency === currency.toUpperCase()) : rows[0]
  if (!p) throw fail(404, 'payment_not_found')
  return p
}

/** Asks Payselection about a payment and applies a final answer (once per transaction event). */
async function syncPayselection(c: Context<AppEnv>, payment: PaymentRow) {
  if (!c.var.deps.config.payselection) throw fail(404, 'payment_not_found')
  try {
    await syncPaymentWithProvider(c.var.deps, payment)
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e
    warnSparingly('payselection:status', 'payselection status query failed', e)
    throw new ApiError(502, 'payment_provider_error', message('payment_provider_error'))
  }
}

async function statusOf(c: Context<AppEnv>, orderId: string) {
  const order = await findOrderById(c.var.deps.db, orderId)
  if (!order) throw fail(404, 'order_not_found')
  return { order, body: await orderStatusBody(c.var.deps.db, order) }
}

async function readNotice(c: Context<AppEnv>): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  try {
    const type = c.req.header('content-type') ?? ''
    const body = type.includes('application/json')
      ? ((await c.req.json()) as Record<string, unknown>)
      : ((await c.req.parseBody()) as Record<string, unknown>)
    for (const [k, v] of Object.entries(body ?? {}))
      if (typeof v === 'string' || typeof v === 'number') out[k] = String(v)
  } catch {
    throw fail(400, 'malformed_body')
  }
  return out
}

export function registerPaymentCallbacks(app: ApiApp) {
  app.openapi(webhookRoute, async (c) => {
    const cfg = c.var.deps.config.payselection
    if (!cfg) throw fail(404, 'not_found')
    const raw = await c.req.text()
    if (!verifyPayselectionWebhook(cfg.secretKey, raw, c.req.header('x-webhook-signature')))
      throw fail(403, 'payment_signature_invalid')
    const site = c.req.header('x-site-id')
    if (site !== undefined && site !== cfg.siteId) throw fail(403, 'payment_signature_invalid')
    let event: Record<string, unknown>
    try {
      event = JSON.parse(raw) as Record<string, unknown>
    } catch {
      throw fail(400, 'malformed_body')
    }
    const kind = String(event.Event ?? '')
    const paymentId = String(event.OrderId ?? '')
    const eventKey = `${String(event.TransactionId ?? '')}:${kind}`
    if (!isUuid(paymentId)) throw fail(404, 'payment_not_found')
    if (kind === 'Payment') {
      const amount = parseMoney(String(event.Amount ?? ''))
      if (amount === null) throw fail(400, 'payment_amount_mismatch')
      await settlePaymentSucceeded(c.var.deps, {
        paymentId,
        provider: 'payselection',
        eventKey,
        amount,
        currency: typeof event.Currency === 'string' ? event.Currency : undefined,
        // the masked card number and issuing country, when Payselection sends them
        card: {
          masked: typeof event.CardMasked === 'string' ? event.CardMasked : undefined,
          issuerCountry: typeof event.CardCountry === 'string' ? event.CardCountry : undefined,
        },
      })
    } else if (kind === 'Fail') {
      await settlePaymentFailed(c.var.deps, { paymentId, provider: 'payselection', eventKey })
    }
    return c.json({ status: 'ok' as const }, 200)
  })

  app.openapi(statusRoute, async (c) => {
    const { order_id, currency } = c.req.valid('json')
    const order = await loadOrderForCaller(c.var.deps.db, actorOf(c), order_id)
    await syncPayselection(c, await latestProviderPayment(c, order.id, 'payselection', currency))
    return c.json((await statusOf(c, order.id)).body, 200)
  })

  app.openapi(termRoute, async (c) => {
    const { order_id } = c.req.valid('param')
    const id = order_id.toLowerCase()
    const wantsJson = (c.req.header('accept') ?? '').includes('application/json')
    try {
      await syncPayselection(c, await latestProviderPayment(c, id, 'payselection'))
    } catch (e) {
      // the shopper still goes back to the pay page, which shows the current state; anyone may
      // post here, so an unknown order or payment is not logged and a failure is one thinned line
      if (wantsJson) throw e
      if (!(e instanceof ApiError)) warnSparingly('payselection:term', 'payselection return not applied', e)
    }
    if (!wantsJson) return c.redirect(`${c.var.deps.config.publicUrl}/orders/${id}/pay`, 303) as never
    const s = await statusOf(c, id)
    if (!canSee(s.order, c.var.userId)) throw fail(404, 'order_not_found')
    return c.json(s.body, 200)
  })

  app.openapi(notifyRoute, async (c) => {
    const cfg = c.var.deps.config.getpay
    if (!cfg) throw fail(404, 'not_found')
    const f = await readNotice(c)
    for (const k of [...GETPAY_SIGNED_FIELDS, 'SIGN'] as const)
      if (typeof f[k] !== 'string') throw fail(400, 'payment_notice_incomplete', { field: k })
    const notice = f as unknown as GetpayNotice
    if (!verifyGetpayNotice(cfg.secret, notice)) throw fail(403, 'payment_signature_invalid')
    if (notice.WALLET_ID !== cfg.walletId) throw fail(403, 'payment_wallet_mismatch')
    if (!isUuid(notice.ORDER_ID)) throw fail(404, 'order_not_found')
    const orderId = notice.ORDER_ID.toLowerCase()
    if (!(await orderExists(c.var.deps.db, orderId))) throw fail(404, 'order_not_found')
    const payment = await latestProviderPayment(c, orderId, 'getpay')
    const sum = parseMoney(notice.SUM)
    // another sum is taken and refused by the settlement (given back), not refused here
    if (sum === null) throw fail(400, 'payment_amount_mismatch')
    await settlePaymentSucceeded(c.var.deps, {
      paymentId: payment.id,
      provider: 'getpay',
      eventKey: notice.PAYMENT_ID,
      amount: sum,
    })
    return c.text('OK', 200)
  })
}
