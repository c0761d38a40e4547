// Confirmed email (issue 13): an account's email identifies a person (social sign-in merges,
// the ADMIN_EMAILS role, account promo codes) only once the owner proved it — by the link of the
// confirmation mail, by a password reset link, or by a provider that vouches for the address.
import { and, eq, isNull } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { socialAccounts, users } from '../../db/schema'
import { queueMail } from '../mail/outbox'
import {
  consumeAccountToken,
  createAccountToken,
  expireAccountTokens,
  TOKEN_TTL_SECONDS,
} from './account-tokens'
import { revokeAllForUser } from './tokens'

/** The storefront page a confirmation link opens (the mail adds `?token=`). */
export const CONFIRM_PATH = '/auth/confirm'

/** Queues the confirmation mail (in the caller's transaction) with a new link; older links end. */
export async function queueConfirmation(
  tx: Db | Tx,
  secret: string,
  userId: number,
  email: string,
  now = new Date(),
) {
  await expireAccountTokens(tx, userId, 'confirm_email', now)
  const { id } = await createAccountToken(tx, secret, userId, email, 'confirm_email', now)
  await queueMail(tx, {
    template: 'confirm_email',
    to: email,
    key: `confirm_email:${id}`,
    data: { path: CONFIRM_PATH, tokenId: id, expiresInHours: TOKEN_TTL_SECONDS.confirm_email / 3600 },
  })
}

/** Sends the confirmation mail again (its own transaction): a new link, older links end. */
export async function resendConfirmation(
  db: Db,
  secret: string,
  userId: number,
  email: string,
): Promise<void> {
  await db.transaction((tx) => queueConfirmation(tx, secret, userId, email))
}

/**
 * Opens a confirmation link: the account's email is confirmed. Null when the link does not work.
 * Whoever made the account chose its password (or bound its social account) before the mailbox was
 * proven, and may not be the mailbox's owner (issue 38: a stranger signs up with the shop owner's
 * address, the owner clicks the genuine mail, the stranger's token became `owner`). So the link
 * keeps the account as it is only when it is opened in a browser signed in to that very account
 * (`byUserId`: the one that signed up); opened anywhere else it hands the account to the mailbox's
 * owner the way a reset link does (claimForEmailOwner: password dropped, every sign-in ended, bound
 * social accounts removed) — decision 045.
 */
export async function confirmEmail(
  db: Db,
  token: string,
  opts: { byUserId?: number | null; now?: Date } = {},
): Promise<{ userId: number; claimed: boolean } | null> {
  const now = opts.now ?? new Date()
  return db.transaction(async (tx) => {
    const used = await consumeAccountToken(tx, token, 'confirm_email', now)
    if (!used) return null
    if (opts.byUserId !== used.userId) {
      const claimed = await claimForEmailOwner(tx, used.userId, now)
      return { userId: used.userId, claimed }
    }
    await tx
      .update(users)
      .set({ emailConfirmedAt: now })
      .where(and(eq(users.id, used.userId), isNull(users.emailConfirmedAt)))
    return { userId: used.userId, claimed: false }
  })
}

/** Whether the user proved their email. */
export async function isEmailConfirmed(db: Db | Tx, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ at: users.emailConfirmedAt, email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
  return Boolean(row?.at && row.email && !row.deletedAt)
}

/**
 * The owner of the email proved it (a provider vouched for it, or they opened a reset link) on an
 * account whose email was never confirmed: whoever made that account may not be its owner (the
 * pre-account takeover). Everything that person could have set up to get back in goes — the
 * password, every sign-in, the bound social accounts, pending links — and the email is confirmed.
 * A confirmed account is left as it is. Returns whether the account was claimed.
 */
export async function claimForEmailOwner(tx: Tx, userId: number, now = new Date()): Promise<boolean> {
  const [user] = await tx
    .select({ at: users.emailConfirmedAt })
    .from(users)
    .where(eq(users.id, userId))
    .for('update')
  if (!user || user.at) return false
  await revokeAllForUser(tx, userId, { now })
  await tx.delete(socialAccounts).where(eq(socialAccounts.userId, userId))
  await expireAccountTokens(tx, userId, 'confirm_email', now)
  await expireAccountTokens(tx, userId, 'password_reset', now)
  await tx.update(users).set({ passwordHash: null, emailConfirmedAt: now }).where(eq(users.id, userId))
  return true
}
