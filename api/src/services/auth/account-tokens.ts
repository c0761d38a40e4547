// Single-use links mailed to an account. The link's token is signed: HMAC-SHA256 of a random row id
// under the server secret, made when the mail is rendered, so it is stored nowhere (not in the
// job's payload either); the row keeps only its SHA-256, to find it, an expiry, and `used_at`,
// set by compare-and-set so that two clicks (or two instances) use a link once.
import { createHash, createHmac, randomUUID } from 'node:crypto'
import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type AccountTokenPurpose, accountTokens, users } from '../../db/schema'

/** How long each kind of link works. */
export const TOKEN_TTL_SECONDS: Record<AccountTokenPurpose, number> = {
  confirm_email: 48 * 3600,
  password_reset: 30 * 60,
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** A well-formed token as we make them (43 base64url characters); anything else is refused early. */
export const isTokenShaped = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token)

/** The link token of an account token row (43 base64url characters). */
export const linkToken = (secret: string, id: string) =>
  createHmac('sha256', secret).update(`account-link:${id}`).digest('base64url')

/** Makes a link for `userId`'s current `email`; returns its row id (the mail makes the token from it). */
export async function createAccountToken(
  tx: Db | Tx,
  secret: string,
  userId: number,
  email: string,
  purpose: AccountTokenPurpose,
  now = new Date(),
): Promise<{ token: string; id: string }> {
  const id = randomUUID()
  const token = linkToken(secret, id)
  await tx.insert(accountTokens).values({
    id,
    userId,
    purpose,
    tokenHash: hashToken(token),
    email,
    created: now,
    expiresAt: new Date(now.getTime() + TOKEN_TTL_SECONDS[purpose] * 1000),
  })
  return { token, id }
}

/**
 * Uses a token once: marks it used and returns its account, or null when it is unknown, of another
 * purpose, expired, already used, or made for an email the account no longer has (or a deleted
 * account). Every refusal looks the same to the caller.
 */
export async function consumeAccountToken(
  tx: Tx,
  token: string,
  purpose: AccountTokenPurpose,
  now = new Date(),
): Promise<{ id: string; userId: number; email: string } | null> {
  if (!isTokenShaped(token)) return null
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning({ id: accountTokens.id, userId: accountTokens.userId, email: accountTokens.email })
  if (!row) return null
  const [user] = await tx
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, row.userId))
  if (!user || user.deletedAt || user.email !== row.email) return null
  return row
}

/** The account and address of a usable token, without using it (to check a new password first). */
export async function peekAccountToken(
  db: Db | Tx,
  token: string,
  purpose: AccountTokenPurpose,
  now = new Date(),
): Promise<{ userId: number; email: string } | null> {
  if (!isTokenShaped(token)) return null
  const [row] = await db
    .select({ userId: accountTokens.userId, email: accountTokens.email })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
  return row ?? null
}

/** Ends the account's unused links of one purpose (a newer one was sent, or the password changed). */
export async function expireAccountTokens(
  tx: Db | Tx,
  userId: number,
  purpose: AccountTokenPurpose,
  now = new Date(),
): Promise<void> {
  await tx
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)),
    )
}
