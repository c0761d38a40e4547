// The back-office's promo codes: every code with its usage, a new code (its scope: one game, one
// gift, every game or every gift; its code unique whatever the letter case) and changes to one.
// Every change is audited with the code as the back-office sees it.
import { asc, count, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { games, gifts, ORDER_KINDS, type OrderKind, promoCodes, promoRedemptions } from '../../db/schema'
import { refuse, refuseField } from '../../lib/domain-error'
import { fieldError } from '../../lib/errors'
import { audit } from '../admin/audit'
import { patchAudited } from '../admin/patch'
import type { StaffMember } from '../admin/roles'
import type { PromoRow } from './rules'
import { promoTargetOf } from './scope'

/** The order kinds a code may leave out (the back-office's form offers them). */
export { ORDER_KINDS } from '../../db/schema'

export type PromoKind = PromoRow['kind']

/** A promo code as the back-office shows it (and audits it). */
export const promoView = (p: PromoRow, redemptions: number) => ({
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

/** Every promo code, oldest first, with the paid orders that used it. */
export async function listPromoCodes(db: Db) {
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
  return rows.map((r) => promoView(r.promo, r.redemptions))
}

async function redemptionsOf(db: Db, id: number) {
  const [r] = await db
    .select({ n: count() })
    .from(promoRedemptions)
    .where(eq(promoRedemptions.promoCodeId, id))
  return r?.n ?? 0
}

/** The code's kind from its scope: one game, one gift, or every game / every gift; else null. */
function kindOf(s: { game?: number | null; gift?: number | null; kind?: PromoKind }): PromoKind | null {
  const game = s.game ?? null
  const gift = s.gift ?? null
  if (game !== null && gift !== null) return null
  const kind = game !== null ? 'PromoCode' : gift !== null ? 'GiftPromoCode' : (s.kind ?? null)
  return s.kind && s.kind !== kind ? null : kind
}

export interface PromoSettings {
  percent?: number
  expiresAt?: Date | null
  maxUses?: number | null
  isActive?: boolean
  excludedKinds?: OrderKind[]
}

export interface NewPromo extends PromoSettings {
  code: string
  percent: number
  game?: number | null
  gift?: number | null
  /** With neither game nor gift: a code for every game (PromoCode) or every gift. */
  kind?: PromoKind
}

export async function createPromoCode(db: Db, staff: StaffMember, input: NewPromo) {
  const kind = kindOf(input)
  if (!kind) throw refuseField('game', 'admin_promo_scope')
  return db.transaction(async (tx) => {
    // an unknown game or gift is a wrong field of the form (400), not an unknown address (404)
    if (input.game) {
      const [g] = await tx.select({ id: games.id }).from(games).where(eq(games.id, input.game))
      if (!g) throw fieldError('game', 'not_found')
    }
    if (input.gift) {
      const [g] = await tx.select({ id: gifts.id }).from(gifts).where(eq(gifts.id, input.gift))
      if (!g) throw fieldError('gift', 'not_found')
    }
    const [dup] = await tx
      .select({ id: promoCodes.id })
      .from(promoCodes)
      .where(eq(sql`lower(${promoCodes.code})`, input.code.toLowerCase()))
    if (dup) throw refuse('admin_promo_exists')
    const [p] = await tx
      .insert(promoCodes)
      .values({
        code: input.code,
        kind,
        percent: input.percent,
        gameId: input.game ?? null,
        giftId: input.gift ?? null,
        expiresAt: input.expiresAt ?? null,
        maxUses: input.maxUses ?? null,
        isActive: input.isActive ?? true,
        excludedKinds: [...new Set(input.excludedKinds ?? [])],
      })
      .returning()
    const view = promoView(p!, 0)
    await audit(tx, staff, { action: 'promo.create', entity: 'promo_code', entityId: p!.id, after: view })
    return view
  })
}

export async function patchPromoCode(db: Db, staff: StaffMember, id: number, patch: PromoSettings) {
  const row = await db.transaction((tx) =>
    patchAudited<PromoRow>(tx, staff, { table: promoCodes, id: promoCodes.id, entity: 'promo_code' }, id, {
      percent: patch.percent,
      expiresAt: patch.expiresAt,
      maxUses: patch.maxUses,
      isActive: patch.isActive,
      excludedKinds: patch.excludedKinds ? [...new Set(patch.excludedKinds)] : undefined,
    }),
  )
  return promoView(row, await redemptionsOf(db, id))
}
