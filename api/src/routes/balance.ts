import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { requireUser } from '../lib/auth'
import { toMoney } from '../lib/money'
import { DEFAULT_LIMIT, limitOffsetPage, limitOffsetQuery, pageSchema } from '../lib/pagination'
import { errorResponses, jsonContent } from '../lib/schemas'
import { BALANCE_ENTRY_KINDS, listBalanceEntries } from '../services/balance/ledger'

const BalanceEntrySchema = z
  .object({
    id: z.number().int(),
    kind: z.enum(BALANCE_ENTRY_KINDS).openapi({
      description:
        'cashback: gift cashback; spend: paid at checkout; refund: an order refunded; correction: by support',
    }),
    amount: z
      .string()
      .openapi({ example: '-150.00', description: 'Signed: positive credits, negative spends' }),
    order_id: z.uuid().nullable(),
    order_number: z.number().int().nullable().optional().openapi({
      description: 'Our extension (decision 135): the order’s short number for people; null without an order',
    }),
    created: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('BalanceEntry')

const history = createRoute({
  method: 'get',
  path: '/api/profile/balance_history/',
  tags: ['auth'],
  summary: 'The signed-in user’s balance history, newest first',
  description:
    'Not in the original call list: every change of the balance (cashback, spend, refund, correction), ' +
    'each tied to its cause. The balance of the profile is their sum.',
  request: { query: limitOffsetQuery },
  responses: {
    200: jsonContent(pageSchema(BalanceEntrySchema).openapi('BalanceHistoryPage')),
    ...errorResponses(400, 401),
  },
})

export function registerBalance(app: ApiApp) {
  app.openapi(history, async (c) => {
    const userId = requireUser(c)
    const { limit = DEFAULT_LIMIT, offset = 0 } = c.req.valid('query')
    const page = await listBalanceEntries(c.var.deps.db, userId, { limit, offset })
    const results = page.results.map((e) => ({
      id: e.id,
      kind: e.kind,
      amount: toMoney(e.amount),
      order_id: e.orderId,
      order_number: e.orderNumber,
      created: e.created.toISOString(),
    }))
    return c.json(limitOffsetPage(c.req.url, page.count, limit, offset, results), 200)
  })
}
