// A signed-in account's own promo code (POST /api/promo/…account…): set it (the email must be
// confirmed, decision 020; the account's open orders take it), check one, clear it.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { users } from '../../db/schema'
import { fail } from '../../lib/errors'
import { applyAccountPromoToOpenOrders } from './orders'
import { findUsablePromo, type PromoRow } from './rules'

/** Makes `code` the active promo code of account `userId`; the code as saved. */
export async function activateAccountPromo(db: Db, userId: number, code: string): Promise<PromoRow> {
  return db.transaction(async (tx) => {
    const [u] = await tx
      .select({ email: users.email, confirmed: users.emailConfirmedAt })
      .from(users)
      .where(eq(users.id, userId))
      .for('update')
    if (!u) throw fail(401, 'not_authenticated')
    // an account-level code is tied to the email: it must be proven first (decision 020)
    if (!u.confirmed) throw fail(403, 'email_not_confirmed')
    const p = await findUsablePromo(tx, code, { email: u.email })
    await tx.update(users).set({ activePromoCodeId: p.id }).where(eq(users.id, userId))
    await applyAccountPromoToOpenOrders(tx, userId, p)
    return p
  })
}

/** The usable promo code `code` for the caller (a guest when `userId` is null), checked against its email. */
export async function previewAccountPromo(db: Db, userId: number | null, code: string): Promise<PromoRow> {
  return findUsablePromo(db, code, { email: await userEmail(db, userId) })
}

/** Clears the active promo code of account `userId` (orders that carry it keep it). */
export async function clearAccountPromo(db: Db, userId: number): Promise<void> {
  await db.update(users).set({ activePromoCodeId: null }).where(eq(users.id, userId))
}

async function userEmail(db: Db, userId: number | null) {
  if (userId === null) return null
  const [u] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId))
  return u?.email ?? null
}
