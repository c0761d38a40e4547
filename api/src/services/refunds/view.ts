// The refund of an order as the shop API shows it: an optional extension (`refund`) of the order
// status answer and the recalculated order. The status of the order itself stays `failed`.
// Refused payments given back (decision 037) are the optional `returned_payments` of the status answer.
import { and, asc, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type REFUND_METHODS, type REFUND_STATUSES, refunds } from '../../db/schema'
import { toMoney } from '../../lib/money'

export { REFUND_METHODS, REFUND_STATUSES } from '../../db/schema'

type RefundStatus = (typeof REFUND_STATUSES)[number]
type RefundMethod = (typeof REFUND_METHODS)[number]

/** The `refund` of an order (its wire schema: RefundSchema, api/src/routes/schemas/refunds.ts). */
export interface RefundOut {
  status: RefundStatus
  method: RefundMethod
  amount: string
  to_balance: string
  reason: string
}

/** One of `returned_payments` (its wire schema: ReturnedPaymentSchema, routes/schemas/refunds.ts). */
export interface ReturnedPaymentOut {
  amount: string
  currency: string
  status: RefundStatus
  method: RefundMethod
}

/** `returned_payments` of the order status answer: present only when there is one. */
export async function returnedPaymentsOf(
  db: Db | Tx,
  orderId: string,
): Promise<{ returned_payments?: ReturnedPaymentOut[] }> {
  const rows = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, 'payment')))
    .orderBy(asc(refunds.id))
  if (rows.length === 0) return {}
  return {
    returned_payments: rows.map((r) => ({
      amount: toMoney(r.amount),
      currency: r.currency,
      status: r.status,
      method: r.method,
    })),
  }
}

export async function refundOut(db: Db | Tx, orderId: string): Promise<RefundOut | null> {
  const [r] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, 'order')))
  if (!r) return null
  return {
    status: r.status,
    method: r.method,
    amount: toMoney(r.amount),
    to_balance: toMoney(r.toBalance),
    reason: r.reason,
  }
}
