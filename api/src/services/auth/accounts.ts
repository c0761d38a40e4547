import { verify } from '@node-rs/argon2'
import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { users } from '../../db/schema'
import { fail } from '../../lib/errors'
import { refuse, refuseField } from '../../lib/domain-error'
import { queueConfirmation } from './email-confirmation'
import { hashPassword } from './password-hash'
import { assertStrongPassword } from './password-strength'

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

export type UserRow = typeof users.$inferSelect

export async function activeUserById(db: Db, id: number): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), isNull(users.deletedAt)))
  return row ?? null
}

/**
 * Sign-in or sign-up by email and password: an unknown email becomes a new account
 * (`created: true`) with an unconfirmed email and a confirmation mail queued with it; a known one
 * must match its password. A new password must not be easy to guess (400 on `password`).
 */
export async function signInOrUp(
  db: Db,
  secret: string,
  rawEmail: string,
  password: string,
  opts: { consentRefused?: boolean } = {},
): Promise<{ user: UserRow; created: boolean }> {
  const email = normalizeEmail(rawEmail)
  const [existing] = await db.select().from(users).where(eq(users.email, email))
  if (!existing) {
    // the storefront said the consent box was left unticked: no account without it (152-ФЗ)
    if (opts.consentRefused) throw refuseField('personal_data_consent', 'consent_required')
    assertStrongPassword(password, [email])
    const passwordHash = await hashPassword(password)
    // two sign-ups racing for one email: the unique index lets exactly one insert win
    const created = await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ email, passwordHash })
        .onConflictDoNothing({ target: users.email })
        .returning()
      if (row) await queueConfirmation(tx, secret, row.id, email)
      return row
    })
    if (created) return { user: created, created: true }
    return signInOrUp(db, secret, email, password, opts)
  }
  if (!existing.passwordHash) throw fail(401, 'password_not_set')
  const ok = await verify(existing.passwordHash, password).catch(() => false)
  if (!ok) throw refuse('wrong_password')
  return { user: existing, created: false }
}
