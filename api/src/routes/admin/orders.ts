import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { fail } from '../../lib/errors'
import { pageNumberPage, pageQuery, pageSchema } from '../../lib/pagination'
import { errorResponses, jsonContent, UuidParam } from '../../lib/schemas'
import { audit } from '../../services/admin/audit'
import { addOrderNote, cancelOrderByStaff, resendOrderMail } from '../../services/admin/order-actions'
import { ORDER_STATUSES, orderDetail, REFUND_STATUSES, searchOrders } from '../../services/admin/orders'
import { retryFulfilment } from '../../services/fulfilment/retry'
import { refundOrderByStaff } from '../../services/refunds/by-staff'
import { PERSON_ROUTES } from '../../services/refunds/choose'
import { RefundSchema } from '../schemas/refunds'
import { shopTimeZone } from '../../services/shop/settings'
import { Day } from './fields'
import { adminRoute, staffOf } from './guard'
import { AdminReceiptViewSchema } from './receipts'

const AdminOrderItem = z
  .object({
    id: z.uuid(),
    number: z.number().int().openapi({ description: 'The short order number people read out' }),
    kind: z.string(),
    status: z.enum(ORDER_STATUSES),
    created: z.string(),
    email: z.string().nullable(),
    total: z.string(),
    total_to_pay: z.string(),
    reject_reason: z.string().nullable(),
    signed_in: z.boolean(),
    item: z.string().openapi({ description: 'The game or gift title' }),
    refund_status: z.enum(REFUND_STATUSES).nullable().optional(),
  })
  .openapi('AdminOrderItem')

const TimelineEntry = z
  .object({
    id: z.number().int(),
    kind: z.string(),
    data: z.record(z.string(), z.unknown()),
    actor_user_id: z.number().int().nullable(),
    created: z.string(),
  })
  .openapi('AdminOrderEvent')

const AdminOrderDetail = z
  .object({
    order: z.record(z.string(), z.unknown()).openapi({ description: 'The order-history item, codes masked' }),
    user_id: z.number().int().nullable(),
    payments: z.array(
      z.object({
        id: z.uuid(),
        method: z.string(),
        method_title: z
          .string()
          .nullable()
          .optional()
          .openapi({ description: 'The method’s title as buyers saw it; null once the method is deleted' }),
        provider: z.string(),
        amount: z.string(),
        currency: z.string(),
        status: z.string(),
        external_id: z.string().nullable(),
        created: z.string(),
      }),
    ),
    timeline: z.array(TimelineEntry),
    refund: RefundSchema.nullable().optional(),
    receipts: z
      .array(AdminReceiptViewSchema)
      .optional()
      .openapi({ description: 'The order’s fiscal receipts in full, oldest first' }),
    can_retry_fulfilment: z
      .boolean()
      .optional()
      .openapi({ description: 'Paid, not delivered, not refunded: «Повторить выдачу» applies' }),
  })
  .openapi('AdminOrderDetail')

const list = adminRoute('support', {
  method: 'get',
  path: '/api/admin/orders/',
  summary: 'Search orders (id, short number, email, status, game, gift, days), newest first',
  request: {
    query: pageQuery.extend({
      q: z.string().trim().max(254).optional(),
      status: z.enum(ORDER_STATUSES).optional(),
      game: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
      gift: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
      from: Day.optional(),
      to: Day.optional(),
      refund: z
        .enum(REFUND_STATUSES)
        .optional()
        .openapi({ description: 'Orders whose refund is in this state' }),
    }),
  },
  responses: {
    200: jsonContent(pageSchema(AdminOrderItem).openapi('AdminOrderPage')),
    ...errorResponses(400, 404),
  },
})

const detail = adminRoute('support', {
  method: 'get',
  path: '/api/admin/orders/{id}/',
  summary: 'An order with its payments and timeline',
  request: { params: UuidParam },
  responses: { 200: jsonContent(AdminOrderDetail), ...errorResponses(400, 404) },
})

const NoteBody = z.object({ text: z.string().trim().max(2000) }).openapi('AdminNoteInput')
const note = adminRoute('support', {
  method: 'post',
  path: '/api/admin/orders/{id}/notes/',
  summary: 'Add a note to the order’s timeline',
  request: {
    params: UuidParam,
    body: { content: { 'application/json': { schema: NoteBody } }, required: true },
  },
  responses: { 200: jsonContent(AdminOrderDetail), ...errorResponses(400, 404) },
})

const ActionBody = z
  .object({
    request_id: z
      .string()
      .min(8)
      .max(64)
      .optional()
      .openapi({ description: 'Makes the action idempotent: the same id is carried out once' }),
  })
  .openapi('AdminActionInput')
const actionBody = { body: { content: { 'application/json': { schema: ActionBody } }, required: false } }

const resend = adminRoute('support', {
  method: 'post',
  path: '/api/admin/orders/{id}/resend_mail/',
  summary: 'Send the buyer the order’s mail again (done or failed orders)',
  request: { params: UuidParam, ...actionBody },
  responses: { 200: jsonContent(AdminOrderDetail), ...errorResponses(400, 404, 409) },
})

const cancel = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/orders/{id}/cancel/',
  summary: 'Cancel an unpaid order (it becomes failed with a reason; payments in flight are refused)',
  request: { params: UuidParam, ...actionBody },
  responses: { 200: jsonContent(AdminOrderDetail), ...errorResponses(400, 403, 404, 409) },
})

const RefundBody = ActionBody.extend({
  reason: z.string().trim().max(500).optional().openapi({ description: 'Shown to the buyer' }),
  route: z
    .enum(PERSON_ROUTES)
    .optional()
    .openapi({
      description:
        'For a refund waiting for a person: `manual` (default) — paid back by hand; `balance` — to the ' +
        'signed-in buyer’s balance (roubles only; 409 otherwise)',
    }),
}).openapi('AdminRefundInput')

const refund = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/orders/{id}/refund/',
  summary: 'Refund a paid order (once), a done one too (owner, with a reason); or record a manual refund',
  description:
    'A done order stays done and is refunded with the reason (required), its codes marked refunded in ' +
    'stock and never sold again (decision 063). ' +
    'A paid, sending or sent order becomes failed with the reason and is refunded as the shop refunds ' +
    'any failed paid order (provider, else the buyer’s balance, else manual). A failed paid order without ' +
    'a refund gets one. A refund waiting for a person (`manual`: the order’s, else a refused payment’s) ' +
    'is recorded as done. Anything else: 409.',
  request: {
    params: UuidParam,
    body: { content: { 'application/json': { schema: RefundBody } }, required: false },
  },
  responses: { 200: jsonContent(AdminOrderDetail), ...errorResponses(400, 403, 404, 409) },
})

const retry = adminRoute('support', {
  method: 'post',
  path: '/api/admin/orders/{id}/retry_fulfilment/',
  summary: 'Deliver a paid order again (paid, or failed after paying; not refunded); never twice',
  request: { params: UuidParam, ...actionBody },
  responses: { 200: jsonContent(AdminOrderDetail), ...errorResponses(400, 404, 409) },
})

async function detailOr404(c: Parameters<Parameters<ApiApp['openapi']>[1]>[0], id: string) {
  const d = await orderDetail(c.var.deps.db, id.toLowerCase())
  if (!d) throw fail(404, 'order_not_found')
  return d
}

export function registerAdminOrders(app: ApiApp) {
  app.openapi(list, async (c) => {
    const { page = 1, page_size: pageSize = 50, ...filters } = c.req.valid('query')
    if (filters.from && filters.to && filters.from > filters.to) throw fail(400, 'admin_date_range')
    const timeZone = await shopTimeZone(c.var.deps.db, c.var.deps.config)
    const { count, results } = await searchOrders(c.var.deps.db, { ...filters, timeZone, page, pageSize })
    return c.json(pageNumberPage(c.req.url, count, page, pageSize, results), 200)
  })

  app.openapi(detail, async (c) => {
    const d = await detailOr404(c, c.req.valid('param').id)
    // the order's personal data (email, player ids, payments) was shown to this staff member
    await audit(c.var.deps.db, staffOf(c), { action: 'order.read', entity: 'order', entityId: d.order.id })
    return c.json(d, 200)
  })

  app.openapi(note, async (c) => {
    const { id } = c.req.valid('param')
    const { text } = c.req.valid('json')
    if (!text) throw fail(400, 'admin_note_empty')
    await detailOr404(c, id)
    await addOrderNote(c.var.deps.db, staffOf(c), id, text)
    return c.json(await detailOr404(c, id), 200)
  })

  app.openapi(resend, async (c) => {
    const { id } = c.req.valid('param')
    await resendOrderMail(c.var.deps.db, staffOf(c), id, c.req.valid('json').request_id)
    c.var.deps.jobs?.wake()
    return c.json(await detailOr404(c, id), 200)
  })

  app.openapi(retry, async (c) => {
    const id = c.req.valid('param').id.toLowerCase()
    await retryFulfilment(c.var.deps, staffOf(c), id, c.req.valid('json').request_id)
    c.var.deps.jobs?.wake()
    return c.json(await detailOr404(c, id), 200)
  })

  app.openapi(cancel, async (c) => {
    const { id } = c.req.valid('param')
    await cancelOrderByStaff(c.var.deps.db, staffOf(c), id)
    return c.json(await detailOr404(c, id), 200)
  })

  app.openapi(refund, async (c) => {
    const { id } = c.req.valid('param')
    const { reason, route } = c.req.valid('json')
    await refundOrderByStaff(c.var.deps.db, staffOf(c), id, { reason, route })
    c.var.deps.jobs?.wake()
    return c.json(await detailOr404(c, id), 200)
  })
}
