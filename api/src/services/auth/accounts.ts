import { hash, verify } from '@node-rs/argon2'
import { and, eq, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { users } from '../../db/schema'
import { fail } from '../../lib/errors'

/** argon2id (the library's default algorithm) with OWASP's minimum parameters. */
const ARGON_OPTS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export const hashPassword = (password: string) => hash(password, ARGON_OPTS)

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
 * (`created: true`); a known one must match its password.
 */
export async function signInOrUp(
  db: Db,
  rawEmail: string,
  password: string,
): Promise<{ user: UserRow; created: boolean }> {
  const email = normalizeEmail(rawEmail)
  const [existing] = await db.select().from(users).where(eq(users.email, email))
  if (!existing) {
    const passwordHash = await hashPassword(password)
    // two sign-ups racing for one email: the unique index lets exactly one insert win
    const [created] = await db
      .insert(users)
      .values({ email, passwordHash })
      .onConflictDoNothing({ target: users.email })
      .returning()
    if (created) return { user: created, created: true }
    return signInOrUp(db, email, password)
  }
  if (!existing.passwordHash) throw fail(401, 'password_not_set')
  const ok = await verify(existing.passwordHash, password).catch(() => false)
  if (!ok) throw fail(401, 'wrong_password')
  return { user: existing, created: false }
}
