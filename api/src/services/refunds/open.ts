// Opening the refund of a paid order that will not be delivered. Called by the state machine in
// the transaction that moves a paid order to failed (and by the back-office), so the refund row —
// unique per order — is committed with the failure or not at all. Where the money goes:
//   1. back through the provider that took it, when that adapter can refund: a 'refund.provider'
//      job does the call (outside any transaction) and the refund stays pending until it answers;
//   2. else to a signed-in buyer's balance, at once;
//   3. else (a guest, a provider that cannot refund) it waits for a person: status 'manual'.
// Balance spent on the order always goes back to the balance.
import { and, desc, eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { orders, payments, type RefundMethod, refunds } from '../../db/schema'
import { enqueue } from '../../jobs/queue'
import { getProvider } from '../../providers'
import { postBalanceEntry } from '../balance/ledger'
import { queueMail } from '../mail/outbox'
import { recordOrderEvent } from '../orders/events'
import { chargedInRoubles } from '../payments/amounts'

export const REFUND_JOB = 'refund.provider'

export type RefundRow = typeof refunds.$inferSelect

/**
 * What a refund is for, as a stable key: the order (kind `order`) or the refused payment (kind
 * `payment`). Its provider request, job and mail are keyed by it, so each happens once.
 */
export function refundCause(r: Pick<RefundRow, 'kind' | 'orderId' | 'paymentId'>): string {
  return r.kind === 'payment' ? `payment:${r.paymentId}` : r.orderId
}

/** The ledger cause of the provider-paid part of a refund credited to the balance instead. */
export function balanceCauseOf(r: Pick<RefundRow, 'kind' | 'orderId' | 'paymentId'>): string {
  // an order's balance spent went back under the order id itself
  return r.kind === 'payment' ? refundCause(r) : `${r.orderId}:payment`
}

/** The balance is kept in roubles: only a refund in roubles can go there. */
export const creditableToBalance = (r: { currency: string }) => r.currency === 'RUB'

/** The provider refund job of a refund, queued in the refund's transaction (outbox). */
export async function queueProviderRefund(tx: Tx, r: RefundRow): Promise<void> {
  await enqueue(tx, {
    kind: REFUND_JOB,
    key: `refund:${refundCause(r)}`,
    payload: { orderId: r.orderId, refundId: r.id },
    maxAttempts: 10,
  })
}

/** The route of a refund, from what was paid and by whom (a pure rule, unit-tested). */
export function refundRoute(p: {
  paidByProvider: number
  providerCanRefund: boolean
  signedIn: boolean
}): RefundMethod {
  if (p.paidByProvider > 0 && p.providerCanRefund) return 'provider'
  if (p.signedIn) return 'balance'
  return 'manual'
}

/**
 * Opens the order's refund once; null when there is nothing to refund (never paid, or paid with
 * nothing) or it was opened before. `actorUserId`: the staff member who asked for it.
 */
export async function openRefund(
  tx: Tx,
  orderId: string,
  reason: string,
  actorUserId: number | null = null,
): Promise<RefundRow | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId))
  if (!order || order.paidAt === null) return null
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'succeeded')))
    .orderBy(desc(payments.created), desc(payments.id))
    .limit(1)
  const paidByProvider = payment && payment.amount > 0 ? chargedInRoubles(payment, order.totalToPay) : 0
  const amount = paidByProvider + order.balanceUsed
  if (amount <= 0) return null
  const provider = payment ? getProvider(payment.provider) : null
  const method = refundRoute({
    paidByProvider,
    providerCanRefund: typeof provider?.refund === 'function',
    signedIn: order.userId !== null,
  })
  // what goes back to the balance now: the balance spent, and for 'balance' the payment too
  const toBalance = order.userId === null ? 0 : method === 'balance' ? amount : order.balanceUsed
  const [row] = await tx
    .insert(refunds)
    .values({
      orderId,
      method,
      status: method === 'provider' ? 'pending' : method === 'balance' ? 'done' : 'manual',
      amount,
      toBalance,
      reason,
      paymentId: payment?.id ?? null,
      actorUserId,
      completedAt: method === 'balance' ? new Date() : null,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) return null
  if (toBalance > 0 && order.userId !== null)
    await postBalanceEntry(tx, {
      userId: order.userId,
      kind: 'refund',
      amount: toBalance,
      cause: orderId,
      orderId,
    })
  await recordOrderEvent(tx, orderId, 'refund', { method, status: row.status, amount, reason }, actorUserId)
  if (method === 'provider') await queueProviderRefund(tx, row)
  else if (method === 'balance') await queueRefundMail(tx, row, order.email)
  return row
}

/** The buyer's «Возврат оформлен» mail, once per refund (per order, or per refused payment). */
export async function queueRefundMail(tx: Tx, refund: RefundRow, email: string | null): Promise<void> {
  if (!email) return
  await queueMail(tx, {
    template: 'order_refunded',
    to: email,
    data: {
      orderId: refund.orderId,
      reason: refund.reason,
      destination:
        refund.method === 'balance' ? 'balance' : refund.method === 'manual' ? 'person' : 'payment',
      amount: refund.method === 'balance' ? refund.toBalance : refund.amount - refund.toBalance,
      paymentId: refund.paymentId,
      ...(refund.kind === 'payment' ? { currency: refund.currency, refusedPayment: true } : {}),
    },
    key: `order_refunded:${refundCause(refund)}`,
  })
}
