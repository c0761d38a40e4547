// Which orders wait for a person (issue 31): paid orders of `manual` games handed over for delivery
// (`sent` with the time they started waiting). One rule for the desk's queue, the back-office
// overview and the metrics, so the three always count the same orders.
import { and, count, eq, isNotNull, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { orders } from '../../db/schema'

/** The filter of orders waiting for delivery by a person (backed by a partial index). */
export const waitingForDelivery = and(eq(orders.status, 'sent'), isNotNull(orders.awaitingSince))

/** Whole seconds from `since` to `now`, never negative (clocks of two instances may differ). */
export function secondsSince(since: Date, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - since.getTime()) / 1000))
}

/** Whole hours from `now` to `due`, rounded up, never below 0. */
export function hoursLeft(due: Date, now: Date): number {
  return Math.max(0, Math.ceil((due.getTime() - now.getTime()) / 3_600_000))
}

/** How many orders wait for delivery, and how long the oldest has waited (null when none). */
export async function awaitingDelivery(
  db: Db,
  now = new Date(),
): Promise<{ count: number; oldest_waiting_seconds: number | null }> {
  const [row] = await db
    .select({ n: count(), oldest: sql<Date | string | null>`min(${orders.awaitingSince})` })
    .from(orders)
    .where(waitingForDelivery)
  const oldest = row?.oldest ? new Date(row.oldest) : null
  return { count: row?.n ?? 0, oldest_waiting_seconds: oldest ? secondsSince(oldest, now) : null }
}
