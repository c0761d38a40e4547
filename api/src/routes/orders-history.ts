import { logCodeViews } from '../services/orders/code-views'
import { createRoute, z } from '@hono/zod-openapi'
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { ApiApp } from '../context'
import { ORDER_STATUSES, orders } from '../db/schema'
import { requireUser } from '../lib/auth'
import { pageNumberPage, pageQuery, pageSchema } from '../lib/pagination'
import { errorResponses, jsonContent } from '../lib/schemas'
import { OrderHistorySchema } from './schemas/orders'
import { accountOrdersFilter } from '../services/orders/account-orders'
import { serializeOrderHistory } from '../services/orders/serialize'
import { actorOf } from '../lib/actor'

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
        .enum(ORDER_STATUSES, `status: допустимо ${ORDER_STATUSES.join(', ')}`)
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
    const { db } = c.var.deps
    // the account's orders and the guest orders of its confirmed email
    const where: SQL[] = [await accountOrdersFilter(db, userId)]
    if (status) where.push(eq(orders.status, status))
    const [total] = await db
      .select({ n: count() })
      .from(orders)
      .where(and(...where))
    const rows = await db
      .select()
      .from(orders)
      .where(and(...where))
      .orderBy(desc(orders.created), desc(orders.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize)
    const results = await serializeOrderHistory(db, rows)
    await logCodeViews(c.var.deps.db, actorOf(c), 'history', results)
    return c.json(pageNumberPage(c.req.url, total?.n ?? 0, page, pageSize, results), 200)
  })
}
