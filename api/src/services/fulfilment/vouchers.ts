import { and, asc, eq, inArray, isNull, type SQL } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { orderProducts, products, voucherCodes } from '../../db/schema'
import { message } from '../../lib/errors'
import { isFreeCode } from '../stock/holds'
import type { DeliveryResult, Fulfiller, OrderRow } from './types'

/**
 * Sells up to `quantity` codes of a product matching `which` to one order line in a single
 * statement: the inner SELECT ... FOR UPDATE SKIP LOCKED lets concurrent buyers lock different
 * rows, and the outer UPDATE re-checks the condition, so no code is ever handed out twice.
 */
async function sellCodes(tx: Tx, productId: number, orderProductId: number, quantity: number, which: SQL) {
  const rows = tx
    .select({ id: voucherCodes.id })
    .from(voucherCodes)
    .where(and(eq(voucherCodes.productId, productId), which))
    .orderBy(asc(voucherCodes.id))
    .limit(quantity)
    .for('update', { skipLocked: true })
  return tx
    .update(voucherCodes)
    .set({ orderProductId, soldAt: new Date() })
    .where(and(inArray(voucherCodes.id, rows), which))
    .returning({ id: voucherCodes.id })
}

/** The codes held for this order at payment start first (even if the hold ran out), then free ones. */
async function takeCodes(
  tx: Tx,
  order: OrderRow,
  productId: number,
  orderProductId: number,
  quantity: number,
) {
  const held = and(eq(voucherCodes.heldBy, order.id), isNull(voucherCodes.soldAt)) as SQL
  const mine = await sellCodes(tx, productId, orderProductId, quantity, held)
  if (mine.length === quantity) return mine
  const more = await sellCodes(
    tx,
    productId,
    orderProductId,
    quantity - mine.length,
    isFreeCode(voucherCodes),
  )
  return [...mine, ...more]
}

/**
 * Delivers a paid PUBGOrder: one voucher code per unit of every line. All or nothing: when a line
 * cannot be filled the order fails, and the fulfilment registry rolls back the codes taken so far.
 */
export const voucherFulfiller: Fulfiller = {
  kinds: ['PUBGOrder'],
  async deliver(tx: Tx, order: OrderRow): Promise<DeliveryResult> {
    const lines = await tx
      .select({ id: orderProducts.id, productId: orderProducts.productId, quantity: orderProducts.quantity })
      .from(orderProducts)
      .where(eq(orderProducts.orderId, order.id))
      .orderBy(asc(orderProducts.id))
    if (lines.length === 0) return { outcome: 'failed', reason: message('fulfilment_empty_order') }
    for (const line of lines) {
      // a retried delivery keeps the codes it already holds
      const held = await tx
        .select({ id: voucherCodes.id })
        .from(voucherCodes)
        .where(eq(voucherCodes.orderProductId, line.id))
      const missing = line.quantity - held.length
      if (missing <= 0) continue
      const taken = await takeCodes(tx, order, line.productId, line.id, missing)
      if (taken.length < missing) {
        const [p] = await tx
          .select({ title: products.title })
          .from(products)
          .where(eq(products.id, line.productId))
        return { outcome: 'failed', reason: message('voucher_codes_out_of_stock', { title: p?.title ?? '' }) }
      }
    }
    return { outcome: 'done' }
  },
}
