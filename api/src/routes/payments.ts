import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import type { ApiApp, AppEnv } from '../context'
import { fail } from '../lib/errors'
import { toMoney } from '../lib/money'
import { errorResponses, jsonContent, UuidParam, MAX_DB_INT } from '../lib/schemas'
import { isMethodUsable } from '../providers'
import { refreshSentOrder } from '../services/fulfilment'
import { loadOrderForCaller } from '../services/orders/access'
import {
  COUNTRY_COOKIE,
  COUNTRY_COOKIE_MAX_AGE,
  describeActiveCountry,
  findCountry,
  rememberAccountCountry,
  listCountries,
  resolveActiveCountry,
  serializeCountry,
} from '../services/payments/countries'
import { publicPaymentStatus, publicScenario } from '../services/payments/settle'
import { latestPayment, orderStatusBody } from '../services/payments/status'
import { type StartPaymentAnswer, startPayment } from '../services/payments/start'
import {
  ActiveCountrySchema,
  CountrySchema,
  OrderStatusSchema,
  PaymentDataSchema,
  SelectCountryBody,
  StartPaymentBodySchema,
  StartPaymentResponse,
} from './payments-schemas'
import { registerPaymentCallbacks } from './payments-callbacks'
import { registerSandboxCheckout } from './payments-sandbox'
import { registerYookassaNotify } from './payments-yookassa'
import { actorOf } from '../lib/actor'

const listCountriesRoute = createRoute({
  method: 'get',
  path: '/api/payments/countries/',
  tags: ['payments'],
  summary: 'Countries a shopper can pay from',
  description:
    "Public: the countries the owner has not hidden, in the owner's order, with currency and rate.",
  responses: { 200: jsonContent(z.array(CountrySchema)) },
})

const activeCountryRoute = createRoute({
  method: 'get',
  path: '/api/payments/countries/active/',
  tags: ['payments'],
  summary: 'The visitor’s country with its currency, rate and payment methods',
  description:
    'The country is, in order: `country_id` in the query, the `country_id` cookie set by /select/, ' +
    'the signed-in user’s saved country, the default country. Method groups are ordered by `order`.',
  request: {
    query: z.object({
      country_id: z.coerce
        .number()
        .int()
        .positive()
        .max(MAX_DB_INT)
        .optional()
        .openapi({ description: 'Explicit choice' }),
    }),
  },
  responses: { 200: jsonContent(ActiveCountrySchema), ...errorResponses(400, 404) },
})

const selectCountryRoute = createRoute({
  method: 'post',
  path: '/api/payments/countries/active/select/',
  tags: ['payments'],
  summary: 'Select the visitor’s country',
  description:
    'Remembered for the visitor by a `country_id` cookie (HttpOnly, SameSite=Lax, one year) and, when ' +
    'signed in, on the account. Answers with the new active country.',
  request: { body: { content: { 'application/json': { schema: SelectCountryBody } }, required: true } },
  responses: { 200: jsonContent(ActiveCountrySchema), ...errorResponses(400, 404) },
})

const startPaymentRoute = createRoute({
  method: 'post',
  path: '/api/payments/{name}/',
  tags: ['payments'],
  summary: 'Start paying an order with a method; returns the payment scenario',
  description:
    'Amount = total_to_pay converted by the rate + the method’s percent fee + fix_fee, exact. A paid ' +
    'order is never paid twice (409). Nothing left to pay → paid at once, answer `wait_order_state`.',
  request: {
    params: z.object({
      name: z
        .string()
        .min(1)
        .max(64)
        .openapi({ param: { name: 'name', in: 'path' } }),
    }),
    body: { content: { 'application/json': { schema: StartPaymentBodySchema } }, required: true },
  },
  responses: {
    200: jsonContent(StartPaymentResponse),
    // 403 buyer_blocked (block lists), 429 rate_limited with Retry-After (velocity limits, issue 34)
    ...errorResponses(400, 403, 404, 409, 429),
    502: jsonContent(z.object({ detail: z.string(), code: z.string() }), 'The payment provider failed'),
  },
})

const paymentDataRoute = createRoute({
  method: 'get',
  path: '/api/orders/payment_data/{id}/',
  tags: ['payments'],
  summary: 'The latest payment of an order: its scenario, status and url',
  description:
    'Same access as GET /api/orders/{id}/. 404 when the order has no payment yet. `url` is where the shopper goes to pay (redirect, form action or sandbox checkout).',
  request: { params: UuidParam },
  responses: { 200: jsonContent(PaymentDataSchema), ...errorResponses(400, 404) },
})

const orderStatusRoute = createRoute({
  method: 'get',
  path: '/api/orders/status/{id}/',
  tags: ['payments'],
  summary: 'Order status and its latest payment status (poll while waiting)',
  description:
    'Same access as GET /api/orders/{id}/. For an order handed to a supplier that answers later, the supplier is asked again on each call.',
  request: { params: UuidParam },
  responses: { 200: jsonContent(OrderStatusSchema), ...errorResponses(400, 404) },
})

function cookieCountryId(c: Context<AppEnv>): number | null {
  const v = Number(getCookie(c, COUNTRY_COOKIE))
  return Number.isSafeInteger(v) && v > 0 && v <= MAX_DB_INT ? v : null
}

export function registerPayments(app: ApiApp) {
  app.openapi(listCountriesRoute, async (c) => {
    const rows = await listCountries(c.var.deps.db)
    return c.json(rows.map(serializeCountry), 200)
  })

  app.openapi(activeCountryRoute, async (c) => {
    const deps = c.var.deps
    const { country_id } = c.req.valid('query')
    const country = await resolveActiveCountry(deps.db, {
      selectedId: country_id ?? cookieCountryId(c),
      userId: c.var.userId,
    })
    if (!country) throw fail(404, 'country_not_found')
    return c.json(await describeActiveCountry(deps.db, country, (m) => isMethodUsable(deps, m)), 200)
  })

  app.openapi(selectCountryRoute, async (c) => {
    const deps = c.var.deps
    const { country_id } = c.req.valid('json')
    const country = await findCountry(deps.db, country_id)
    if (!country) throw fail(404, 'country_not_found')
    setCookie(c, COUNTRY_COOKIE, String(country.id), {
      path: '/',
      httpOnly: true,
      sameSite: 'Lax',
      secure: deps.config.publicUrl.startsWith('https://'),
      maxAge: COUNTRY_COOKIE_MAX_AGE,
    })
    if (c.var.userId !== null) await rememberAccountCountry(deps.db, c.var.userId, country.id)
    return c.json(await describeActiveCountry(deps.db, country, (m) => isMethodUsable(deps, m)), 200)
  })

  app.openapi(paymentDataRoute, async (c) => {
    const order = await loadOrderForCaller(c.var.deps.db, actorOf(c), c.req.valid('param').id)
    const p = await latestPayment(c.var.deps.db, order.id)
    const s = p ? publicScenario(p) : null
    if (!p || !s) throw fail(404, 'payment_not_found')
    const url =
      [s.url, s.action, s.sandbox_checkout_url].find((v): v is string => typeof v === 'string') ?? null
    const body = {
      ...(s as StartPaymentAnswer),
      payment_id: p.id,
      amount: toMoney(p.amount),
      currency: p.currency,
      payment_status: publicPaymentStatus(p.status),
      method_name: p.methodName,
      url,
    } as z.infer<typeof PaymentDataSchema>
    return c.json(body, 200)
  })

  app.openapi(orderStatusRoute, async (c) => {
    const id = c.req.valid('param').id
    let order = await loadOrderForCaller(c.var.deps.db, actorOf(c), id)
    // a supplier that finishes later is asked again while the shopper watches the status
    if (order.status === 'sent' && (await refreshSentOrder(c.var.deps, order)) !== 'sent')
      order = await loadOrderForCaller(c.var.deps.db, actorOf(c), id)
    return c.json(await orderStatusBody(c.var.deps.db, order), 200)
  })

  // Fixed paths before the catch-all POST /api/payments/{name}/.
  registerSandboxCheckout(app)
  registerPaymentCallbacks(app)
  registerYookassaNotify(app)

  app.openapi(startPaymentRoute, async (c) => {
    const deps = c.var.deps
    const { name } = c.req.valid('param')
    const body = c.req.valid('json')
    const active = await resolveActiveCountry(deps.db, {
      selectedId: cookieCountryId(c),
      userId: c.var.userId,
    })
    return c.json(await startPayment(c.var.deps, actorOf(c), name, body, active?.id ?? null), 200)
  })
}
