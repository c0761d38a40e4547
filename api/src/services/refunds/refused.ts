// A payment the provider took but the shop cannot accept (amount or currency not the payment's, the
// order no longer payable): recorded as `refused` and given back once, in the transaction that
// claimed the provider's event (decision 037). The order itself is left as it is. Where the money
// goes follows the order refunds' rule (refundRoute): back through the provider when its adapter can
// refund (a 'refund.provider' job), else to a signed-in buyer's balance (roubles only), else to a
// person ('manual'). The refund row is unique per payment, so replays and re-queries refund once.
import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { orders, payments, refunds } from '../../db/schema'
import { getProvider } from '../../providers'
import { message } from '../../lib/errors'
import type { PaymentRow } from '../../providers/types'
import { postBalanceEntry } from '../balance/ledger'
import { recordOrderEvent } from '../orders/events'
import { recordProviderMismatch } from './mismatch'
import {
  balanceCauseOf,
  creditableToBalance,
  queueProviderRefund,
  queueRefundMail,
  type RefundRow,
  refundRoute,
} from './open'

/** Why the settlement refused a payment (its error codes). */
export type RefusalCode = 'payment_amount_mismatch' | 'order_already_paid' | 'order_total_changed'

/** The buyer-facing reason of the refund (Russian), from the refusal. */
export function refusalReason(code: RefusalCode): string {
  if (code === 'payment_amount_mismatch') return message('payment_refused_amount')
  if (code === 'order_total_changed') return message('payment_refused_total')
  return message('payment_refused_order')
}

/** What the provider says it took: minor units of `currency`. */
export interface TakenMoney {
  amount: number
  currency: string
}

/**
 * Marks the payment refused, writes `payment_refused` on the order's timeline and opens its refund.
 * `refusal`: why the settlement refused it.
 * Returns the refund, or null when this payment was refunded before.
 */
export async function refundRefusedPayment(
  tx: Tx,
  payment: PaymentRow,
  taken: TakenMoney,
  refusal: RefusalCode,
): Promise<RefundRow | null> {
  const reason = refusalReason(refusal)
  await tx.update(payments).set({ status: 'refused' }).where(eq(payments.id, payment.id))
  await recordOrderEvent(tx, payment.orderId, 'payment_refused', {
    payment_id: payment.id,
    provider: payment.provider,
    amount: taken.amount,
    currency: taken.currency,
    expected_amount: payment.amount,
    expected_currency: payment.currency,
    reason: refusal,
  })
  if (taken.amount <= 0) return null
  const [order] = await tx
    .select({ userId: orders.userId, email: orders.email, paidAt: orders.paidAt, status: orders.status })
    .from(orders)
    .where(eq(orders.id, payment.orderId))
  // money for an order the shop closed unpaid, or not what was asked: staff are told (decision 111);
  // a second payment of a paid order is the buyer paying twice, refunded as usual
  if (refusal === 'payment_amount_mismatch' || order?.paidAt === null)
    await recordProviderMismatch(tx, {
      provider: payment.provider,
      kind: 'payment_refused',
      orderId: payment.orderId,
      externalId: payment.externalId ?? payment.id,
      shop: { payment_id: payment.id, order_status: order?.status ?? null, refusal },
      remote: { amount: taken.amount, currency: taken.currency },
    })
  const userId = order?.userId ?? null
  const method = refundRoute({
    paidByProvider: taken.amount,
    providerCanRefund: typeof getProvider(payment.provider)?.refund === 'function',
    signedIn: userId !== null && creditableToBalance(taken),
  })
  const [row] = await tx
    .insert(refunds)
    .values({
      orderId: payment.orderId,
      kind: 'payment',
      method,
      status: method === 'provider' ? 'pending' : method === 'balance' ? 'done' : 'manual',
      amount: taken.amount,
      currency: taken.currency,
      toBalance: method === 'balance' ? taken.amount : 0,
      reason,
      paymentId: payment.id,
      completedAt: method === 'balance' ? new Date() : null,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) return null
  if (method === 'balance' && userId !== null)
    await postBalanceEntry(tx, {
      userId,
      kind: 'refund',
      amount: taken.amount,
      cause: balanceCauseOf(row),
      orderId: payment.orderId,
    })
  await recordOrderEvent(tx, payment.orderId, 'refund', {
    payment_id: payment.id,
    method,
    status: row.status,
    amount: taken.amount,
    currency: taken.currency,
    reason,
  })
  if (method === 'provider') await queueProviderRefund(tx, row)
  else if (method === 'balance') await queueRefundMail(tx, row, order?.email ?? null)
  return row
}
