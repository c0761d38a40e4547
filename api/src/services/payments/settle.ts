import { and, eq, inArray, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db, Tx } from '../../db/client'
import { orders, paymentEvents, payments } from '../../db/schema'
import { ApiError } from '../../lib/errors'
import { refuse } from '../../lib/domain-error'
import { log } from '../../lib/log'
import { keepListingOnPay } from '../delivery/listing'
import { postBalanceEntry } from '../balance/ledger'
import { fulfilOrder } from '../fulfilment'
import { transitionOrder, UNPAID_STATUSES } from '../orders/state-machine'
import { recordPromoRedemption } from '../promo/redemption'
import { queueSellReceipt } from '../receipts/outbox'
import { refundRefusedPayment } from '../refunds/refused'
import { type CardFacts, cardHash, issuerCountry } from '../risk/card'
import { holdIfRisky } from '../risk/review'
import { DECLINE_REASON_KEY } from './decline-reasons'

export type PaymentRow = typeof payments.$inferSelect

/** Key in payments.scenario holding the order's total_to_pay the payment was started for. */
export const ORDER_TOTAL_KEY = '_order_total_to_pay'

function orderTotalOf(p: PaymentRow): number | undefined {
  const v = (p.scenario as Record<string, unknown> | null)?.[ORDER_TOTAL_KEY]
  return typeof v === 'number' ? v : undefined
}

/** The scenario as the shopper sees it: without our bookkeeping keys. */
export function publicScenario(p: PaymentRow): Record<string, unknown> | null {
  if (!p.scenario || typeof (p.scenario as { type?: unknown }).type !== 'string') return null
  const {
    [ORDER_TOTAL_KEY]: _total,
    superseded: _superseded,
    [DECLINE_REASON_KEY]: _reason,
    ...rest
  } = p.scenario as Record<string, unknown>
  return rest
}
/** applied: the event changed the payment; duplicate: seen before; refused: taken, not accepted, refunded. */
export type SettleOutcome = 'applied' | 'duplicate' | 'refused'

/** A payment that settled one way or the other: a later success event changes nothing. */
const isFinal = (p: PaymentRow) => p.status === 'succeeded' || p.status === 'refused'

/**
 * Pays the order in a savepoint; the code of the 409 when the order is no longer payable for this
 * payment (paid already, closed, another total), with nothing of the attempt left behind.
 */
async function payOrderOrRefusal(
  tx: Tx,
  payment: PaymentRow,
): Promise<'order_already_paid' | 'order_total_changed' | null> {
  try {
    await tx.transaction((sp) => markOrderPaid(sp, payment.orderId, orderTotalOf(payment)))
    return null
  } catch (e) {
    if (e instanceof ApiError && (e.code === 'order_already_paid' || e.code === 'order_total_changed'))
      return e.code
    throw e
  }
}

/**
 * Records a provider event once: false when (provider, key) was already processed, so a replayed
 * callback changes nothing. Runs in the caller's transaction, so a refused callback is not recorded.
 */
async function claimEvent(tx: Tx, provider: string, eventKey: string): Promise<boolean> {
  const inserted = await tx
    .insert(paymentEvents)
    .values({ provider, eventKey })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id })
  return inserted.length === 1
}

/**
 * Marks the order paid inside `tx` (compare-and-set from created/waiting_for_payment), spends the
 * balance it uses and records the promo redemption. Throws 409 when the order is no longer payable.
 */
export async function markOrderPaid(tx: Tx, orderId: string, expectedTotalToPay?: number): Promise<void> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
  if (!order) throw refuse('order_not_found')
  if (!UNPAID_STATUSES.includes(order.status)) throw refuse('order_already_paid')
  // the payment was for another total (prices, promo or balance changed since it started)
  if (expectedTotalToPay !== undefined && expectedTotalToPay !== order.totalToPay)
    throw refuse('order_total_changed')
  await transitionOrder(tx, orderId, 'paid', { paidAt: new Date() })
  // a Standoff order paid after its listing claim lapsed claims a price again (issue 42)
  if (!(await keepListingOnPay(tx, orderId)))
    log.warn({ orderId }, 'a Standoff order was paid while every listing price of its pack was taken')
  if (order.userId !== null && order.balanceUsed > 0) {
    const spent = await postBalanceEntry(tx, {
      userId: order.userId,
      kind: 'spend',
      amount: order.balanceUsed,
      cause: order.id,
      orderId: order.id,
    })
    // the balance was spent elsewhere since the payment started: the total is no longer right
    if (spent === 'insufficient') throw refuse('order_total_changed')
  }
  await recordPromoRedemption(tx, order)
}

/**
 * A provider says the payment succeeded. Once per (provider, event key); the amount (and currency,
 * when given) must equal the payment's. The payment becomes succeeded, the order paid, and then the
 * order is fulfilled (outside the payment transaction: a failing supplier never undoes a payment).
 * Money taken that cannot pay the order (another amount or currency, an order no longer payable)
 * is refused and refunded in the same transaction (decision 037): outcome `refused`, the order as it was.
 */
export async function settlePaymentSucceeded(
  deps: ApiDeps,
  input: {
    paymentId: string
    provider: string
    eventKey: string
    amount: number
    currency?: string
    /** What the provider said about the card that paid (risk rules; stored as a keyed hash). */
    card?: CardFacts | null
  },
): Promise<{ outcome: SettleOutcome; orderId: string }> {
  const res = await deps.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, input.paymentId)).for('update')
    if (!payment) throw refuse('payment_not_found')
    if (!(await claimEvent(tx, input.provider, input.eventKey)) || isFinal(payment))
      return { outcome: 'duplicate' as const, orderId: payment.orderId }
    const taken = { amount: input.amount, currency: input.currency?.toUpperCase() ?? payment.currency }
    const refusal =
      taken.amount !== payment.amount || taken.currency !== payment.currency
        ? ('payment_amount_mismatch' as const)
        : await payOrderOrRefusal(tx, payment)
    if (refusal) {
      await refundRefusedPayment(tx, payment, taken, refusal)
      return { outcome: 'refused' as const, orderId: payment.orderId }
    }
    const card = {
      cardHash: cardHash(deps.config.risk.cardKey, input.card),
      cardCountry: issuerCountry(input.card),
    }
    await tx
      .update(payments)
      .set({ status: 'succeeded', ...card })
      .where(eq(payments.id, payment.id))
    // the risk rules, before anything is delivered: a tripped rule holds the order for review
    await holdIfRisky(tx, deps, { ...payment, ...card, status: 'succeeded' })
    // the fiscal receipt of the money taken, with the settlement (sent by a job; never undoes it)
    await queueSellReceipt(tx, deps.config, payment)
    return { outcome: 'applied' as const, orderId: payment.orderId }
  })
  if (res.outcome === 'applied') await fulfilOrder(deps, res.orderId)
  return res
}

/** A provider says the payment failed: the payment is failed, the order stays payable. Once per event. */
export async function settlePaymentFailed(
  deps: ApiDeps,
  input: { paymentId: string; provider: string; eventKey: string; reason?: string },
): Promise<{ outcome: SettleOutcome; orderId: string }> {
  return deps.db.transaction(async (tx) => {
    const [payment] = await tx.select().from(payments).where(eq(payments.id, input.paymentId)).for('update')
    if (!payment) throw refuse('payment_not_found')
    if (!(await claimEvent(tx, input.provider, input.eventKey)) || payment.status !== 'pending')
      return { outcome: 'duplicate' as const, orderId: payment.orderId }
    // the provider's reason code (shown to the buyer in Russian: decline-reasons.ts)
    const scenario = input.reason
      ? { ...(payment.scenario ?? {}), [DECLINE_REASON_KEY]: input.reason.slice(0, 64) }
      : payment.scenario
    await tx.update(payments).set({ status: 'failed', scenario }).where(eq(payments.id, payment.id))
    return { outcome: 'applied' as const, orderId: payment.orderId }
  })
}

/**
 * Pending payments of an order stop being confirmable (a new payment was started, or the total
 * changed with a promo code): only the latest payment, for the current amount, can pay the order.
 */
export async function supersedePendingPayments(db: Db | Tx, orderId: string): Promise<void> {
  // marked in the stored scenario so that the status answer does not report it as a declined payment
  await db
    .update(payments)
    .set({
      status: 'failed',
      scenario: sql`coalesce(${payments.scenario}, '{}'::jsonb) || '{"superseded": true}'::jsonb`,
    })
    .where(and(eq(payments.orderId, orderId), inArray(payments.status, ['pending'])))
}

/**
 * A payment's status as the API shows it (the contract's pending | succeeded | failed): a refused
 * payment did not pay the order, so it is `failed`; its refund is in `returned_payments`.
 */
export function publicPaymentStatus(status: PaymentRow['status']): 'pending' | 'succeeded' | 'failed' {
  return status === 'refused' ? 'failed' : status
}

/** A payment that failed because a newer one replaced it (not declined by the shopper or the provider). */
export function isSuperseded(p: Pick<PaymentRow, 'scenario'>): boolean {
  return (p.scenario as { superseded?: unknown } | null)?.superseded === true
}
