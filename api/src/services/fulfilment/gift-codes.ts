import { and, asc, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { giftCodes, gifts, orders } from '../../db/schema'
import { message } from '../../lib/errors'
import { isFreeCode } from '../stock/holds'
import type { DeliveryResult, Fulfiller, OrderRow } from './types'

/**
 * Takes one unsold code of the order's gift and marks it sold to this order, atomically: the inner
 * SELECT ... FOR UPDATE SKIP LOCKED lets concurrent deliveries each lock a different free row, and
 * the outer UPDATE re-checks `sold_at is null`, so a code is never handed out twice.
 */
async function claimFreeCode(tx: Tx, giftId: number, orderId: string): Promise<string | null> {
  // the code held for this order when its payment started, else any free one
  return (
    (await claimCode(
      tx,
      giftId,
      orderId,
      and(eq(giftCodes.heldBy, orderId), isNull(giftCodes.soldAt)) as SQL,
    )) ?? (await claimCode(tx, giftId, orderId, isFreeCode(giftCodes)))
  )
}

async function claimCode(tx: Tx, giftId: number, orderId: string, which: SQL): Promise<string | null> {
  const free = tx
    .select({ id: giftCodes.id })
    .from(giftCodes)
    .where(and(eq(giftCodes.giftId, giftId), which))
    .orderBy(asc(giftCodes.id))
    .limit(1)
    .for('update', { skipLocked: true })
  const [claimed] = await tx
    .update(giftCodes)
    .set({ orderId, soldAt: new Date() })
    .where(and(sql`${giftCodes.id} = (${free})`, which))
    .returning({ code: giftCodes.code })
  return claimed?.code ?? null
}

/** Delivers a paid RokkyOrder: one gift code from the inventory, stored in orders.code. */
export const giftCodeFulfiller: Fulfiller = {
  kinds: ['RokkyOrder'],
  async deliver(tx: Tx, order: OrderRow): Promise<DeliveryResult> {
    if (order.giftId === null) return { outcome: 'failed', reason: message('gift_not_found') }
    // A retried delivery of the same order returns the code it already holds instead of a second one.
    const [held] = await tx
      .select({ code: giftCodes.code })
      .from(giftCodes)
      .where(and(eq(giftCodes.orderId, order.id), eq(giftCodes.giftId, order.giftId)))
    const code = held?.code ?? (await claimFreeCode(tx, order.giftId, order.id))
    if (code === null) {
      const [gift] = await tx.select({ title: gifts.title }).from(gifts).where(eq(gifts.id, order.giftId))
      return { outcome: 'failed', reason: message('gift_codes_exhausted', { title: gift?.title ?? '' }) }
    }
    await tx.update(orders).set({ code, updated: new Date() }).where(eq(orders.id, order.id))
    return { outcome: 'done' }
  },
}
