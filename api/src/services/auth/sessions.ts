// The one token check that honours sign-out, password change and reset, and account deletion: an
// access token names its sign-in (the refresh token family), and the sign-in must still be live.
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { refreshTokens, users } from '../../db/schema'

/** True while the sign-in `sessionId` of `userId` is neither revoked nor expired, and the account exists. */
export async function sessionIsLive(db: Db, userId: number, sessionId: string): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(sessionId)) return false
  const rows = await db
    .select({ one: sql<number>`1` })
    .from(refreshTokens)
    .innerJoin(users, eq(users.id, refreshTokens.userId))
    .where(
      and(
        eq(refreshTokens.familyId, sessionId),
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
        isNull(users.deletedAt),
      ),
    )
    .limit(1)
  return rows.length > 0
}
