// The one token check that honours sign-out, password change and reset, and account deletion: an
// access token names its sign-in (the refresh token family), and the sign-in must still be live.
import { and, eq, getTableColumns, gt, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { preparedPerDb } from '../../db/prepared'
import { refreshTokens, users } from '../../db/schema'
import type { UserRow } from './accounts'

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
