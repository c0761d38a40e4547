import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { ApiApp, AppEnv } from '../context'
import { ApiError, fail } from '../lib/errors'
import { ErrorSchema, errorResponses } from '../lib/schemas'
import { toMoney } from '../lib/money'
import { checkSandboxToken, sandboxToken } from '../providers/sandbox'
import {
  CHECKOUT_CSS,
  CHECKOUT_CSS_PATH,
  CHECKOUT_HEADERS,
  renderCheckout,
  renderCheckoutError,
} from '../services/payments/checkout-page'
import { publicPaymentStatus, settlePaymentFailed, settlePaymentSucceeded } from '../services/payments/settle'
import { paymentWithMethodTitle } from '../services/payments/status'

const PaymentParam = z.object({
  payment_id: z
    .uuid()
    .max(36)
    .openapi({ param: { name: 'payment_id', in: 'path' } }),
})

const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } })
/** The form's refusals are pages; the validation of the path's payment id answers JSON, as everywhere. */
const htmlOrJson = (description: string) => ({
  description,
  content: { 'text/html': { schema: z.string() }, 'application/json': { schema: ErrorSchema } },
})

const FORM_FIELDS =
  'Form fields (application/x-www-form-urlencoded or JSON): `amount` (minor units), `currency`, ' +
  '`token` = hex HMAC-SHA256 of "sandbox|{payment_id}|{amount}|{currency}" keyed with the server secret ' +
  '(the page and the `form` scenario carry it).'

const checkoutGet = createRoute({
  method: 'get',
  path: '/api/payments/sandbox/checkout/{payment_id}/',
  tags: ['payments-sandbox'],
  summary: 'Sandbox checkout page (HTML, Russian, works without JavaScript)',
  description:
    'Only when the sandbox payment system is on. The page posts its signed form to the confirm or decline operation below; an unknown payment answers an HTML 404.',
  request: { params: PaymentParam },
  responses: {
    200: html('The page with «Оплатить» and «Отклонить»'),
    ...errorResponses(400),
    404: html('Unknown payment'),
  },
})

const checkoutPost = createRoute({
  method: 'post',
  path: '/api/payments/sandbox/checkout/{payment_id}/',
  tags: ['payments-sandbox'],
  summary: 'Sandbox checkout page reached by the `form` scenario (fields checked)',
  description: FORM_FIELDS,
  request: { params: PaymentParam },
  responses: {
    200: html('The page'),
    400: htmlOrJson('A wrong amount or currency posted (a page), or a payment id that is no UUID (JSON)'),
    403: html('Bad signature'),
    404: html('Unknown payment'),
  },
})

const confirmRoute = createRoute({
  method: 'post',
  path: '/api/payments/sandbox/checkout/{payment_id}/confirm/',
  tags: ['payments-sandbox'],
  summary: 'Sandbox: the shopper paid. Payment succeeded → order paid → fulfilment; 303 to the pay page',
  description:
    `${FORM_FIELDS} A replay changes nothing and redirects again. Signed fields with another amount ` +
    'or currency, or an order no longer payable: the payment is refused and refunded (303 as well).',
  request: { params: PaymentParam },
  responses: {
    303: { description: 'To {publicUrl}/orders/{orderId}/pay' },
    400: htmlOrJson('Unreadable request (a page), or a payment id that is no UUID (JSON)'),
    403: html('Bad signature'),
    404: html('Unknown payment'),
    409: html('Payment no longer pending, or the order is already paid'),
  },
})

const declineRoute = createRoute({
  method: 'post',
  path: '/api/payments/sandbox/checkout/{payment_id}/decline/',
  tags: ['payments-sandbox'],
  summary: 'Sandbox: the shopper declined. Payment failed, order stays payable; 303 to the pay page',
  description: FORM_FIELDS,
  request: { params: PaymentParam },
  responses: {
    303: { description: 'To {publicUrl}/orders/{orderId}/pay' },
    400: htmlOrJson('Unreadable request (a page), or a payment id that is no UUID (JSON)'),
    403: html('Bad signature'),
    404: html('Unknown payment'),
  },
})

async function readFields(c: Context<AppEnv>): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? ''
  const out: Record<string, string> = {}
  try {
    if (type.includes('application/json')) {
      const body = (await c.req.json()) as Record<string, unknown>
      for (const [k, v] of Object.entries(body ?? {}))
        if (typeof v === 'string' || typeof v === 'number') out[k] = String(v)
    } else {
      const body = await c.req.parseBody()
      for (const [k, v] of Object.entries(body)) if (typeof v === 'string') out[k] = v
    }
  } catch {
    // an unreadable body has no valid token: refused below
  }
  return out
}

async function loadSandboxPayment(c: Context<AppEnv>, paymentId: string) {
  if (!c.var.deps.config.sandboxPayments) throw fail(404, 'payment_not_found')
  const row = await paymentWithMethodTitle(c.var.deps.db, paymentId)
  if (row?.payment.provider !== 'sandbox') throw fail(404, 'payment_not_found')
  return { ...row.payment, methodTitle: row.methodTitle ?? row.payment.methodName }
}

/** The signed fields must be ours for this payment (403); returns what they say was paid. */
function signedFields(c: Context<AppEnv>, p: { id: string }, f: Record<string, string>) {
  const amount = Number(f.amount)
  const currency = f.currency ?? ''
  if (
    !Number.isSafeInteger(amount) ||
    !checkSandboxToken(c.var.deps, { paymentId: p.id, amount, currency, token: f.token })
  )
    throw fail(403, 'payment_signature_invalid')
  return { amount, currency }
}

/** Signed fields whose amount and currency are the payment's (the page, a decline). */
function checkFields(
  c: Context<AppEnv>,
  p: { id: string; amount: number; currency: string },
  f: Record<string, string>,
) {
  const { amount, currency } = signedFields(c, p, f)
  if (amount !== p.amount || currency !== p.currency) throw fail(400, 'payment_amount_mismatch')
  return { amount, currency }
}

const returnUrl = (c: Context<AppEnv>, orderId: string) =>
  `${c.var.deps.config.publicUrl}/orders/${orderId}/pay`

function htmlError(c: Context<AppEnv>, err: unknown, orderId: string | null) {
  const e = err instanceof ApiError ? err : fail(400, 'bad_request')
  if (!(err instanceof ApiError)) console.error('[sandbox] checkout error', err)
  return c.body(
    renderCheckoutError(e.message, orderId ? returnUrl(c, orderId) : null),
    e.status as 400,
    CHECKOUT_HEADERS(c.var.deps.config.publicUrl),
  )
}

async function showPage(c: Context<AppEnv>, paymentId: string, fields: Record<string, string> | null) {
  let orderId: string | null = null
  try {
    const p = await loadSandboxPayment(c, paymentId)
    orderId = p.orderId
    if (fields) checkFields(c, p, fields)
    const body = renderCheckout({
      paymentId: p.id,
      orderId: p.orderId,
      amount: toMoney(p.amount),
      minorAmount: p.amount,
      currency: p.currency,
      methodTitle: p.methodTitle,
      status: publicPaymentStatus(p.status),
      token: sandboxToken(c.var.deps, p.id, p.amount, p.currency),
      returnUrl: returnUrl(c, p.orderId),
    })
    return c.body(body, 200, CHECKOUT_HEADERS(c.var.deps.config.publicUrl))
  } catch (e) {
    return htmlError(c, e, orderId)
  }
}

export function registerSandboxCheckout(app: ApiApp) {
  // the page's stylesheet (a static asset, not part of the contract)
  app.get(CHECKOUT_CSS_PATH, (c) =>
    c.body(CHECKOUT_CSS, 200, {
      'content-type': 'text/css; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    }),
  )
  app.openapi(checkoutGet, (c) => showPage(c, c.req.valid('param').payment_id, null) as never)
  app.openapi(
    checkoutPost,
    async (c) => showPage(c, c.req.valid('param').payment_id, await readFields(c)) as never,
  )

  app.openapi(confirmRoute, async (c) => {
    const { payment_id } = c.req.valid('param')
    let orderId: string | null = null
    try {
      const p = await loadSandboxPayment(c, payment_id)
      orderId = p.orderId
      // another amount or currency is taken and refused by the settlement (refunded), not a 400
      const f = signedFields(c, p, await readFields(c))
      // a declined or superseded test payment cannot be confirmed; a confirmed one redirects again
      if (p.status === 'failed') throw fail(409, 'payment_not_pending')
      await settlePaymentSucceeded(c.var.deps, {
        paymentId: p.id,
        provider: 'sandbox',
        eventKey: `${p.id}:confirm`,
        amount: f.amount,
        currency: f.currency,
      })
      return c.redirect(returnUrl(c, p.orderId), 303) as never
    } catch (e) {
      return htmlError(c, e, orderId) as never
    }
  })

  app.openapi(declineRoute, async (c) => {
    const { payment_id } = c.req.valid('param')
    let orderId: string | null = null
    try {
      const p = await loadSandboxPayment(c, payment_id)
      orderId = p.orderId
      checkFields(c, p, await readFields(c))
      await settlePaymentFailed(c.var.deps, {
        paymentId: p.id,
        provider: 'sandbox',
        eventKey: `${p.id}:decline`,
      })
      return c.redirect(returnUrl(c, p.orderId), 303) as never
    } catch (e) {
      return htmlError(c, e, orderId) as never
    }
  })
}
