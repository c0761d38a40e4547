import { and, eq, or, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { games, gifts, promoCodes, promoRedemptions } from '../../db/schema'
import { ApiError, fail, message } from '../../lib/errors'
import { refuse } from '../../lib/domain-error'
import { emailKey } from '../identity/email-key'
import type { OrderRow } from '../orders/access'
import { promoCoversKind } from './scope'

export type PromoRow = typeof promoCodes.$inferSelect

/** Finds a code, case-insensitively; 404 promo_code_unknown when there is none. */
export async function findPromo(db: Db | Tx, code: string): Promise<PromoRow> {
  const text = code.trim()
  if (!text) throw refuse('promo_code_unknown')
  const [row] = await db.select().from(promoCodes).where(sql`lower(${promoCodes.code}) = lower(${text})`)
  if (!row) throw refuse('promo_code_unknown')
  return row
}

/**
 * A code may be used by this buyer: active, not expired, uses left, and not already redeemed with
 * this email (compared by emailKey). Each rule has its own error code and Russian message.
 * The one eligibility rule: used when a code is applied, again when a payment starts
 * (dropUnusablePromo) and, for the rules a race can break, when it is paid (recordPromoRedemption).
 */
export async function assertPromoUsable(
  db: Db | Tx,
  promo: PromoRow,
  opts: { email: string | null; now?: Date },
): Promise<void> {
  if (!promo.isActive) throw refuse('promo_code_inactive')
  if (promo.expiresAt && promo.expiresAt.getTime() <= (opts.now ?? new Date()).getTime())
    throw refuse('promo_code_expired')
  if (promo.maxUses !== null && promo.usedCount >= promo.maxUses) throw fail(400, 'promo_code_exhausted')
  if (opts.email) {
    const key = emailKey(opts.email)
    const [used] = await db
      .select({ orderId: promoRedemptions.orderId })
      .from(promoRedemptions)
      .where(
        and(
          eq(promoRedemptions.promoCodeId, promo.id),
          // rows written before the key was introduced hold the lower-cased address
          or(eq(promoRedemptions.email, key), sql`${promoRedemptions.email} = lower(${opts.email.trim()})`),
        ),
      )
    if (used) throw fail(400, 'promo_code_already_used')
  }
}

/**
 * For `show`/`activate` (codes typed by someone): a code that is unknown, switched off, expired
 * or used up gets one answer, «нет такого кода», so guessing cannot tell them apart.
 */
export async function findUsablePromo(
  db: Db | Tx,
  code: string,
  opts: { email: string | null },
): Promise<PromoRow> {
  const promo = await findPromo(db, code)
  try {
    await assertPromoUsable(db, promo, opts)
  } catch (e) {
    if (e instanceof ApiError && HIDDEN_REFUSALS.has(e.code)) throw refuse('promo_code_unknown')
    throw e
  }
  return promo
}

const HIDDEN_REFUSALS = new Set(['promo_code_inactive', 'promo_code_expired', 'promo_code_exhausted'])

/**
 * A PromoCode is for one game (or, with no game, for every game), a GiftPromoCode for one gift
 * (or every gift); the order must be for such an item, of a kind the owner did not exclude.
 */
export async function assertPromoFitsOrder(db: Db | Tx, promo: PromoRow, order: OrderRow): Promise<void> {
  // the owner excluded this kind of order from the code (decision 126)
  if (!promoCoversKind(promo.excludedKinds, order.kind))
    throw refuse('promo_code_excluded_kind', { kind: message(`promo_kind_${order.kind}`) })
  // the owner excluded this kind of order from the code (decision 126)
  if (!promoCoversKind(promo.excludedKinds, order.kind))
    throw refuse('promo_code_excluded_kind', { kind: message(`promo_kind_${order.kind}`) })
  if (promo.kind === 'PromoCode') {
    if (order.gameId === null || (promo.gameId !== null && order.gameId !== promo.gameId)) {
      const [g] = promo.gameId
        ? await db.select({ title: games.title }).from(games).where(eq(games.id, promo.gameId))
        : []
      throw refuse('promo_code_foreign_game', { title: g?.title ?? '' })
    }
  } else if (order.giftId === null || (promo.giftId !== null && order.giftId !== promo.giftId)) {
    const [g] = promo.giftId
      ? await db.select({ title: gifts.title }).from(gifts).where(eq(gifts.id, promo.giftId))
      : []
    throw refuse('promo_code_foreign_gift', { title: g?.title ?? '' })
  }
}

/**
 * Wire shape of a promo code (spec §3): PromoCode {code, percent, game}, GiftPromoCode {code,
 * percent, gift}; 0 stands for "every game" / "every gift".
 */
export function serializePromo(p: PromoRow) {
  return p.kind === 'PromoCode'
    ? { resourcetype: 'PromoCode' as const, code: p.code, percent: p.percent, game: p.gameId ?? 0 }
    : { resourcetype: 'GiftPromoCode' as const, code: p.code, percent: p.percent, gift: p.giftId ?? 0 }
}
