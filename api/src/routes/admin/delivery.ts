// The delivery desk's operations (our extension): the queue of paid orders waiting for a person,
// and take / delivered / not delivered on one. Support and owners; guests and shoppers get the
// admin guard's 404.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { fail, message } from '../../lib/errors'
import { pageNumberPage, pageQuery, pageSchema } from '../../lib/pagination'
import { errorResponses, jsonContent, UuidParam } from '../../lib/schemas'
import {
  listWaiting,
  markDelivered,
  markNotDelivered,
  ORDER_KINDS,
  takeOrder,
} from '../../services/delivery/desk'
import { adminRoute, staffOf } from './guard'

const DeskOrder = z
  .object({
    id: z.uuid(),
    number: z.number().int().openapi({ description: 'The short order number people read out' }),
    kind: z.enum(ORDER_KINDS),
    game: z.object({ id: z.number().int().nullable(), title: z.string() }),
    email: z.string().nullable(),
    paid_at: z.string(),
    waiting_seconds: z.number().int(),
    delivery_minutes: z.number().int().openapi({ description: 'The game’s promised time' }),
    overdue: z.boolean(),
    total_to_pay: z.string(),
    player_nickname: z.string().nullable(),
    lines: z.array(z.object({ title: z.string(), quantity: z.number().int() })),
    assignee: z
      .object({
        user_id: z.number().int(),
        email: z.string(),
        locked: z.boolean().openapi({ description: 'Taken less than 15 minutes ago' }),
      })
      .nullable(),
    taken_at: z.string().nullable(),
    auto_refund: z
      .object({
        due_at: z.string().openapi({ description: 'When the order is refunded by itself if nobody took it' }),
        seconds_left: z.number().int().openapi({ description: 'Seconds until then, 0 once passed' }),
      })
      .nullable()
      .openapi({
        description:
          'The automatic refund deadline (decision 125); null when the game has it off. A taken order is never refunded by itself: at the deadline it is escalated',
      }),
    escalated: z.boolean().openapi({
      description: 'Taken, but past its auto-refund deadline: the owner chooses «Выдано» or a refund',
    }),
    standoff: z
      .object({
        game_account_id: z.string(),
        game_avatar: z.string().nullable(),
        skin_name: z.string(),
        skin_picture: z.string(),
        listing_price: z.string().nullable().openapi({ example: '105.27', description: 'Gold' }),
        surplus: z.string().nullable(),
        skin_listed: z.boolean().openapi({ description: 'The buyer pressed «Я выставил скин»' }),
      })
      .nullable(),
    steam: z
      .object({ login: z.string(), amount: z.string(), currency: z.string(), commission: z.string() })
      .nullable(),
    supply: z
      .object({
        user_id: z.string(),
        server: z.object({ id: z.number().int(), name: z.string(), code: z.string() }).nullable(),
        server_custom_id: z.string().nullable(),
      })
      .nullable(),
  })
  .openapi('DeskOrder')

const DeskPage = pageSchema(DeskOrder)
  .extend({
    oldest_waiting_seconds: z.number().int().nullable(),
    escalated_count: z.number().int().openapi({ description: 'Waiting orders escalated to the owner' }),
  })
  .openapi('DeskPage')

const DeskQuery = pageQuery.extend({
  filter: z
    .enum(['all', 'escalated'], message('field_delivery_filter'))
    .optional()
    .openapi({ description: 'escalated: only orders past their auto-refund deadline that somebody took' }),
})

const DeskOutcome = z
  .object({
    id: z.uuid(),
    status: z.string(),
    changed: z.boolean().openapi({ description: 'False for a repeated call, which changed nothing' }),
    detail: z.string(),
  })
  .openapi('DeskOutcome')

const NotDeliveredBody = z
  .object({
    reason: z
      .string(message('field_reason_required'))
      .trim()
      .min(3, message('field_reason_required'))
      .max(500, message('field_max_chars', { max: 500 }))
      .openapi({ description: 'Shown to the buyer in the failed mail' }),
  })
  .openapi('DeskNotDeliveredInput')

const list = adminRoute('support', {
  method: 'get',
  path: '/api/admin/delivery/',
  summary: 'Paid orders waiting for a person, oldest first, with what is needed to deliver each',
  request: { query: DeskQuery },
  responses: { 200: jsonContent(DeskPage), ...errorResponses(400, 404) },
})

const action = (path: string, summary: string) =>
  adminRoute('support', {
    method: 'post',
    path,
    summary,
    request: { params: UuidParam },
    responses: { 200: jsonContent(DeskOutcome), ...errorResponses(400, 404, 409) },
  })

const take = action(
  '/api/admin/orders/{id}/take/',
  'Take a waiting order (another operator cannot for 15 minutes, unless an owner reassigns it)',
)
const delivered = action('/api/admin/orders/{id}/delivered/', 'A person delivered it: done, the done mail')
const notDelivered = adminRoute('support', {
  method: 'post',
  path: '/api/admin/orders/{id}/not_delivered/',
  summary: 'It cannot be delivered: failed with the reason, refunded by the shop’s rules, the failed mail',
  request: {
    params: UuidParam,
    body: { content: { 'application/json': { schema: NotDeliveredBody } }, required: true },
  },
  responses: { 200: jsonContent(DeskOutcome), ...errorResponses(400, 404, 409) },
})

export function registerAdminDelivery(app: ApiApp) {
  app.openapi(list, async (c) => {
    const { page = 1, page_size: pageSize = 50, filter = 'all' } = c.req.valid('query')
    const { count, results, oldest_waiting_seconds, escalated_count } = await listWaiting(
      c.var.deps.db,
      page,
      pageSize,
      new Date(),
      filter,
    )
    return c.json(
      {
        ...pageNumberPage(c.req.url, count, page, pageSize, results),
        oldest_waiting_seconds,
        escalated_count,
      },
      200,
    )
  })
  app.openapi(take, async (c) => {
    const out = await takeOrder(c.var.deps.db, staffOf(c), c.req.valid('param').id.toLowerCase())
    return c.json(out, 200)
  })
  app.openapi(delivered, async (c) => {
    const out = await markDelivered(c.var.deps.db, staffOf(c), c.req.valid('param').id.toLowerCase())
    c.var.deps.jobs?.wake()
    return c.json(out, 200)
  })
  app.openapi(notDelivered, async (c) => {
    const { reason } = c.req.valid('json')
    if (!reason) throw fail(400, 'delivery_reason_required')
    const out = await markNotDelivered(
      c.var.deps.db,
      staffOf(c),
      c.req.valid('param').id.toLowerCase(),
      reason,
    )
    c.var.deps.jobs?.wake()
    return c.json(out, 200)
  })
}
