import { and, count, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { socialAccounts, users } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { normalizeEmail } from '../auth/accounts'
import { claimForEmailOwner, queueConfirmation } from '../auth/email-confirmation'
import { queueMail } from '../mail/outbox'
import { PROVIDER_TITLES, type SocialIdentity, type SocialProvider } from './providers'

async function boundUser(db: Db, provider: SocialProvider, providerUserId: string) {
  const [row] = await db
    .select({ userId: socialAccounts.userId })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.provider, provider), eq(socialAccounts.providerUserId, providerUserId)))
  return row?.userId ?? null
}

async function activeUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), isNull(users.deletedAt)))
  return row ?? null
}

/**
 * Social sign-in: the account bound to this (provider, provider user id); else the account whose
 * email the provider vouches for (then bound to it); else a new account with the provider's
 * email (confirmed) or, failing that, the email the shopper typed (unconfirmed: a confirmation
 * mail goes out). A typed email that belongs to an existing account is refused: only its owner's
 * password may link it (sign in, then bind in the profile). An account whose email was never
 * confirmed is claimed for the provider's verified owner first: the password and every way in of
 * whoever made it end (pre-account takeover; decision 020).
 */
export async function signInWithIdentity(
  db: Db,
  secret: string,
  provider: SocialProvider,
  identity: SocialIdentity,
  typedEmail: string | undefined,
): Promise<{ userId: number; created: boolean }> {
  const bound = await boundUser(db, provider, identity.id)
  if (bound !== null) return { userId: bound, created: false }

  if (identity.email) {
    const owner = await activeUserByEmail(db, identity.email)
    if (owner) {
      await db.transaction((tx) => claimForEmailOwner(tx, owner.id))
      await bindIdentity(db, owner.id, provider, identity)
      return { userId: owner.id, created: false }
    }
  }
  const email = identity.email ?? (typedEmail ? normalizeEmail(typedEmail) : null)
  if (email && !identity.email && (await activeUserByEmail(db, email)))
    throw refuse('social_email_taken', { provider: PROVIDER_TITLES[provider] })

  try {
    const userId = await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({
          email,
          nickname: identity.nickname?.slice(0, 50) ?? '',
          emailConfirmedAt: identity.email ? new Date() : null,
        })
        .returning({ id: users.id })
      await tx.insert(socialAccounts).values({ userId: user!.id, provider, providerUserId: identity.id })
      if (email && !identity.email) await queueConfirmation(tx, secret, user!.id, email)
      return user!.id
    })
    return { userId, created: true }
  } catch (e) {
    // a concurrent sign-in with the same identity won the race: use its account
    const winner = await boundUser(db, provider, identity.id)
    if (winner !== null) return { userId: winner, created: false }
    if (email && (await activeUserByEmail(db, email)))
      throw refuse('social_email_taken', { provider: PROVIDER_TITLES[provider] })
    throw e
  }
}

/**
 * Binds an identity to an account (idempotent for the same pair). A new binding queues the
 * «к аккаунту привязан …» mail in the same transaction, so its owner hears of every new way in.
 */
export async function bindIdentity(
  db: Db,
  userId: number,
  provider: SocialProvider,
  identity: SocialIdentity,
): Promise<void> {
  const title = PROVIDER_TITLES[provider]
  const owner = await boundUser(db, provider, identity.id)
  if (owner === userId) return
  if (owner !== null) throw refuse('social_already_bound', { provider: title })
  const [mine] = await db
    .select({ id: socialAccounts.id })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.userId, userId), eq(socialAccounts.provider, provider)))
  if (mine) throw refuse('social_provider_already_bound', { provider: title })
  await db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(socialAccounts)
      .values({ userId, provider, providerUserId: identity.id })
      .onConflictDoNothing()
      .returning({ id: socialAccounts.id })
    if (!inserted) throw refuse('social_already_bound', { provider: title })
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId))
    if (user?.email)
      await queueMail(tx, {
        template: 'social_bound',
        to: user.email,
        data: { provider },
        key: `social_bound:${inserted.id}`,
      })
  })
}

/** Unbinds a provider, unless it is the account's only way to sign in. */
export async function unbindProvider(db: Db, userId: number, provider: SocialProvider): Promise<void> {
  const title = PROVIDER_TITLES[provider]
  const [row] = await db
    .select({ id: socialAccounts.id })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.userId, userId), eq(socialAccounts.provider, provider)))
  if (!row) throw refuse('social_not_bound', { provider: title })
  const [user] = await db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId))
  const [bound] = await db
    .select({ n: count() })
    .from(socialAccounts)
    .where(eq(socialAccounts.userId, userId))
  if (!user?.passwordHash && (bound?.n ?? 0) <= 1) throw refuse('social_last_login_method')
  await db.delete(socialAccounts).where(eq(socialAccounts.id, row.id))
}
