import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { clientAddressOf } from '../lib/client-address'
import { inRanges } from '../lib/address-ranges'
import { ApiError, fail, message } from '../lib/errors'
import { errorResponses, jsonContent } from '../lib/schemas'
import { ProviderError } from '../providers/types'
import { handleYookassaNotice, readYookassaNotice } from '../services/payments/yookassa-notify'

const notifyRoute = createRoute({
  method: 'post',
  path: '/api/payments/yookassa/notify/',
  tags: ['payments-callbacks'],
  summary: 'YooKassa notification (server to server)',
  description:
    'Body `{type: "notification", event, object: {id, …}}` for `payment.succeeded`, `payment.canceled`, ' +
    '`payment.waiting_for_capture` and `refund.succeeded`. Only from the addresses in YOOKASSA_NOTIFY_FROM ' +
    '(403 otherwise; the client address follows TRUST_PROXY). Nothing but the event and the object id is ' +
    'read: the payment (or refund) is fetched from YooKassa’s API and settled from that answer, once per ' +
    'event. 502 when YooKassa’s API cannot be asked (YooKassa sends the notification again).',
  responses: {
    200: jsonContent(z.object({ status: z.literal('ok') }).openapi('YookassaNotifyOk')),
    ...errorResponses(400, 403, 404),
    502: jsonContent(z.object({ detail: z.string(), code: z.string() }), 'YooKassa’s API unreachable'),
  },
})

export function registerYookassaNotify(app: ApiApp) {
  app.openapi(notifyRoute, async (c) => {
    const deps = c.var.deps
    const cfg = deps.config.yookassa
    if (!cfg) throw fail(404, 'not_found')
    if (!inRanges(clientAddressOf(c), cfg.notifyFrom)) throw fail(403, 'yookassa_notify_forbidden')
    let body: unknown
    try {
      body = await c.req.json()
    } catch {
      throw fail(400, 'malformed_body')
    }
    try {
      await handleYookassaNotice(deps, readYookassaNotice(body))
    } catch (e) {
      if (!(e instanceof ProviderError)) throw e
      console.error('[yookassa] notification', e)
      throw new ApiError(502, 'payment_provider_error', message('payment_provider_error'))
    }
    return c.json({ status: 'ok' as const }, 200)
  })
}
