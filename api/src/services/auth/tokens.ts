import { randomUUID } from 'node:crypto'
import { and, eq, gt, isNull, ne } from 'drizzle-orm'
import { jwtVerify, SignJWT } from 'jose'
import type { Db, Tx } from '../../db/client'
import { refreshTokens, users } from '../../db/schema'
import type { ApiConfig } from '../../env'
import { refuse } from '../../lib/domain-error'
import { signAccessToken } from './access-token'

export interface TokenPair {
  access: string
  refresh: string
}

const enc = new TextEncoder()

/**
 * A refresh token is a JWT naming its `refresh_tokens` row (jti) and sign-in family (fam). The
 * row is what counts: each one works once, and the family's absolute expiry is set at sign-in.
 */
async function signRefresh(
  config: ApiConfig,
  row: { id: string; familyId: string; userId: number; expiresAt: Date },
) {
  return new SignJWT({ typ: 'refresh', fam: row.familyId })
    .setProtectedHeader({ alg: 'HS256' })
    .setJti(row.id)
    .setSubject(String(row.userId))
    .setIssuedAt()
    .setExpirationTime(Math.floor(row.expiresAt.getTime() / 1000))
    .sign(enc.encode(config.jwtSecret))
}

async function issue(db: Db, config: ApiConfig, userId: number, familyId: string, expiresAt: Date) {
  const row = { id: randomUUID(), familyId, userId, expiresAt }
  await db.insert(refreshTokens).values(row)
  const [access, refresh] = await Promise.all([
    signAccessToken(config.jwtSecret, userId, config.accessTtlSeconds, familyId),
    signRefresh(config, row),
  ])
  return { access, refresh }
}

/** A new sign-in: a new token family whose refresh tokens all end at one absolute expiry. */
export async function startSession(
  db: Db,
  config: ApiConfig,
  userId: number,
  now = new Date(),
): Promise<TokenPair> {
  const expiresAt = new Date(now.getTime() + config.refreshTtlSeconds * 1000)
  return issue(db, config, userId, randomUUID(), expiresAt)
}

/** The jti and family of a well-signed refresh token (expired ones included), or null. */
async function readRefresh(
  config: ApiConfig,
  token: string,
): Promise<{ id: string; familyId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, enc.encode(config.jwtSecret), {
      algorithms: ['HS256'],
      // expiry is judged against the database row, so an expired JWT still identifies its family
      currentDate: new Date(0),
    })
    if (payload.typ !== 'refresh' || typeof payload.jti !== 'string' || typeof payload.fam !== 'string')
      return null
    return { id: payload.jti, familyId: payload.fam }
  } catch {
    return null
  }
}

/**
 * Rotation: marks the presented token used and issues the next one of its family, atomically
 * (compare-and-set on `used_at`). A token presented a second time, after the short grace period
 * for concurrent requests, means it leaked: the whole family (that sign-in) is revoked. Every failure is a 400, on which clients sign out (§4).
 */
export async function rotateRefresh(
  db: Db,
  config: ApiConfig,
  token: string,
  now = new Date(),
): Promise<TokenPair> {
  const claims = await readRefresh(config, token)
  if (!claims) throw refuse('refresh_invalid')
  const [used] = await db
    .update(refreshTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(refreshTokens.id, claims.id),
        eq(refreshTokens.familyId, claims.familyId),
        isNull(refreshTokens.usedAt),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, now),
      ),
    )
    .returning()
  if (used) {
    const [user] = await db
      .select({ deletedAt: users.deletedAt })
      .from(users)
      .where(eq(users.id, used.userId))
    if (!user || user.deletedAt) throw refuse('refresh_invalid')
    return issue(db, config, used.userId, used.familyId, used.expiresAt)
  }
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.id, claims.id))
  // Two requests of one browser (a prefetch and the navigation, two tabs) may refresh with the same
  // token at once: within the grace period the late one gets its own pair of the same sign-in.
  const graceMs = config.refreshReuseGraceSeconds * 1000
  if (
    row?.usedAt &&
    !row.revokedAt &&
    row.familyId === claims.familyId &&
    row.expiresAt > now &&
    now.getTime() - row.usedAt.getTime() <= graceMs
  ) {
    return issue(db, config, row.userId, row.familyId, row.expiresAt)
  }
  if (row?.usedAt && !row.revokedAt) {
    await revokeFamily(db, row.familyId, now)
    throw refuse('refresh_reused')
  }
  if (row && row.expiresAt <= now) throw refuse('refresh_expired')
  throw refuse('refresh_invalid')
}

export async function revokeFamily(db: Db, familyId: string, now = new Date()): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
}

/** Sign-out: revokes the sign-in the token belongs to. Unknown or foreign tokens change nothing. */
export async function revokeByToken(db: Db, config: ApiConfig, token: string): Promise<boolean> {
  const claims = await readRefresh(config, token)
  if (!claims) return false
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.id, claims.id))
  if (!row || row.familyId !== claims.familyId) return false
  await revokeFamily(db, row.familyId)
  return true
}

/**
 * Every sign-in of a user ends (account deletion, password reset), or every one but `keep` (a
 * password change ends the other sign-ins). Access tokens die with them (see ./sessions).
 */
export async function revokeAllForUser(
  db: Db | Tx,
  userId: number,
  opts: { keep?: string | null; now?: Date } = {},
): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: opts.now ?? new Date() })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        opts.keep ? ne(refreshTokens.familyId, opts.keep) : undefined,
      ),
    )
}
