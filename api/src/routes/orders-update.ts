import { createRoute, type z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { errorResponses, jsonContent, UuidParam } from '../lib/schemas'
import {
  LinesUpdateBody,
  PubgDeliveryBody,
  RecalculatedOrderSchema,
  StandoffDeliveryBody,
  SteamDeliveryBody,
  SteamUpdateBody,
  SupplyDeliveryBody,
} from './schemas/orders'
import { recalculatedOrderOut } from '../services/orders/serialize'
import { changeDelivery, changeSteamAmount, type OrderSegment, replaceLines } from '../services/orders/update'
import { actorOf } from '../lib/actor'

const UNPAID_ONLY =
  'Only while the order is unpaid (409 otherwise); an order of another kind is a 400. Answers the recalculated order.'

function updateRoute<T extends z.ZodTypeAny>(
  segment: OrderSegment,
  path: string,
  summary: string,
  schema: T,
) {
  return createRoute({
    method: 'post',
    path: `/api/orders/${segment}/{id}/${path}`,
    tags: ['orders'],
    summary,
    description: UNPAID_ONLY,
    request: {
      params: UuidParam,
      body: { content: { 'application/json': { schema } }, required: true },
    },
    responses: { 200: jsonContent(RecalculatedOrderSchema), ...errorResponses(400, 404, 409) },
  })
}

const LINES_NOTE = "replaces the lines: same rules as creation, products of the order's game"

export function registerOrderUpdates(app: ApiApp) {
  for (const segment of ['pubg', 'standoff', 'supply_channel'] as const) {
    app.openapi(
      updateRoute(
        segment,
        'update/',
        `Change the products of a ${segment} order (${LINES_NOTE})`,
        LinesUpdateBody,
      ),
      async (c) => {
        const { order, totals } = await replaceLines(
          c.var.deps,
          actorOf(c),
          c.req.valid('param').id,
          segment,
          c.req.valid('json').products,
        )
        return c.json(await recalculatedOrderOut(c.var.deps.db, order, totals), 200)
      },
    )
  }

  app.openapi(
    updateRoute('steam', 'update/', 'Change the amount of a Steam order (settings bounds)', SteamUpdateBody),
    async (c) => {
      const { order, totals } = await changeSteamAmount(
        c.var.deps,
        actorOf(c),
        c.req.valid('param').id,
        c.req.valid('json').amount,
      )
      return c.json(await recalculatedOrderOut(c.var.deps.db, order, totals), 200)
    },
  )

  const delivery = [
    ['pubg', PubgDeliveryBody],
    ['standoff', StandoffDeliveryBody],
    ['steam', SteamDeliveryBody],
    ['supply_channel', SupplyDeliveryBody],
  ] as const
  for (const [segment, schema] of delivery) {
    app.openapi(
      updateRoute(
        segment,
        'delivery_details/update/',
        `Change where a ${segment} order is delivered (only the fields given change; empty values are refused)`,
        schema,
      ),
      async (c) => {
        const body = c.req.valid('json') as z.infer<typeof SupplyDeliveryBody> &
          z.infer<typeof StandoffDeliveryBody> &
          z.infer<typeof SteamDeliveryBody>
        const { order, totals } = await changeDelivery(
          c.var.deps,
          actorOf(c),
          c.req.valid('param').id,
          segment,
          body,
        )
        return c.json(await recalculatedOrderOut(c.var.deps.db, order, totals), 200)
      },
    )
  }
}
