import { createRoute, type z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { errorResponses, jsonContent, UuidParam } from '../lib/schemas'
import {
  changeRokkyEmail,
  changeRokkyGift,
  createRokkyOrder,
  recordGiftOrderConsent,
} from '../services/gifts/rokky-orders'
import {
  RokkyDeliveryDetailsBody,
  RokkyOrderCreateBody,
  RokkyOrderResultSchema,
  RokkyOrderUpdateBody,
} from './schemas/gifts'
import { buyerEmail } from '../services/orders/access'
import { idempotencyKey } from '../services/orders/idempotency'
import { guardBuyerStart } from '../services/risk/gate'
import { IdempotencyHeaders, RecalculatedOrderSchema } from './schemas/orders'
import { recalculatedOrderOut } from '../services/orders/serialize'
import { actorOf } from '../lib/actor'

const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  content: { 'application/json': { schema } },
  required: true,
})

const UNPAID_ONLY =
  'Only while the order is unpaid (409 otherwise); an order of another kind is a 400. Answers the recalculated order.'

const create = createRoute({
  method: 'post',
  path: '/api/orders/rokky/',
  tags: ['orders'],
  summary: 'Create a gift order (RokkyOrder)',
  description:
    'Price comes from the database (discount price when set). Guests must give an email; signed-in users default to their account email. The gift must be active and in stock. With an `Idempotency-Key` header a repeated request returns the same order. A blocked buyer gets a neutral 403, too many orders from one address or email a 429 (as every order route).',
  request: {
    headers: IdempotencyHeaders,
    body: jsonBody(RokkyOrderCreateBody),
  },
  responses: {
    201: jsonContent(RokkyOrderResultSchema, 'Created'),
    200: jsonContent(
      RokkyOrderResultSchema,
      'The order an earlier request with the same Idempotency-Key made',
    ),
    // the buyer guard of every order route (decision 072): block lists (403), velocity limits (429)
    ...errorResponses(400, 403, 409, 429),
  },
})

const update = createRoute({
  method: 'post',
  path: '/api/orders/rokky/{id}/update/',
  tags: ['orders'],
  summary: 'Change the gift of an unpaid gift order',
  description: `${UNPAID_ONLY} The new gift must be active and in stock; a GiftPromoCode of another gift is dropped.`,
  request: { params: UuidParam, body: jsonBody(RokkyOrderUpdateBody) },
  responses: { 200: jsonContent(RecalculatedOrderSchema), ...errorResponses(400, 404, 409) },
})

const deliveryDetails = createRoute({
  method: 'post',
  path: '/api/orders/rokky/{id}/delivery_details/update/',
  tags: ['orders'],
  summary: 'Change the delivery email of an unpaid gift order',
  description: UNPAID_ONLY,
  request: { params: UuidParam, body: jsonBody(RokkyDeliveryDetailsBody) },
  responses: { 200: jsonContent(RecalculatedOrderSchema), ...errorResponses(400, 404, 409) },
})

export function registerRokkyOrders(app: ApiApp) {
  app.openapi(create, async (c) => {
    const { personal_data_consent: consent, ...body } = c.req.valid('json')
    const key = idempotencyKey(c.req.header('idempotency-key'))
    const { db } = c.var.deps
    // block lists and velocity limits, as every order route (issue 42, finding 6)
    await guardBuyerStart(c.var.deps, actorOf(c), 'order', await buyerEmail(db, body.email, c.var.userId))
    const { result, replay } = await createRokkyOrder(db, body, c.var.userId, key)
    if (!replay) await recordGiftOrderConsent(db, actorOf(c), result.id, consent === true, body.email)
    return c.json(result, replay ? 200 : 201)
  })

  app.openapi(update, async (c) => {
    const { order, totals } = await changeRokkyGift(
      c.var.deps,
      actorOf(c),
      c.req.valid('param').id,
      c.req.valid('json').gift,
    )
    return c.json(await recalculatedOrderOut(c.var.deps.db, order, totals), 200)
  })

  app.openapi(deliveryDetails, async (c) => {
    const { order, totals } = await changeRokkyEmail(
      c.var.deps,
      actorOf(c),
      c.req.valid('param').id,
      c.req.valid('json').email,
    )
    return c.json(await recalculatedOrderOut(c.var.deps.db, order, totals), 200)
  })
}
