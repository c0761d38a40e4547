// Evidence for disputes (issue 34): an order's code-view log and its plain-text export with the
// order's payment data, for the provider's dispute form. Support and owners; each read is audited
// (it shows buyers' addresses and browsers).
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { fail } from '../../lib/errors'
import { errorResponses, jsonContent, UuidParam } from '../../lib/schemas'
import { audit } from '../../services/admin/audit'
import { codeViewsOf, disputeText } from '../../services/orders/code-views'
import { adminRoute, staffOf } from './guard'

const CodeView = z
  .object({
    id: z.number().int(),
    place: z.enum(['order', 'history', 'lookup']).openapi({
      description:
        'order: the order answer (pay page, the mails’ order links); history; lookup: «Найти заказ» link',
    }),
    client_address: z.string(),
    user_agent: z.string().nullable(),
    user_id: z.number().int().nullable().openapi({ description: 'The signed-in account; null for a guest' }),
    created: z.string(),
  })
  .openapi('CodeView')

const views = adminRoute('support', {
  method: 'get',
  path: '/api/admin/orders/{id}/code_views/',
  summary: 'Who opened the order’s codes: time, client address, user agent, account (newest first)',
  description:
    'Every view of a delivered code of this order, at most 500, newest first; the read is audited.',
  request: { params: UuidParam },
  responses: { 200: jsonContent(z.object({ results: z.array(CodeView) })), ...errorResponses(400, 404) },
})

const dispute = adminRoute('support', {
  method: 'get',
  path: '/api/admin/orders/{id}/dispute/',
  summary: 'The order’s payment data and code views as a plain-text file for a dispute form',
  description:
    'A text/plain attachment: the order, its payments (client address, country, card reference, never the number) and every code view, oldest first; the read is audited.',
  request: { params: UuidParam },
  responses: {
    200: { description: 'The evidence file', content: { 'text/plain': { schema: z.string() } } },
    ...errorResponses(400, 404),
  },
})

export function registerAdminCodeViews(app: ApiApp) {
  app.openapi(views, async (c) => {
    const id = c.req.valid('param').id.toLowerCase()
    const rows = await codeViewsOf(c.var.deps.db, id)
    await audit(c.var.deps.db, staffOf(c), { action: 'order.code_views_read', entity: 'order', entityId: id })
    return c.json(
      {
        results: rows.map((v) => ({
          id: v.id,
          place: v.place as 'order' | 'history' | 'lookup',
          client_address: v.clientAddress,
          user_agent: v.userAgent,
          user_id: v.userId,
          created: v.created.toISOString(),
        })),
      },
      200,
    )
  })
  app.openapi(dispute, async (c) => {
    const id = c.req.valid('param').id.toLowerCase()
    const text = await disputeText(c.var.deps.db, id)
    if (text === null) throw fail(404, 'order_not_found')
    await audit(c.var.deps.db, staffOf(c), { action: 'order.dispute_export', entity: 'order', entityId: id })
    c.header('content-type', 'text/plain; charset=utf-8')
    c.header('content-disposition', `attachment; filename="dispute-${id.slice(0, 8)}.txt"`)
    return c.body(text, 200)
  })
}
