// «Я выставил скин»: the Standoff buyer says the skin is on the market at the order's listing
// price, and the delivery desk shows it. Same access rule as every order call (a signed-in
// buyer's order only for that buyer, a guest order for whoever holds its id).
import { actorOf } from '../lib/actor'
import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { fail } from '../lib/errors'
import { errorResponses, jsonContent, UuidParam } from '../lib/schemas'
import { markSkinListed } from '../services/delivery/listing'
import { loadOrderForCaller } from '../services/orders/access'

const SkinListed = z
  .object({
    id: z.uuid(),
    skin_listed: z.boolean(),
    changed: z.boolean().openapi({ description: 'False when it was said before' }),
  })
  .openapi('SkinListed')

const route = createRoute({
  method: 'post',
  path: '/api/orders/standoff/{id}/skin_listed/',
  tags: ['orders'],
  summary: 'Our extension: the buyer listed the skin on the market (shown at the delivery desk)',
  description:
    'Same access as GET /api/orders/{id}/. Only for a Standoff order with a listing price that is not done or failed (409 otherwise); saying it again answers `changed: false`.',
  request: { params: UuidParam },
  responses: { 200: jsonContent(SkinListed), ...errorResponses(400, 404, 409) },
})

export function registerSkinListed(app: ApiApp) {
  app.openapi(route, async (c) => {
    const order = await loadOrderForCaller(c.var.deps.db, actorOf(c), c.req.valid('param').id)
    if (order.kind !== 'StandoffOrder' || order.listingPrice === null)
      throw fail(409, 'delivery_not_listed_kind')
    if (order.skinListedAt !== null) return c.json({ id: order.id, skin_listed: true, changed: false }, 200)
    if (order.status === 'done' || order.status === 'failed') throw fail(409, 'delivery_not_listed_kind')
    const changed = await markSkinListed(c.var.deps.db, order.id)
    return c.json({ id: order.id, skin_listed: true, changed }, 200)
  })
}
