import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { requireUser } from '../lib/auth'
import { pageNumberPage, pageQuery, pageSchema } from '../lib/pagination'
import { errorResponses, jsonContent } from '../lib/schemas'
import { OrderHistorySchema } from './schemas/orders'
import { ORDER_STATUSES, orderHistoryPage } from '../services/orders/history'
import { actorOf } from '../lib/actor'
import { message } from '../lib/errors'

/** Page size of the order history (§9: the storefront asks for 50). */
export const HISTORY_PAGE_SIZE = 50

const list = createRoute({
  method: 'get',
  path: '/api/orders/',
  tags: ['orders'],
  summary: 'The signed-in user’s order history, newest first',
  description:
    'Bearer token required (401 without). Paged by page/page_size (50 by default); `status` keeps one status.',
  request: {
    query: pageQuery.extend({
      status: z
        .enum(ORDER_STATUSES, message('field_orders_status', { list: ORDER_STATUSES.join(', ') }))
        .optional()
        .openapi({ param: { name: 'status', in: 'query' } }),
    }),
  },
  responses: {
    200: jsonContent(pageSchema(OrderHistorySchema).openapi('OrderHistoryPage')),
    ...errorResponses(400, 401),
  },
})

export function registerOrdersHistory(app: ApiApp) {
  app.openapi(list, async (c) => {
    const userId = requireUser(c)
    const { page = 1, page_size: pageSize = HISTORY_PAGE_SIZE, status } = c.req.valid('query')
    const { total, results } = await orderHistoryPage(c.var.deps, actorOf(c), userId, {
      page,
      pageSize,
      status,
    })
    return c.json(pageNumberPage(c.req.url, total, page, pageSize, results), 200)
  })
}
