// The one token check that honours sign-out, password change and reset, and account deletion: an
// access token names its sign-in (the refresh token family), and the sign-in must still be live.
import { and, eq, getTableColumns, gt, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { preparedPerDb } from '../../db/prepared'
import { refreshTokens, users } from '../../db/schema'
import type { UserRow } from './accounts'
import { verifyAccessToken } from './access-token'

/** What a checked bearer token stands for: its account and sign-in. */
export interface LiveBearer {
  userId: number
  sessionId: string
  /** The account, read by the same query as the sign-in check. */
  user: UserRow
}

/**
 * An access token's account while its signature holds and its sign-in is live, else null: the
 * bearer check of every API call (lib/auth.ts), and of the storefront's own reads in this process
 * that skip the API's HTTP round trip (the personal fill's profile, the kept pages' key).
 */
export async function liveBearer(db: Db, jwtSecret: string, token: string): Promise<LiveBearer | null> {
  const claims = await verifyAccessToken(jwtSecret, token)
  const user = claims && (await liveSessionUser(db, claims.userId, claims.sessionId))
  return claims && user ? { ...claims, user } : null
}

/**
 * The account of the sign-in `sessionId` of `userId` while it is neither revoked nor expired and
 * the account exists, else null. Every bearer check runs it, so it is one prepared query per
 * database (issue 36): the check and the account row together, with the SQL built once.
 */
export async function liveSessionUser(db: Db, userId: number, sessionId: string): Promise<UserRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(sessionId)) return null
  const [row] = await liveSessionUserQuery(db).execute({ userId, sessionId })
  return row ?? null
}

const liveSessionUserQuery = preparedPerDb((db) =>
  db
    .select(getTableColumns(users))
    .from(refreshTokens)
    .innerJoin(users, eq(users.id, refreshTokens.userId))
    .where(
      and(
        eq(refreshTokens.familyId, sql.placeholder('sessionId')),
        eq(refreshTokens.userId, sql.placeholder('userId')),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
        isNull(users.deletedAt),
      ),
    )
    .limit(1)
    .prepare('live_session_user'),
)
