import { and, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type OrderStatus, orders } from '../../db/schema'
import { ApiError, message } from '../../lib/errors'
import { creditGiftCashback } from '../balance/cashback'
import { MAILED_STATUSES, queueOrderStatusMail } from '../mail/order-mails'
import { openRefund } from '../refunds/open'
import { releaseStockHolds } from '../stock/holds'
import { recordOrderEvent } from './events'
import { queueSettlementReceipt } from '../receipts/settlement'

/**
 * The order lifecycle: created → waiting_for_payment → paid → sending → sent → done, and failed
 * (with a reject_reason) from any state before done. failed → paid is the back-office's «Повторить
 * выдачу» of an order that was paid (services/fulfilment/retry.ts checks paid_at and refunds;
 * payments cannot take it: settlement pays only unpaid states). Nothing else is allowed.
 */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  created: ['waiting_for_payment', 'paid', 'failed'],
  waiting_for_payment: ['paid', 'failed'],
  paid: ['sending', 'failed'],
  sending: ['sent', 'failed'],
  sent: ['done', 'failed'],
  done: [],
  failed: ['paid'],
}

/** While an order is in these states its contents may change and it may be paid. */
export const UNPAID_STATUSES: readonly OrderStatus[] = ['created', 'waiting_for_payment']

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to)
}

export function isPaymentActive(status: OrderStatus): boolean {
  return UNPAID_STATUSES.includes(status)
}

/**
 * Moves an order to `to` when its current state allows it, atomically (compare-and-set on the
 * status, so two workers can never both make the same move). Throws a 409 otherwise.
 */
export async function transitionOrder(
  db: Db | Tx,
  orderId: string,
  to: OrderStatus,
  extra: Partial<typeof orders.$inferInsert> = {},
): Promise<OrderStatus> {
  const allowedFrom = (Object.keys(ORDER_TRANSITIONS) as OrderStatus[]).filter((s) => canTransition(s, to))
  // The move, its timeline entry and (done, failed) the buyer's mail, together: a savepoint
  // when the caller is in a transaction.
  const moved = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(orders)
      .set({ ...extra, status: to, updated: new Date() })
      .where(and(eq(orders.id, orderId), inArray(orders.status, allowedFrom)))
      .returning({ id: orders.id, email: orders.email, paidAt: orders.paidAt })
    if (!row) return false
    const reason = extra.rejectReason ? { reason: extra.rejectReason } : {}
    await recordOrderEvent(tx, orderId, 'status', { to, ...reason })
    if (MAILED_STATUSES.includes(to)) await queueOrderStatusMail(tx, { ...row, to })
    // an order that ends without delivery gives back the codes held for its payment, and the
    // money when it was paid; a delivered gift earns its cashback. Both with the move, once.
    if (to === 'failed') {
      await releaseStockHolds(tx, orderId)
      if (row.paidAt !== null)
        await openRefund(tx, orderId, extra.rejectReason ?? message('refund_reason_default'))
    }
    if (to === 'done') {
      await creditGiftCashback(tx, orderId)
      // paid as an advance (delivered later): the «полный расчёт» receipt offsetting it (decision 059)
      await queueSettlementReceipt(tx, orderId)
    }
    return true
  })
  if (moved) return to
  const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId))
  if (!row) throw new ApiError(404, 'not_found', message('not_found'))
  throw new ApiError(409, 'illegal_transition', message('illegal_transition', { from: row.status, to }))
}
