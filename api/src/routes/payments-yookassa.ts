import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { clientAddressOf } from '../lib/client-address'
import { noticeRefusedNotification } from '../services/alerts/proxy-notices'
import { inRanges } from '../lib/address-ranges'
import { ApiError, fail, message } from '../lib/errors'
import { errorResponses, jsonContent } from '../lib/schemas'
import { ProviderError } from '../providers/types'
import { loadOrderForCaller } from '../services/orders/access'
import { claimProviderCheck } from '../services/payments/check-throttle'
import { syncPaymentWithProvider } from '../services/payments/requery'
import { latestPayment, orderStatusBody } from '../services/payments/status'
import { handleYookassaNotice, readYookassaNotice } from '../services/payments/yookassa-notify'
import { UuidParam } from '../lib/schemas'
import { OrderStatusSchema } from './payments-schemas'
import { actorOf } from '../lib/actor'

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

const checkRoute = createRoute({
  method: 'post',
  path: '/api/orders/status/{id}/check/',
  tags: ['payments'],
  summary: 'Ask the provider about the order’s latest payment now, then answer the status',
  description:
    'Our extension («Проверить оплату»): when the latest payment is pending and its provider can be asked ' +
    '(YooKassa, Payselection), its state is fetched and settled through the one settlement path, at most ' +
    'once per payment every 5 seconds across all instances; else ' +
    'the same answer as GET /api/orders/status/{id}/. A provider that does not answer changes nothing.',
  request: { params: UuidParam },
  responses: { 200: jsonContent(OrderStatusSchema), ...errorResponses(400, 404) },
})

export function registerYookassaNotify(app: ApiApp) {
  app.openapi(checkRoute, async (c) => {
    const deps = c.var.deps
    const id = c.req.valid('param').id
    const order = await loadOrderForCaller(c.var.deps.db, actorOf(c), id)
    const payment = await latestPayment(deps.db, order.id)
    // once per payment per 5 s across every instance; else the shop's record answers (decision 112)
    if (payment?.status === 'pending' && (await claimProviderCheck(deps.db, payment.id))) {
      try {
        await syncPaymentWithProvider(deps, payment)
      } catch (e) {
        // the shopper sees the status as it is; the re-query job and the notification still come
        if (!(e instanceof ProviderError) && !(e instanceof ApiError)) throw e
        console.error('[payments] check', e)
      }
    }
    return c.json(
      await orderStatusBody(deps.db, await loadOrderForCaller(c.var.deps.db, actorOf(c), id)),
      200,
    )
  })

  app.openapi(notifyRoute, async (c) => {
    const deps = c.var.deps
    const cfg = deps.config.yookassa
    if (!cfg) throw fail(404, 'not_found')
    const from = clientAddressOf(c)
    if (!inRanges(from, cfg.notifyFrom)) {
      // payments then wait for polling: the staff are told which address was refused (issue 42)
      await noticeRefusedNotification(deps.db, 'YooKassa', from)
      throw fail(403, 'yookassa_notify_forbidden')
    }
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
