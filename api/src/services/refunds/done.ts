// A done order refunded by the owner (decision 063): the codes it sold stay sold (never offered
// again: free stock is `sold_at is null`) and are marked refunded, so the stock screens and
// reports can tell a code that was given back from one that is still in a player's hands.
import { and, eq, inArray, isNull } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { giftCodes, orderProducts, voucherCodes } from '../../db/schema'

/** Marks the order's sold codes refunded; answers how many were marked now. */
export async function markOrderCodesRefunded(tx: Tx, orderId: string): Promise<number> {
  const now = new Date()
  const lines = tx
    .select({ id: orderProducts.id })
    .from(orderProducts)
    .where(eq(orderProducts.orderId, orderId))
  const vouchers = await tx
    .update(voucherCodes)
    .set({ refundedAt: now })
    .where(and(inArray(voucherCodes.orderProductId, lines), isNull(voucherCodes.refundedAt)))
    .returning({ id: voucherCodes.id })
  const gifts = await tx
    .update(giftCodes)
    .set({ refundedAt: now })
    .where(and(eq(giftCodes.orderId, orderId), isNull(giftCodes.refundedAt)))
    .returning({ id: giftCodes.id })
  return vouchers.length + gifts.length
}
