// Password reset (by a mailed link) and change (with the current password). Either ends other
// sign-ins (a reset all of them) and mails the owner; the mail is queued in the same transaction.
import { createHmac } from 'node:crypto'
import { verify } from '@node-rs/argon2'
import { and, eq, isNull } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db } from '../../db/client'
import { users } from '../../db/schema'
import { enqueue } from '../../jobs/queue'
import type { JobHandler } from '../../jobs/worker'
import { fail } from '../../lib/errors'
import { refuse, refuseField } from '../../lib/domain-error'
import { queueMail } from '../mail/outbox'
import { hitRateLimits, type RateLimitResult } from '../rate-limit'
import {
  consumeAccountToken,
  createAccountToken,
  expireAccountTokens,
  peekAccountToken,
  TOKEN_TTL_SECONDS,
} from './account-tokens'
import { normalizeEmail } from './accounts'
import { hashPassword } from './password-hash'
import { claimForEmailOwner } from './email-confirmation'
import { assertStrongPassword } from './password-strength'
import { revokeAllForUser } from './tokens'

export const RESET_JOB = 'auth.password_reset'
/** The storefront page a reset link opens (the mail adds `?token=`). */
export const RESET_PATH = '/auth/reset'

/** Reset requests per (email, client address) and per client address, per hour. */
export const RESET_LIMITS = { perEmail: 3, perAddress: 10, windowSeconds: 3600 }
/** Requests for one email this close together make one mail (a double submit). */
const SAME_MAIL_SECONDS = 60

/** A stable pseudonym of an email for counters and job keys (no addresses in those tables). */
const emailTag = (secret: string, email: string) =>
  createHmac('sha256', secret).update(`reset:${email}`).digest('hex').slice(0, 32)

/**
 * «Забыли пароль?»: counts the request and queues a job, whatever the email, so neither the answer
 * nor its timing tells whether an account has it; the job looks the account up and mails the link.
 * Returns the refused limit, or null when the request was taken.
 */
export async function requestPasswordReset(
  deps: ApiDeps,
  rawEmail: string,
  address: string,
  now = new Date(),
): Promise<RateLimitResult | null> {
  const { db, config } = deps
  const email = normalizeEmail(rawEmail)
  const tag = emailTag(config.jwtSecret, email)
  const refused = await hitRateLimits(
    db,
    [
      [`reset:address:${address}`, RESET_LIMITS.perAddress],
      // per email *from this address*: requests for someone's email from elsewhere never use up
      // the owner's own (issue 38, finding 6); mails to one address stay one a minute (the job key)
      [`reset:email:${tag}:${address}`, RESET_LIMITS.perEmail],
    ],
    RESET_LIMITS.windowSeconds,
    now,
  )
  if (refused) return refused
  const slot = Math.floor(now.getTime() / 1000 / SAME_MAIL_SECONDS)
  await enqueue(db, { kind: RESET_JOB, key: `reset:${tag}:${slot}`, payload: { email }, maxAttempts: 5 })
  deps.jobs?.wake()
  return null
}

/** The reset job: an active account with this email gets a new link (older ones end); others nothing. */
export const passwordResetJob: JobHandler = async (job, deps) => {
  const email = typeof job.payload.email === 'string' ? job.payload.email : null
  if (!email) return
  await deps.db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), isNull(users.deletedAt)))
    if (!user) return
    await expireAccountTokens(tx, user.id, 'password_reset')
    const { id } = await createAccountToken(tx, deps.config.jwtSecret, user.id, email, 'password_reset')
    await queueMail(tx, {
      template: 'password_reset',
      to: email,
      key: `password_reset:${id}`,
      data: { path: RESET_PATH, tokenId: id, expiresInMinutes: TOKEN_TTL_SECONDS.password_reset / 60 },
    })
  })
  deps.jobs?.wake()
}

/** Whether a reset link can still be used (the form is shown only for one that can). */
export async function resetLinkWorks(db: Db, token: string): Promise<boolean> {
  return (await peekAccountToken(db, token, 'password_reset')) !== null
}

/**
 * Sets a new password by a reset link (used once). Opening the link proves the email, so an
 * unconfirmed account is claimed first (see claimForEmailOwner); every sign-in ends.
 */
export async function resetPassword(
  db: Db,
  token: string,
  password: string,
  now = new Date(),
): Promise<void> {
  const peek = await peekAccountToken(db, token, 'password_reset', now)
  if (!peek) throw refuse('reset_link_invalid')
  assertStrongPassword(password, [peek.email])
  const passwordHash = await hashPassword(password)
  await db.transaction(async (tx) => {
    const used = await consumeAccountToken(tx, token, 'password_reset', now)
    if (!used) throw refuse('reset_link_invalid')
    await claimForEmailOwner(tx, used.userId, now)
    await revokeAllForUser(tx, used.userId, { now })
    await expireAccountTokens(tx, used.userId, 'password_reset', now)
    await tx.update(users).set({ passwordHash }).where(eq(users.id, used.userId))
    await queueMail(tx, {
      template: 'password_changed',
      to: used.email,
      key: `password_changed:reset:${used.id}`,
      data: {},
    })
  })
}

/** Password changes per account per window (each one checks the current password). */
export const CHANGE_LIMIT = { perAccount: 5, windowSeconds: 15 * 60 }

/**
 * Changes the password of a signed-in user who knows the current one (an account without a
 * password sets one through a reset link). Every other sign-in ends; this one stays.
 */
export async function changePassword(
  db: Db,
  userId: number,
  sessionId: string | null,
  current: string,
  next: string,
  now = new Date(),
): Promise<void> {
  const [user] = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)))
  if (!user?.email) throw refuse('token_not_valid')
  if (!user.passwordHash) throw fail(400, 'password_not_set')
  const ok = await verify(user.passwordHash, current).catch(() => false)
  if (!ok) throw refuseField('current_password', 'current_password_wrong')
  if (current === next) throw refuseField('new_password', 'password_same')
  assertStrongPassword(next, [user.email], 'new_password')
  const passwordHash = await hashPassword(next)
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, userId))
    await revokeAllForUser(tx, userId, { keep: sessionId, now })
    await expireAccountTokens(tx, userId, 'password_reset', now)
    await queueMail(tx, {
      template: 'password_changed',
      to: user.email!,
      key: `password_changed:${userId}:${now.getTime()}`,
      data: {},
    })
  })
}
