// Review before delivery (issue 34): approve or reject a paid order that a risk rule held. Support
// and owners; guests and shoppers get the admin guard's 404. Both are audited and safe to repeat.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { errorResponses, jsonContent, UuidParam } from '../../lib/schemas'
import { fulfilOrder } from '../../services/fulfilment'
import { listHeld } from '../../services/risk/queue'
import { approveReview, rejectReview } from '../../services/risk/review'
import { adminRoute, staffOf } from './guard'
import { message } from '../../lib/errors'

const ReviewOutcome = z
  .object({
    id: z.uuid(),
    status: z.string().openapi({ description: 'The order’s status afterwards' }),
    changed: z.boolean().openapi({ description: 'False for a repeated call, which changed nothing' }),
    detail: z.string(),
  })
  .openapi('ReviewOutcome')

const RejectBody = z
  .object({
    reason: z
      .string(message('field_reason_required'))
      .trim()
      .min(3, message('field_reason_required'))
      .max(500, message('field_max_chars', { max: 500 }))
      .openapi({ description: 'Kept for staff and the audit; the buyer gets a neutral mail' }),
  })
  .openapi('ReviewRejectInput')

const History = z.object({ paid_orders_30d: z.number().int(), emails_30d: z.number().int() })
const HeldOrder = z
  .object({
    id: z.uuid(),
    number: z.number().int().openapi({ description: 'The short order number people read out' }),
    game: z.string(),
    email: z.string().nullable(),
    total_to_pay: z.string(),
    paid_at: z.string(),
    held_at: z.string(),
    rules: z.array(z.string()).openapi({ description: 'The risk rules that tripped (RiskRule names)' }),
    client_address: z.string().nullable(),
    payment_country: z.string().nullable(),
    card: History.extend({
      ref: z.string().openapi({ description: 'The start of the card’s keyed hash (never the number)' }),
      issuer_country: z.string().nullable(),
    }).nullable(),
    address_history: History.nullable(),
    codes_hold: z.enum(['held', 'lapsed', 'none']).optional().openapi({
      description:
        'Our extension (issue 47): held — the order’s codes are put aside for it until codes_held_until; lapsed — a hold ran out (another buyer may take the code); none — it holds no code',
    }),
    codes_held_until: z
      .string()
      .nullable()
      .optional()
      .openapi({ format: 'date-time', description: 'When the first of its code holds ends (or ended)' }),
    other_orders: z.array(
      z.object({
        id: z.uuid(),
        number: z.number().int(),
        status: z.string(),
        total_to_pay: z.string(),
        created: z.string(),
      }),
    ),
  })
  .openapi('HeldOrder')

const list = adminRoute('support', {
  method: 'get',
  path: '/api/admin/reviews/',
  summary: 'Paid orders held for review, oldest first (at most 50), with the rules and the buyer’s history',
  responses: { 200: jsonContent(z.object({ results: z.array(HeldOrder) })), ...errorResponses(404) },
})

const approve = adminRoute('support', {
  method: 'post',
  path: '/api/admin/orders/{id}/approve/',
  summary: 'Approve an order held for review: delivery goes on as usual (once)',
  request: { params: UuidParam },
  responses: { 200: jsonContent(ReviewOutcome), ...errorResponses(400, 404, 409) },
})

const reject = adminRoute('support', {
  method: 'post',
  path: '/api/admin/orders/{id}/reject/',
  summary: 'Reject an order held for review: failed, refunded by the shop’s rules (once), a neutral mail',
  request: {
    params: UuidParam,
    body: { content: { 'application/json': { schema: RejectBody } }, required: true },
  },
  responses: { 200: jsonContent(ReviewOutcome), ...errorResponses(400, 404, 409) },
})

export function registerAdminReview(app: ApiApp) {
  app.openapi(list, async (c) => c.json({ results: await listHeld(c.var.deps.db) }, 200))
  app.openapi(approve, async (c) => {
    const id = c.req.valid('param').id.toLowerCase()
    const out = await approveReview(c.var.deps.db, staffOf(c), id)
    // delivery as for any paid order (fulfilOrder leaves an order that is no longer `paid` alone)
    const status = out.changed ? await fulfilOrder(c.var.deps, id) : out.status
    c.var.deps.jobs?.wake()
    return c.json({ ...out, status }, 200)
  })
  app.openapi(reject, async (c) => {
    const { reason } = c.req.valid('json')
    const out = await rejectReview(c.var.deps.db, staffOf(c), c.req.valid('param').id.toLowerCase(), reason)
    c.var.deps.jobs?.wake()
    return c.json(out, 200)
  })
}
