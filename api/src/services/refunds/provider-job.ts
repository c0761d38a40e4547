// The 'refund.provider' job: asks the provider that took an order's payment to give it back, and
// follows the provider's refund until it is final (decision 110). Runs outside any transaction (a
// network call), under one stable request key, so a retry after a crash between the provider's
// answer and our commit is the same request to the provider, not a second refund.
//   - `succeeded`: done, the buyer's mail;
//   - `pending`: the provider holds the refund and may still pay it. It stays pending in the shop
//     and is asked again (GET) with backoff, up to an hour apart, for as long as it takes, unless
//     the provider's notification settles it first;
//   - outcome unknown (outage, timeout, 5xx): the same request again, with backoff, for ever (the
//     provider alert tells staff once the attempts pass a few);
//   - `canceled`, or a refusal proving nothing was created (`ProviderRejected`): the refund waits
//     for a person (`manual`), who chooses where the money goes (the back-office refund action).
// Nothing here moves money to the balance: only a person does, once the provider cannot pay.
import { and, eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { orders, payments, refunds } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { log } from '../../lib/log'
import { backoffSeconds } from '../../jobs/queue'
import { getProvider } from '../../providers'
import { type ProviderRefundResult, ProviderRejected } from '../../providers/types'
import { recordOrderEvent } from '../orders/events'
import { queueRefundReceipt, refundReceiptDoc } from '../receipts/outbox'
import { queueRefundMail, type RefundRow, refundCause } from './open'
import { nextRefundStep } from './routing'

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

/**
 * The provider will not pay this refund (it canceled it, refused the request, or cannot be asked):
 * it waits for a person, who chooses the route (decision 110). Only a pending refund moves.
 */
export async function refundNeedsPerson(
  deps: ApiDeps,
  refund: RefundRow,
  error: string,
  externalId: string | null = refund.externalId,
) {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(refunds)
      .set({ method: 'manual', status: 'manual', lastError: error.slice(0, 2000), externalId })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')))
      .returning()
    if (!row) return
    await recordOrderEvent(tx, row.orderId, 'refund', {
      method: 'manual',
      status: 'manual',
      error,
      ...(externalId ? { externalId } : {}),
    })
  })
}

/** The provider holds the refund (`pending`): its id kept, the shop keeps waiting. */
async function keepWaiting(deps: ApiDeps, refund: RefundRow, externalId: string | null) {
  if (!externalId || refund.externalId === externalId) return
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(refunds)
      .set({ externalId, lastError: null })
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')))
      .returning()
    if (row)
      await recordOrderEvent(tx, row.orderId, 'refund', {
        method: 'provider',
        status: 'pending',
        provider_state: 'pending',
        externalId,
      })
  })
}

/** Seconds until a pending provider refund is asked again: 80 s, 160 s … then hourly, for ever. */
export const nextRefundCheckSeconds = (checks: number) => backoffSeconds(Math.max(1, checks) + 4)

/** A refund still in the provider's hands is asked about again later (not a failure). */
function askAgain(payload: Record<string, unknown>) {
  const checks = Number(payload.checks ?? 0) + 1
  return {
    again: new Date(Date.now() + nextRefundCheckSeconds(checks) * 1000),
    payload: { ...payload, checks },
  }
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
  const payload = job.payload as Record<string, unknown>
  const refund = await refundOfJob(deps, payload)
  if (refund?.status !== 'pending' || refund.method !== 'provider') return
  const [payment] = refund.paymentId
    ? await deps.db.select().from(payments).where(eq(payments.id, refund.paymentId))
    : []
  const provider = payment ? getProvider(payment.provider) : null
  const held = refund.externalId !== null
  const attemptsLeft = job.attempts < job.maxAttempts
  if (!payment || !provider?.refund || !provider.isAvailable(deps)) {
    const step = nextRefundStep({ unavailable: true }, held, attemptsLeft)
    if (step === 'person') await refundNeedsPerson(deps, refund, 'the provider cannot refund this payment')
    else return askAgain(payload)
    return
  }
  let answer: ProviderRefundResult
  try {
    // a refund the provider already holds is asked about, not asked for again
    answer =
      held && provider.refundState
        ? await provider.refundState(refund.externalId!, deps)
        : await provider.refund(payment, deps, {
            key: `refund:${refundCause(refund)}`,
            // a refused payment gives back what the provider took, not what the payment asked for
            ...(refund.kind === 'payment' ? { amount: refund.amount, currency: refund.currency } : {}),
            receipt: await receiptForRefund(deps, refund),
          })
  } catch (e) {
    const error = (e as Error).message ?? String(e)
    log.warn({ job: job.id, order: refund.orderId, error }, 'refund: the provider did not take it')
    const step = nextRefundStep(
      { error: e instanceof ProviderRejected ? 'rejected' : 'unknown' },
      held,
      attemptsLeft,
    )
    if (step === 'person') {
      await refundNeedsPerson(deps, refund, error)
      return
    }
    await deps.db
      .update(refunds)
      .set({ lastError: error.slice(0, 2000) })
      .where(eq(refunds.id, refund.id))
    // outcome unknown: the same request again, never another route; past the attempts, hourly
    if (step === 'retry') throw e
    return held ? askAgain(payload) : { again: new Date(Date.now() + 3600_000) }
  }
  const step = nextRefundStep(answer, held, attemptsLeft)
  if (step === 'complete')
    await completeProviderRefund(deps, refund, answer.externalId ?? refund.externalId, payment.provider)
  else if (step === 'person')
    await refundNeedsPerson(deps, refund, `${payment.provider} canceled the refund`, answer.externalId)
  else {
    await keepWaiting(deps, refund, answer.externalId)
    return askAgain(payload)
  }
}
