// The 'refund.provider' job: asks the provider that took an order's payment to give it back.
// Runs outside any transaction (a network call); retried with backoff on a refusal or an outage,
// under one stable request key, so a retry after a crash between the provider's answer and our
// commit is the same request to the provider, not a second refund. When the provider keeps
// refusing (attempts used up) or can no longer refund, the money goes to a signed-in buyer's
// balance instead, or the refund waits for a person ('manual').
import { and, eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { orders, payments, refunds } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { log } from '../../lib/log'
import { getProvider } from '../../providers'
import { postBalanceEntry } from '../balance/ledger'
import { recordOrderEvent } from '../orders/events'
import { queueRefundReceipt, refundReceiptDoc } from '../receipts/outbox'
import { balanceCauseOf, creditableToBalance, queueRefundMail, type RefundRow, refundCause } from './open'

/** The provider took the refund: done, and the buyer's mail. Once, whoever gets here first. */
export async function completeProviderRefund(
  deps: ApiDeps,
  refund: RefundRow,
  externalId: string | null,
  provider: string,
) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(refunds)
      .set({ status: 'done', externalId, completedAt: new Date(), lastError: null })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')))
      .returning()
    if (!row) return
    const [order] = await tx.select({ email: orders.email }).from(orders).where(eq(orders.id, row.orderId))
    await recordOrderEvent(tx, row.orderId, 'refund', { method: row.method, status: 'done', externalId })
    await queueRefundMail(tx, row, order?.email ?? null)
    // the return receipt of the money given back, with the refund's completion (sent by a job)
    await queueRefundReceipt(tx, deps.config, row, provider)
  })
}

/** The provider will not refund: to the buyer's balance when signed in, else to a person. */
export async function refundElsewhere(deps: ApiDeps, refund: RefundRow, error: string) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')))
      .for('update')
    if (!row) return
    const [order] = await tx
      .select({ userId: orders.userId, email: orders.email })
      .from(orders)
      .where(eq(orders.id, row.orderId))
    const rest = row.amount - row.toBalance
    if (order?.userId != null && rest > 0 && creditableToBalance(row)) {
      await postBalanceEntry(tx, {
        userId: order.userId,
        kind: 'refund',
        amount: rest,
        cause: balanceCauseOf(row),
        orderId: row.orderId,
      })
      const [done] = await tx
        .update(refunds)
        .set({
          method: 'balance',
          status: 'done',
          toBalance: row.amount,
          completedAt: new Date(),
          lastError: error,
        })
        .where(eq(refunds.id, row.id))
        .returning()
      await recordOrderEvent(tx, row.orderId, 'refund', { method: 'balance', status: 'done', error })
      await queueRefundMail(tx, done!, order.email)
    } else {
      await tx
        .update(refunds)
        .set({ method: 'manual', status: 'manual', lastError: error })
        .where(eq(refunds.id, row.id))
      await recordOrderEvent(tx, row.orderId, 'refund', { method: 'manual', status: 'manual', error })
    }
  })
}

/** The refund a job is about: by id (jobs queued since refused payments), else the order's refund. */
async function refundOfJob(deps: ApiDeps, payload: Record<string, unknown>): Promise<RefundRow | undefined> {
  const where =
    typeof payload.refundId === 'number'
      ? eq(refunds.id, payload.refundId)
      : and(eq(refunds.orderId, String(payload.orderId ?? '')), eq(refunds.kind, 'order'))
  const [refund] = await deps.db.select().from(refunds).where(where)
  return refund
}

/** The return receipt handed to the provider with the refund, when the sale's receipt went with the payment. */
async function receiptForRefund(deps: ApiDeps, refund: RefundRow) {
  const doc = await refundReceiptDoc(deps.db, refund)
  return doc?.transport === 'with_payment' ? doc : undefined
}

export const refundProviderJob: JobHandler = async (job, deps) => {
  const refund = await refundOfJob(deps, job.payload as Record<string, unknown>)
  if (refund?.status !== 'pending' || refund.method !== 'provider') return
  const orderId = refund.orderId
  const [payment] = refund.paymentId
    ? await deps.db.select().from(payments).where(eq(payments.id, refund.paymentId))
    : []
  const provider = payment ? getProvider(payment.provider) : null
  if (!payment || !provider?.refund || !provider.isAvailable(deps)) {
    await refundElsewhere(deps, refund, 'the provider cannot refund this payment')
    return
  }
  try {
    const r = await provider.refund(payment, deps, {
      key: `refund:${refundCause(refund)}`,
      // a refused payment gives back what the provider took, not what the payment asked for
      ...(refund.kind === 'payment' ? { amount: refund.amount, currency: refund.currency } : {}),
      receipt: await receiptForRefund(deps, refund),
    })
    await completeProviderRefund(deps, refund, r.externalId, payment.provider)
  } catch (e) {
    const error = (e as Error).message ?? String(e)
    log.warn({ job: job.id, order: orderId, error }, 'refund refused by the provider')
    if (job.attempts >= job.maxAttempts) {
      await refundElsewhere(deps, refund, error)
      return
    }
    await deps.db
      .update(refunds)
      .set({ lastError: error.slice(0, 2000) })
      .where(eq(refunds.id, refund.id))
    throw e
  }
}
