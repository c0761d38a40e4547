import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { orders, socialAccounts, users } from '../../db/schema'
import type { ApiConfig } from '../../env'
import { removeImage } from './avatar'
import { revokeAllForUser } from './tokens'

/**
 * Account deletion (the user-deletion popup of §2). Every sign-in ends; the user row stays only as
 * an anonymous stub (for the shop's books: balance and order counts), with email, password,
 * nickname, avatar, promo code and social accounts gone. Orders stay for the shop's records but
 * lose the link to the account and the buyer's email; what a supplier needs to deliver an order
 * still in flight (game account ids) stays on the order. See docs/decisions/ (account deletion).
 */
export async function deleteAccount(db: Db, config: ApiConfig, userId: number): Promise<void> {
  const avatar = await db.transaction(async (tx) => {
    const [row] = await tx.select({ avatarImg: users.avatarImg }).from(users).where(eq(users.id, userId))
    await revokeAllForUser(tx, userId)
    await tx.delete(socialAccounts).where(eq(socialAccounts.userId, userId))
    await tx
      .update(orders)
      .set({ userId: null, email: null, updated: new Date() })
      .where(eq(orders.userId, userId))
    await tx
      .update(users)
      .set({
        email: null,
        passwordHash: null,
        nickname: '',
        avatarImg: null,
        activePromoCodeId: null,
        countryId: null,
        deletedAt: new Date(),
      })
      .where(eq(users.id, userId))
    return row?.avatarImg ?? null
  })
  await removeImage(config.uploadDir, avatar)
}
