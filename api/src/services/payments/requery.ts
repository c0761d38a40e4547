// Payments whose callback never came: the provider's status call is asked again in the background
// (issue 12, the order clock), and a final answer goes through the one settlement path, so a late
// callback and a re-query can never both settle (settle.ts locks the payment row and stops at
// `succeeded`).
import { eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Tx } from '../../db/client'
import { payments } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { backoffSeconds, enqueue } from '../../jobs/queue'
import { ApiError } from '../../lib/errors'
import { log } from '../../lib/log'
import { getProvider } from '../../providers'
import { ProviderError, type ProviderPaymentState } from '../../providers/types'
import { recordOrderEvent } from '../orders/events'
import { isSuperseded, type PaymentRow, settlePaymentFailed, settlePaymentSucceeded } from './settle'

export const REQUERY_JOB = 'payments.requery'
/** Asks after this many checks stop (the unpaid order then expires with ORDER_TTL_HOURS). */
export const REQUERY_MAX_CHECKS = 10
/** The first check waits for the callback a minute; then 80 s, 160 s … up to an hour apart. */
const FIRST_CHECK_SECONDS = 60
const nextCheckSeconds = (checks: number) => backoffSeconds(checks + 4)

/** Whether the provider of a payment can be asked for its state (Payselection, YooKassa; not the sandbox). */
export function canRequery(deps: ApiDeps, provider: string): boolean {
  const p = getProvider(provider)
  return Boolean(p?.fetchState && p.isAvailable(deps))
}

/** Queued in the transaction that stores the pending payment (outbox): one re-query per payment. */
export async function queuePaymentRequery(tx: Tx, deps: ApiDeps, payment: { id: string; provider: string }) {
  if (!canRequery(deps, payment.provider)) return
  await enqueue(tx, {
    kind: REQUERY_JOB,
    key: `requery:${payment.id}`,
    payload: { paymentId: payment.id, checks: 0 },
    runAt: new Date(Date.now() + FIRST_CHECK_SECONDS * 1000),
  })
}

/**
 * Asks the provider about a payment and applies a final answer through the settlement path (once
 * per provider event; a payment already succeeded is left alone). Returns the provider's answer, or
 * null when the payment is no longer pending. Throws ProviderError when the provider cannot answer,
 * and the settlement's ApiError when it fails (money taken that cannot pay the order is not an
 * error: the settlement refuses and refunds it, decision 037).
 */
export async function syncPaymentWithProvider(
  deps: ApiDeps,
  payment: PaymentRow,
): Promise<ProviderPaymentState | null> {
  if (payment.status === 'succeeded' || payment.status === 'refused') return null
  const provider = getProvider(payment.provider)
  if (!provider?.fetchState || !provider.isAvailable(deps)) return null
  return applyProviderState(deps, payment, await provider.fetchState(payment, deps))
}

/** A provider's answer about a payment, through the one settlement path (once per provider event). */
export async function applyProviderState(
  deps: ApiDeps,
  payment: PaymentRow,
  state: ProviderPaymentState,
): Promise<ProviderPaymentState> {
  if (state.state === 'succeeded')
    await settlePaymentSucceeded(deps, {
      paymentId: payment.id,
      provider: payment.provider,
      eventKey: state.eventKey,
      amount: state.amount,
      currency: state.currency || undefined,
      card: state.card,
    })
  else if (state.state === 'failed')
    await settlePaymentFailed(deps, {
      paymentId: payment.id,
      provider: payment.provider,
      eventKey: state.eventKey,
      reason: state.reason,
    })
  return state
}

/** The background re-query: final answers settle; pending ones are asked again with backoff, bounded. */
export const paymentRequeryJob: JobHandler = async (job, deps) => {
  const paymentId = String(job.payload.paymentId)
  const checks = Number(job.payload.checks ?? 0) + 1
  const [payment] = await deps.db.select().from(payments).where(eq(payments.id, paymentId))
  // settled meanwhile (a callback, a status poll): nothing to ask. A payment replaced by a newer one
  // is still asked: the buyer may have paid it on a page left open, and if its notification is lost
  // only this re-query finds the money (it then pays the order, or is refused and refunded).
  if (!payment || !(payment.status === 'pending' || (payment.status === 'failed' && isSuperseded(payment))))
    return
  try {
    const state = await syncPaymentWithProvider(deps, payment)
    if (state?.state !== 'pending') return
  } catch (e) {
    if (e instanceof ApiError) {
      // the settlement refused the provider's answer: asking again would give the same answer
      await recordOrderEvent(deps.db, payment.orderId, 'provider_callback', {
        source: 'requery',
        payment_id: payment.id,
        refused: e.code,
      })
      log.warn({ paymentId, code: e.code }, 'payment re-query answer refused by settlement')
      return
    }
    if (!(e instanceof ProviderError)) throw e
    log.warn({ paymentId, err: e.message }, 'payment re-query: provider did not answer')
  }
  if (checks >= REQUERY_MAX_CHECKS) {
    log.info({ paymentId, checks }, 'payment re-query gave up: still pending')
    return
  }
  return {
    again: new Date(Date.now() + nextCheckSeconds(checks) * 1000),
    payload: { ...job.payload, checks },
  }
}
