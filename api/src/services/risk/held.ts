// Whether an order is held for review (issue 34): a leaf that delivery, the status answers and the
// order views ask, so none of them imports the review service itself.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { orderReviews } from '../../db/schema'

/** Whether the order is held for review (nothing of it may be delivered or shown). */
export async function isHeldForReview(db: Db | Tx, orderId: string): Promise<boolean> {
  const [r] = await db
    .select({ status: orderReviews.status })
    .from(orderReviews)
    .where(eq(orderReviews.orderId, orderId))
  return r?.status === 'held'
}
