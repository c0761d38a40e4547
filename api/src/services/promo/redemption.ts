import { and, eq, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { promoCodes, promoRedemptions, users } from '../../db/schema'
import type { OrderRow } from '../orders/access'

/**
 * Called when an order is paid: the buyer's email has now used the order's code (once per email),
 * the code's use counter grows, and an account-level code is spent.
 */
export async function recordPromoRedemption(tx: Tx, order: OrderRow): Promise<void> {
  if (order.promoCodeId === null) return
  const email = order.email ?? (await emailOfUser(tx, order.userId))
  if (email) {
    const inserted = await tx
      .insert(promoRedemptions)
      .values({ promoCodeId: order.promoCodeId, email: email.toLowerCase(), orderId: order.id })
      .onConflictDoNothing()
      .returning({ orderId: promoRedemptions.orderId })
    if (inserted.length === 0) return
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
