import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { ApiApp, AppEnv } from '../context'
import { requireUser } from '../lib/auth'
import { ErrorSchema, errorResponses, jsonContent, MoneySchema, UuidParam } from '../lib/schemas'
import {
  activateOrderPromo,
  activeOrderPromo,
  deactivateOrderPromo,
  previewOrderPromo,
} from '../services/promo/orders'
import { loadOrderForCaller } from '../services/orders/access'
import { limitPromoChecks } from '../services/promo/guess-limit'
import { activateAccountPromo, clearAccountPromo, previewAccountPromo } from '../services/promo/account'
import { serializePromo } from '../services/promo/rules'
import { actorOf } from '../lib/actor'

const PromoCodeSchema = z
  .discriminatedUnion('resourcetype', [
    z
      .object({
        resourcetype: z.literal('PromoCode'),
        code: z.string(),
        percent: z.number().int(),
        game: z.number().int(),
      })
      .openapi('PromoCode'),
    z
      .object({
        resourcetype: z.literal('GiftPromoCode'),
        code: z.string(),
        percent: z.number().int(),
        gift: z.number().int(),
      })
      .openapi('GiftPromoCode'),
  ])
  .openapi('AnyPromoCode')

const OrderPromoSchema = z
  .object({
    order_id: z.uuid(),
    promo_code: PromoCodeSchema.nullable(),
    total_without_promocode: MoneySchema,
    total_with_promocode: MoneySchema,
    balance_used: MoneySchema,
    total_to_pay: MoneySchema,
  })
  .openapi('OrderPromoResult')

const CodeBody = z.object({ code: z.string().trim().min(1).max(64) }).openapi('PromoCodeInput')
const body = { body: { content: { 'application/json': { schema: CodeBody } }, required: true } }

const tooMany = {
  description: 'Too many code checks (Retry-After says when to retry)',
  headers: z.object({ 'Retry-After': z.string() }),
  content: { 'application/json': { schema: ErrorSchema } },
}

const ERRORS =
  'Refusals, each with its own `code`: promo_code_unknown (404: no such code, or one switched off, expired ' +
  'or used up — one answer, so guessing learns nothing), promo_code_already_used (this email, compared as ' +
  'its mail provider delivers it, paid with it), promo_code_foreign_game, promo_code_foreign_gift (400), ' +
  'promo_order_paid (409), rate_limited (429 with Retry-After: checks are limited per client address and ' +
  'per order or account).'

const activateOrder = createRoute({
  method: 'post',
  path: '/api/orders/{id}/activate_promo_code/',
  tags: ['promo'],
  summary: 'Apply a promo code to an unpaid order',
  description: `PromoCode must be for the order's game, GiftPromoCode for its gift. ${ERRORS}`,
  request: { params: UuidParam, ...body },
  responses: { 200: jsonContent(OrderPromoSchema), ...errorResponses(400, 404, 409), 429: tooMany },
})

const showOrder = createRoute({
  method: 'post',
  path: '/api/orders/{id}/show_promo_code/',
  tags: ['promo'],
  summary: 'Preview a promo code on an order: validity and the totals it would give (nothing stored)',
  description: ERRORS,
  request: { params: UuidParam, ...body },
  responses: { 200: jsonContent(OrderPromoSchema), ...errorResponses(400, 404, 409), 429: tooMany },
})

const activeOrder = createRoute({
  method: 'get',
  path: '/api/orders/{id}/active_promo_code/',
  tags: ['promo'],
  summary: 'The promo code applied to an order (404 promo_code_not_active when none)',
  description: 'Same access as GET /api/orders/{id}/.',
  request: { params: UuidParam },
  responses: { 200: jsonContent(PromoCodeSchema), ...errorResponses(400, 404) },
})

const deactivateOrder = createRoute({
  method: 'post',
  path: '/api/orders/{id}/deactivate_promo_code/',
  tags: ['promo'],
  summary: 'Remove the promo code from an unpaid order',
  description:
    'Same access as GET /api/orders/{id}/. The order is priced again without the code; a paid order answers 409.',
  request: { params: UuidParam },
  responses: { 200: jsonContent(OrderPromoSchema), ...errorResponses(400, 404, 409) },
})

const AccountPromoSchema = z
  .object({ active_promo_code: PromoCodeSchema.nullable() })
  .openapi('AccountPromoResult')

const activateAccount = createRoute({
  method: 'post',
  path: '/api/promo_codes/activate/',
  tags: ['promo'],
  summary: 'Make a code the account’s active promo code (signed in)',
  description:
    'Stored as the profile’s active_promo_code and applied to the user’s unpaid orders of its game/gift ' +
    `that have no code, and to new ones. ${ERRORS}`,
  security: [{ bearer: [] }],
  request: body,
  responses: { 200: jsonContent(AccountPromoSchema), ...errorResponses(400, 401, 403, 404), 429: tooMany },
})

const showAccount = createRoute({
  method: 'post',
  path: '/api/promo_codes/show/',
  tags: ['promo'],
  summary: 'Check a promo code (validity for this buyer, percent, game or gift)',
  description: ERRORS,
  request: body,
  responses: { 200: jsonContent(PromoCodeSchema), ...errorResponses(400, 404), 429: tooMany },
})

const deactivateAccount = createRoute({
  method: 'post',
  path: '/api/promo_codes/deactivate/',
  tags: ['promo'],
  summary: 'Clear the account’s active promo code (signed in)',
  description:
    'Bearer token required (401 without). Orders that already carry the code keep it; new orders no longer get it.',
  security: [{ bearer: [] }],
  responses: { 200: jsonContent(AccountPromoSchema), ...errorResponses(401) },
})

/**
 * The order is checked to be the caller's before its guess counter is touched: otherwise a
 * stranger could spend the owner's attempts and lock them out of their own order's promo field.
 */
async function limitOrderPromoChecks(c: Context<AppEnv>, orderId: string) {
  await loadOrderForCaller(c.var.deps.db, actorOf(c), orderId)
  await limitPromoChecks(c.var.deps, actorOf(c), `order:${orderId}`)
}

export function registerPromo(app: ApiApp) {
  app.openapi(activateOrder, async (c) => {
    const { id } = c.req.valid('param')
    await limitOrderPromoChecks(c, id)
    return c.json(await activateOrderPromo(c.var.deps, actorOf(c), id, c.req.valid('json').code), 200)
  })
  app.openapi(showOrder, async (c) => {
    const { id } = c.req.valid('param')
    await limitOrderPromoChecks(c, id)
    return c.json(await previewOrderPromo(c.var.deps, actorOf(c), id, c.req.valid('json').code), 200)
  })
  app.openapi(activeOrder, async (c) =>
    c.json(serializePromo(await activeOrderPromo(c.var.deps, actorOf(c), c.req.valid('param').id)), 200),
  )
  app.openapi(deactivateOrder, async (c) =>
    c.json(await deactivateOrderPromo(c.var.deps, actorOf(c), c.req.valid('param').id), 200),
  )

  app.openapi(activateAccount, async (c) => {
    const userId = requireUser(c)
    const { code } = c.req.valid('json')
    await limitPromoChecks(c.var.deps, actorOf(c), `account:${userId}`)
    const promo = await activateAccountPromo(c.var.deps.db, userId, code)
    return c.json({ active_promo_code: serializePromo(promo) }, 200)
  })

  app.openapi(showAccount, async (c) => {
    await limitPromoChecks(c.var.deps, actorOf(c), c.var.userId === null ? null : `account:${c.var.userId}`)
    const promo = await previewAccountPromo(c.var.deps.db, c.var.userId, c.req.valid('json').code)
    return c.json(serializePromo(promo), 200)
  })

  app.openapi(deactivateAccount, async (c) => {
    const userId = requireUser(c)
    await clearAccountPromo(c.var.deps.db, userId)
    return c.json({ active_promo_code: null }, 200)
  })
}
