import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { accountTokens, orders, socialAccounts, telegramAccountFollowers, users } from '../../db/schema'
import { deleteUploadOf } from '../uploads/store'
import { revokeAllForUser } from './tokens'

/**
 * Account deletion (the user-deletion popup of §2). Every sign-in ends; the user row stays only as
 * an anonymous stub (for the shop's books: balance and order counts), with email, password,
 * nickname, avatar, promo code and social accounts gone. Orders stay for the shop's records, still
 * owned by that stub (a tombstone nobody can sign in as, so they stay private: a null owner would
 * make them guest orders anyone with the id could open), without the buyer's email; what a supplier
 * needs to deliver an order still in flight (game account ids) stays on the order. Every access
 * token dies at once too (the per-request session check). See docs/decisions/ (020, 007).
 */
export async function deleteAccount(db: Db, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await revokeAllForUser(tx, userId)
    await tx.delete(accountTokens).where(eq(accountTokens.userId, userId))
    await tx.delete(socialAccounts).where(eq(socialAccounts.userId, userId))
    // the account's Telegram chat no longer hears of its orders
    await tx.delete(telegramAccountFollowers).where(eq(telegramAccountFollowers.userId, userId))
    await tx.update(orders).set({ email: null, updated: new Date() }).where(eq(orders.userId, userId))
    await tx
      .update(users)
      .set({
        email: null,
        passwordHash: null,
        nickname: '',
        avatarImg: null,
        activePromoCodeId: null,
        countryId: null,
        emailConfirmedAt: null,
        deletedAt: new Date(),
      })
      .where(eq(users.id, userId))
    // the account's avatar goes with it; its orders' avatars stay with the orders (delivery needs them)
    await deleteUploadOf(tx, { userId })
  })
}
