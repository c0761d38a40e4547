import { isHeldForReview } from '../risk/held'
import { and, desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { orders, paymentMethods, payments } from '../../db/schema'
import type { OrderRow } from '../orders/access'
import { isPaymentActive } from '../orders/state-machine'
import { refundOut, returnedPaymentsOf } from '../refunds/view'
import { declineMessage, declineReasonOf } from './decline-reasons'
import { receiptsField } from '../receipts/view'
import { toMoney } from '../../lib/money'
import { chargedInRoubles } from './amounts'
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

export type PaymentRow = typeof payments.$inferSelect

/**
 * What the buyer is charged in roubles, the method's fee included: the payment that succeeded for
 * a paid order, else the payment under way (what it will charge). The same rule as the mails and
 * the refund (`chargedInRoubles`); nothing when no payment charges anything.
 */
async function chargedField(db: Db, order: OrderRow, latest: PaymentRow | null) {
  const [paid] =
    order.paidAt === null
      ? []
      : await db
          .select()
          .from(payments)
          .where(and(eq(payments.orderId, order.id), eq(payments.status, 'succeeded')))
          .orderBy(desc(payments.created), desc(payments.id))
          .limit(1)
  const p = paid ?? (latest?.status === 'pending' && isPaymentActive(order.status) ? latest : null)
  if (!p || p.amount <= 0) return {}
  const amount = chargedInRoubles(p, order.totalToPay)
  return {
    charged: { amount: toMoney(amount), fee: toMoney(amount - order.totalToPay), paid: p === paid },
  }
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
    ...(await chargedField(db, order, p)),
    ...(order.status === 'paid' && (await isHeldForReview(db, order.id)) ? { on_review: true } : {}),
  }
}

/** Payment `paymentId` with its method's title (null if none; the sandbox checkout page shows it). */
export async function paymentWithMethodTitle(db: Db, paymentId: string) {
  const [row] = await db
    .select({ payment: payments, methodTitle: paymentMethods.title })
    .from(payments)
    .leftJoin(paymentMethods, eq(paymentMethods.name, payments.methodName))
    .where(eq(payments.id, paymentId))
    .limit(1)
  return row ?? null
}

/** Order `orderId`'s payments through `provider`, newest first (the providers' callbacks). */
export function providerPaymentsOf(db: Db, orderId: string, provider: string): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.provider, provider)))
    .orderBy(desc(payments.created), desc(payments.id))
}

/** Order `orderId` (null if there is none), for a provider's callback, which comes from no buyer. */
export async function findOrderById(db: Db, orderId: string): Promise<OrderRow | null> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId))
  return order ?? null
}

/** Whether order `orderId` exists. */
export async function orderExists(db: Db, orderId: string): Promise<boolean> {
  const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.id, orderId))
  return order !== undefined
}
