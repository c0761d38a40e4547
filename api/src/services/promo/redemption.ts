import { and, eq, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { promoCodes, promoRedemptions, users } from '../../db/schema'
import { fail } from '../../lib/errors'
import { refuse } from '../../lib/domain-error'
import type { OrderRow } from '../orders/access'
import { emailKey } from '../identity/email-key'

/**
 * Called when an order is paid, inside the payment's transaction: the buyer's email has now used
 * the order's code (once per email, compared by emailKey), the code's use counter grows and
 * an account-level code is spent. The rules a race between two payments can break are checked
 * here, under a lock on the code: a code this email already paid with, or one whose uses ran out
 * meanwhile, refuses the payment (409) as a changed total does.
 */
export async function recordPromoRedemption(tx: Tx, order: OrderRow): Promise<void> {
  if (order.promoCodeId === null) return
  const [promo] = await tx.select().from(promoCodes).where(eq(promoCodes.id, order.promoCodeId)).for('update')
  if (!promo) throw refuse('order_total_changed')
  if (promo.maxUses !== null && promo.usedCount >= promo.maxUses) throw fail(409, 'promo_code_exhausted')
  const email = order.email ?? (await emailOfUser(tx, order.userId))
  if (email) {
    const inserted = await tx
      .insert(promoRedemptions)
      .values({ promoCodeId: order.promoCodeId, email: emailKey(email), orderId: order.id })
      .onConflictDoNothing()
      .returning({ orderId: promoRedemptions.orderId })
    if (inserted.length === 0) throw fail(409, 'promo_code_already_used')
  }
  await tx
    .update(promoCodes)
    .set({ usedCount: sql`${promoCodes.usedCount} + 1` })
    .where(eq(promoCodes.id, order.promoCodeId))
  if (order.userId !== null)
    await tx
      .update(users)
      .set({ activePromoCodeId: null })
      .where(and(eq(users.id, order.userId), eq(users.activePromoCodeId, order.promoCodeId)))
}

async function emailOfUser(tx: Tx, userId: number | null): Promise<string | null> {
  if (userId === null) return null
  const [u] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId))
  return u?.email ?? null
}
