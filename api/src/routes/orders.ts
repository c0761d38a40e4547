import { createRoute } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { errorResponses, jsonContent, UuidParam } from '../lib/schemas'
import { loadOrderForCaller } from '../services/orders/access'
import { recalculateOrder } from '../services/orders/pricing'
import { RecalculatedOrderSchema } from './schemas/orders'
import { logCodeViews } from '../services/orders/code-views'
import { recalculatedOrderOut } from '../services/orders/serialize'
import { registerOrderCreation } from './orders-create'
import { registerStandoffAvatar } from './orders-avatar'
import { registerOrderExtras } from './orders-extras'
import { registerSkinListed } from './orders-skin-listed'
import { registerOrderUpdates } from './orders-update'
import { actorOf } from '../lib/actor'

const getOrderRoute = createRoute({
  method: 'get',
  path: '/api/orders/{id}/',
  tags: ['orders'],
  summary: 'The order, recalculated from current prices, promo code and balance',
  description:
    "A signed-in buyer's order is visible only to that buyer (others get 404); a guest order to anyone holding its id.",
  request: { params: UuidParam },
  responses: { 200: jsonContent(RecalculatedOrderSchema), ...errorResponses(400, 404) },
})

export function registerOrders(app: ApiApp) {
  registerOrderCreation(app)
  registerOrderUpdates(app)
  registerOrderExtras(app)
  registerStandoffAvatar(app)
  registerSkinListed(app)

  app.openapi(getOrderRoute, async (c) => {
    const order = await loadOrderForCaller(c.var.deps.db, actorOf(c), c.req.valid('param').id)
    const { db } = c.var.deps
    const totals = await recalculateOrder(db, order.id)
    const out = await recalculatedOrderOut(db, order, totals)
    await logCodeViews(c.var.deps.db, actorOf(c), 'order', [out])
    return c.json(out, 200)
  })
}
