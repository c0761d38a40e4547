import { sql } from 'drizzle-orm'
import type { Db } from '../db/client'
import { rateLimits } from '../db/schema'

export interface RateLimitResult {
  allowed: boolean
  /** Attempts counted in the current window, this one included. */
  count: number
  /** Seconds until the window resets (for Retry-After). */
  retryAfter: number
}

/**
 * Counts one attempt under `key` in a fixed window of `windowSeconds` and says whether it is
 * within `limit`. One atomic upsert, so every instance sharing the database shares the counter:
 * a row whose window has passed restarts at 1.
 */
export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  windowSeconds: number,
  now = new Date(),
): Promise<RateLimitResult> {
  const windowFloor = new Date(now.getTime() - windowSeconds * 1000)
  const expired = sql`${rateLimits.windowStart} <= ${windowFloor.toISOString()}::timestamptz`
  const [row] = await db
    .insert(rateLimits)
    .values({ key, count: 1, windowStart: now })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimits.count} + 1 end`,
        windowStart: sql`case when ${expired} then ${now.toISOString()}::timestamptz else ${rateLimits.windowStart} end`,
      },
    })
    .returning({ count: rateLimits.count, windowStart: rateLimits.windowStart })
  const count = row?.count ?? 1
  const start = row?.windowStart ?? now
  const retryAfter = Math.max(1, Math.ceil((start.getTime() + windowSeconds * 1000 - now.getTime()) / 1000))
  return { allowed: count <= limit, count, retryAfter }
}

/**
 * Counts one attempt under each key in turn (e.g. per client address, then per email) and returns
 * the first limit refused, or null when every counter took it. Stops at the first refusal, so a
 * refused address does not also spend the email's allowance.
 */
export async function hitRateLimits(
  db: Db,
  limits: readonly (readonly [key: string, limit: number])[],
  windowSeconds: number,
  now = new Date(),
): Promise<RateLimitResult | null> {
  for (const [key, limit] of limits) {
    const hit = await hitRateLimit(db, key, limit, windowSeconds, now)
    if (!hit.allowed) return hit
  }
  return null
}

/** Forgets a counter (e.g. an account's failures after a successful sign-in). */
export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.delete(rateLimits).where(sql`${rateLimits.key} = ${key}`)
}
