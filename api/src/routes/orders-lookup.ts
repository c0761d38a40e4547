// Guests find their orders (our extension of the contract): POST an email, get one mail with a
// signed 24-hour link; the link's token lists that email's orders. See services/mail/lookup.ts.
import { actorOf } from '../lib/actor'
import { logCodeViews } from '../services/orders/code-views'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { clientNetworkOf } from '../lib/client-address'
import type { ApiApp, AppEnv } from '../context'
import { fail, message } from '../lib/errors'
import { ErrorSchema, errorResponses, jsonContent } from '../lib/schemas'
import { LOOKUP_LIST_LIMIT, ordersForLookupToken, requestOrderLookup } from '../services/mail/lookup'
import { hitRateLimit } from '../services/rate-limit'
import { OrderHistorySchema } from './schemas/orders'

/** Link opens per client address per window (tokens are unguessable; this bounds the work). */
const VIEWS_PER_ADDRESS = 120
const VIEWS_WINDOW_SECONDS = 600

const tooMany = {
  description: 'Too many requests (Retry-After says when to retry)',
  headers: z.object({ 'Retry-After': z.string() }),
  content: { 'application/json': { schema: ErrorSchema } },
}

const LookupRequest = z
  .object({
    email: z.email(message('field_email_invalid')).max(254, message('field_email_long')),
  })
  .openapi('OrderLookupRequest')

const request = createRoute({
  method: 'post',
  path: '/api/orders/lookup/',
  tags: ['orders'],
  summary: 'Mail a link to the list of orders placed with this email (guests)',
  description:
    'Our extension. Always the same 202 answer, whether or not the email has orders; an email with orders gets one mail with a link valid 24 hours (one per email per 10 minutes). Limited per email and per client address (429 with Retry-After).',
  request: { body: { content: { 'application/json': { schema: LookupRequest } }, required: true } },
  responses: {
    202: jsonContent(z.object({ detail: z.string() }).openapi('OrderLookupAccepted'), 'Accepted'),
    ...errorResponses(400),
    429: tooMany,
  },
})

const TokenParam = z.object({
  token: z
    .string()
    .max(2048, message('field_link_invalid'))
    .regex(/^[A-Za-z0-9_.-]{20,2048}$/, message('field_link_invalid'))
    .openapi({ param: { name: 'token', in: 'path' } }),
})

const OrderLookupList = z
  .object({
    email: z.string(),
    expires: z.string().openapi({ description: 'When the link stops working (ISO 8601)' }),
    results: z
      .array(OrderHistorySchema)
      .openapi({ description: `Newest first, at most ${LOOKUP_LIST_LIMIT}` }),
    account_order_ids: z
      .array(z.string())
      .openapi({ description: 'Orders placed while signed in: their pages open only for that account' }),
  })
  .openapi('OrderLookupList')

const list = createRoute({
  method: 'get',
  path: '/api/orders/lookup/{token}/',
  tags: ['orders'],
  summary: 'The orders of the email a look-up link was mailed to',
  description:
    'Our extension. The token comes from the look-up mail; it is valid 24 hours and only for this purpose. Any other token, an expired or altered one, is a 400.',
  request: { params: TokenParam },
  responses: { 200: jsonContent(OrderLookupList), ...errorResponses(400), 429: tooMany },
})

function limited(c: Context<AppEnv>, retryAfter: number) {
  c.header('Retry-After', String(retryAfter))
  return c.json({ detail: message('rate_limited', { seconds: retryAfter }), code: 'rate_limited' }, 429)
}

export function registerOrderLookup(app: ApiApp) {
  app.openapi(request, async (c) => {
    const address = clientNetworkOf(c)
    const refused = await requestOrderLookup(c.var.deps, c.req.valid('json').email, address)
    if (refused) return limited(c, refused.retryAfter)
    return c.json({ detail: message('order_lookup_sent') }, 202)
  })

  app.openapi(list, async (c) => {
    const address = clientNetworkOf(c)
    const hit = await hitRateLimit(
      c.var.deps.db,
      `lookup:view:${address}`,
      VIEWS_PER_ADDRESS,
      VIEWS_WINDOW_SECONDS,
    )
    if (!hit.allowed) return limited(c, hit.retryAfter)
    const found = await ordersForLookupToken(c.var.deps, c.req.valid('param').token)
    if (!found) throw fail(400, 'order_lookup_link_invalid')
    await logCodeViews(c.var.deps.db, actorOf(c), 'lookup', found.results)
    c.header('Cache-Control', 'private, no-store')
    return c.json(
      {
        email: found.email,
        expires: found.expires.toISOString(),
        results: found.results,
        account_order_ids: found.accountOrderIds,
      },
      200,
    )
  })
}
