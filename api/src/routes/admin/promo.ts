// Back-office promo codes: create, edit, deactivate; scope, limits, validity; usage.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import {
  createPromoCode,
  listPromoCodes,
  ORDER_KINDS,
  type PromoSettings,
  patchPromoCode,
} from '../../services/promo/admin-codes'
import { Int, jsonBody } from './fields'
import { adminRoute, staffOf } from './guard'
import { message } from '../../lib/errors'

const PromoOut = z
  .object({
    id: z.number().int(),
    code: z.string(),
    resourcetype: z.enum(['PromoCode', 'GiftPromoCode']),
    percent: z.number().int(),
    game: z.number().int().nullable(),
    gift: z.number().int().nullable(),
    expires_at: z.string().nullable(),
    max_uses: z.number().int().nullable(),
    used_count: z.number().int(),
    is_active: z.boolean(),
    redemptions: z.number().int().openapi({ description: 'Paid orders that used it' }),
    excluded_kinds: z
      .array(z.enum(ORDER_KINDS))
      .openapi({ description: 'Order kinds the code does not apply to' }),
    discounts: z
      .array(z.object({ kind: z.enum(ORDER_KINDS), target: z.enum(['price', 'commission', 'none']) }))
      .openapi({
        description:
          'For each order kind, what the code takes its percent off: the price, only the shop’s commission (a Steam top-up: never the wallet amount), or nothing (excluded or out of its scope) (decision 126)',
      }),
  })
  .openapi('AdminPromoCode')

const WHEN_MAX = 40
const When = z
  .string()
  .max(WHEN_MAX, message('field_datetime'))
  .refine((v) => !Number.isNaN(Date.parse(v)), message('field_datetime'))
  .transform((v) => new Date(v))
// published where it is used, with null (below)

const PromoFields = z.object({
  // 1..100 in the schema itself, so the contract publishes the bound the server checks
  percent: z
    .number({ error: message('field_integer') })
    .int(message('field_integer'))
    .min(1, message('field_discount_percent'))
    .max(100, message('field_discount_percent')),
  // null (no expiry) published too: When's own `type` hid it (issue 44, found by the e2e watch)
  expires_at: When.nullable()
    .optional()
    .openapi({
      anyOf: [{ type: 'string', format: 'date-time', maxLength: WHEN_MAX }, { type: 'null' }],
    }),
  max_uses: Int(1, 10_000_000).nullable().optional(),
  is_active: z.boolean().optional(),
  excluded_kinds: z
    .array(z.enum(ORDER_KINDS, message('field_promo_order_kind')))
    .max(ORDER_KINDS.length)
    .optional(),
})
const PromoCreate = PromoFields.extend({
  code: z
    .string()
    .trim()
    .max(32, message('field_promo_code'))
    .regex(/^[A-Za-z0-9_-]{3,32}$/, message('field_promo_code')),
  game: Int(1).nullable().optional(),
  gift: Int(1).nullable().optional(),
  resourcetype: z
    .enum(['PromoCode', 'GiftPromoCode'], { error: message('field_promo_type') })
    .optional()
    .openapi({ description: 'With neither game nor gift: a code for every game (PromoCode) or every gift' }),
}).openapi('AdminPromoCreate')

const PromoPatch = PromoFields.partial().openapi('AdminPromoPatch')

const list = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/promo_codes/',
  summary: 'Every promo code with its usage',
  responses: { 200: jsonContent(z.array(PromoOut)), ...errorResponses(403, 404) },
})
const create = adminRoute('owner', {
  method: 'post',
  path: '/api/admin/promo_codes/',
  summary: 'Create a promo code for a game or every game (PromoCode), a gift or every gift (GiftPromoCode)',
  request: jsonBody(PromoCreate),
  responses: { 200: jsonContent(PromoOut), ...errorResponses(400, 403, 404, 409) },
})
const patch = adminRoute('owner', {
  method: 'patch',
  path: '/api/admin/promo_codes/{id}/',
  summary: 'Change or deactivate a promo code',
  request: { params: IdParam, ...jsonBody(PromoPatch) },
  responses: { 200: jsonContent(PromoOut), ...errorResponses(400, 403, 404) },
})

export function registerAdminPromo(app: ApiApp) {
  app.openapi(list, async (c) => c.json(await listPromoCodes(c.var.deps.db), 200))

  app.openapi(create, async (c) => {
    const b = c.req.valid('json')
    const view = await createPromoCode(c.var.deps.db, staffOf(c), {
      code: b.code,
      kind: b.resourcetype,
      game: b.game,
      gift: b.gift,
      ...settings(b),
      percent: b.percent,
    })
    return c.json(view, 200)
  })

  app.openapi(patch, async (c) => {
    const view = await patchPromoCode(
      c.var.deps.db,
      staffOf(c),
      c.req.valid('param').id,
      settings(c.req.valid('json')),
    )
    return c.json(view, 200)
  })
}

/** The form's settings of a code, as the service names them. */
const settings = (b: z.infer<typeof PromoPatch>): PromoSettings => ({
  percent: b.percent,
  expiresAt: b.expires_at,
  maxUses: b.max_uses,
  isActive: b.is_active,
  excludedKinds: b.excluded_kinds,
})
