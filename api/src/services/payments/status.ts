import { isHeldForReview } from '../risk/held'
import { desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { payments } from '../../db/schema'
import type { OrderRow } from '../orders/access'
import { isPaymentActive } from '../orders/state-machine'
import { refundOut, returnedPaymentsOf } from '../refunds/view'
import { declineMessage, declineReasonOf } from './decline-reasons'
import { receiptsField } from '../receipts/view'
import { isSuperseded, publicPaymentStatus } from './settle'

export async function latestPayment(db: Db, orderId: string) {
  const [p] = await db
    .select()
    .from(payments)
    .where(eq(payments.orderId, orderId))
    .orderBy(desc(payments.created), desc(payments.id))
    .limit(1)
  return p ?? null
}

/** The order status answer (spec §3 "Order status result", plus what the pay page shows). */
export async function orderStatusBody(db: Db, order: OrderRow) {
  const p = await latestPayment(db, order.id)
  const payable = isPaymentActive(order.status)
  return {
    id: order.id,
    status: order.status,
    payment_id: p?.id ?? null,
    payment_status: p ? publicPaymentStatus(p.status) : null,
    // a declined payment (not one replaced by a newer payment) while the order can still be paid
    payment_message:
      p?.status === 'failed' && !isSuperseded(p) && payable ? declineMessage(declineReasonOf(p)) : null,
    is_payment_active: payable,
    reject_reason: order.rejectReason,
    refund:
      order.paidAt !== null && (order.status === 'failed' || order.status === 'done')
        ? await refundOut(db, order.id)
        : null,
    ...(await returnedPaymentsOf(db, order.id)),
    ...(order.paidAt !== null ? await receiptsField(db, order.id) : {}),
    ...(order.status === 'paid' && (await isHeldForReview(db, order.id)) ? { on_review: true } : {}),
  }
}
