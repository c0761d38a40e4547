// Back-office promo codes: create, edit, deactivate; scope, limits, validity; usage.
import { z } from '@hono/zod-openapi'
import { asc, count, eq, sql } from 'drizzle-orm'
import type { ApiApp } from '../../context'
import type { Db } from '../../db/client'
import { games, gifts, ORDER_KINDS, promoCodes, promoRedemptions } from '../../db/schema'
import { promoTargetOf } from '../../services/promo/scope'
import { fail, fieldError } from '../../lib/errors'
import { errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import { audit } from '../../services/admin/audit'
import { patchAudited } from '../../services/admin/patch'
import { Int, jsonBody } from './fields'
import { adminRoute, staffOf } from './guard'

type Promo = typeof promoCodes.$inferSelect

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
  .max(WHEN_MAX, 'дата и время, например 2026-12-31T23:59:00Z')
  .refine((v) => !Number.isNaN(Date.parse(v)), 'дата и время, например 2026-12-31T23:59:00Z')
  .transform((v) => new Date(v))
// published where it is used, with null (below)

const PromoFields = z.object({
  // 1..100 in the schema itself, so the contract publishes the bound the server checks
  percent: z
    .number({ error: 'ожидается целое число' })
    .int('ожидается целое число')
    .min(1, 'скидка от 1 до 100 %')
    .max(100, 'скидка от 1 до 100 %'),
  // null (no expiry) published too: When's own `type` hid it (issue 44, found by the e2e watch)
  expires_at: When.nullable()
    .optional()
    .openapi({
      anyOf: [{ type: 'string', format: 'date-time', maxLength: WHEN_MAX }, { type: 'null' }],
    }),
  max_uses: Int(1, 10_000_000).nullable().optional(),
  is_active: z.boolean().optional(),
  excluded_kinds: z
    .array(
      z.enum(ORDER_KINDS, 'вид заказа: PUBGOrder, StandoffOrder, SteamOrder, MooGoldOrder или RokkyOrder'),
    )
    .max(ORDER_KINDS.length)
    .optional(),
})
const PromoCreate = PromoFields.extend({
  code: z
    .string()
    .trim()
    .max(32, 'от 3 до 32 латинских букв, цифр, - и _')
    .regex(/^[A-Za-z0-9_-]{3,32}$/, 'от 3 до 32 латинских букв, цифр, - и _'),
  game: Int(1).nullable().optional(),
  gift: Int(1).nullable().optional(),
  resourcetype: z
    .enum(['PromoCode', 'GiftPromoCode'], { error: 'PromoCode или GiftPromoCode' })
    .optional()
    .openapi({ description: 'With neither game nor gift: a code for every game (PromoCode) or every gift' }),
}).openapi('AdminPromoCreate')

/** The code's kind from its scope: one game, one gift, or every game / every gift; else null. */
function kindOf(b: z.infer<typeof PromoCreate>): Promo['kind'] | null {
  const game = b.game ?? null
  const gift = b.gift ?? null
  if (game !== null && gift !== null) return null
  const kind = game !== null ? 'PromoCode' : gift !== null ? 'GiftPromoCode' : (b.resourcetype ?? null)
  return b.resourcetype && b.resourcetype !== kind ? null : kind
}
const PromoPatch = PromoFields.partial().openapi('AdminPromoPatch')

const out = (p: Promo, redemptions: number) => ({
  id: p.id,
  code: p.code,
  resourcetype: p.kind,
  percent: p.percent,
  game: p.gameId,
  gift: p.giftId,
  expires_at: p.expiresAt?.toISOString() ?? null,
  max_uses: p.maxUses,
  used_count: p.usedCount,
  is_active: p.isActive,
  redemptions,
  excluded_kinds: p.excludedKinds,
  discounts: ORDER_KINDS.map((kind) => ({ kind, target: promoTargetOf(p, kind) })),
})

async function redemptionsOf(db: Db, id: number) {
  const [r] = await db
    .select({ n: count() })
    .from(promoRedemptions)
    .where(eq(promoRedemptions.promoCodeId, id))
  return r?.n ?? 0
}

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
  app.openapi(list, async (c) => {
    const { db } = c.var.deps
    const rows = await db
      .select({
        promo: promoCodes,
        redemptions:
          sql<number>`(select count(*) from ${promoRedemptions} where ${promoRedemptions.promoCodeId} = ${promoCodes.id})`.mapWith(
            Number,
          ),
      })
      .from(promoCodes)
      .orderBy(asc(promoCodes.id))
    return c.json(
      rows.map((r) => out(r.promo, r.redemptions)),
      200,
    )
  })

  app.openapi(create, async (c) => {
    const staff = staffOf(c)
    const b = c.req.valid('json')
    const kind = kindOf(b)
    if (!kind) throw fieldError('game', 'admin_promo_scope')
    const row = await c.var.deps.db.transaction(async (tx) => {
      if (b.game) {
        const [g] = await tx.select({ id: games.id }).from(games).where(eq(games.id, b.game))
        if (!g) throw fieldError('game', 'not_found')
      }
      if (b.gift) {
        const [g] = await tx.select({ id: gifts.id }).from(gifts).where(eq(gifts.id, b.gift))
        if (!g) throw fieldError('gift', 'not_found')
      }
      const [dup] = await tx
        .select({ id: promoCodes.id })
        .from(promoCodes)
        .where(eq(sql`lower(${promoCodes.code})`, b.code.toLowerCase()))
      if (dup) throw fail(409, 'admin_promo_exists')
      const [p] = await tx
        .insert(promoCodes)
        .values({
          code: b.code,
          kind,
          percent: b.percent,
          gameId: b.game ?? null,
          giftId: b.gift ?? null,
          expiresAt: b.expires_at ?? null,
          maxUses: b.max_uses ?? null,
          isActive: b.is_active ?? true,
          excludedKinds: [...new Set(b.excluded_kinds ?? [])],
        })
        .returning()
      await audit(tx, staff, {
        action: 'promo.create',
        entity: 'promo_code',
        entityId: p!.id,
        after: out(p!, 0),
      })
      return p!
    })
    return c.json(out(row, 0), 200)
  })

  app.openapi(patch, async (c) => {
    const staff = staffOf(c)
    const { id } = c.req.valid('param')
    const b = c.req.valid('json')
    const row = await c.var.deps.db.transaction((tx) =>
      patchAudited<Promo>(tx, staff, { table: promoCodes, id: promoCodes.id, entity: 'promo_code' }, id, {
        percent: b.percent,
        expiresAt: b.expires_at,
        maxUses: b.max_uses,
        isActive: b.is_active,
        excludedKinds: b.excluded_kinds ? [...new Set(b.excluded_kinds)] : undefined,
      }),
    )
    return c.json(out(row, await redemptionsOf(c.var.deps.db, id)), 200)
  })
}
