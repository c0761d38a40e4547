// Unpaid orders do not stay open forever (issue 12, the order clock): an order still `created` or
// `waiting_for_payment` ORDER_TTL_HOURS after its creation ends `failed` with a reason, through the
// state machine (which releases its stock holds and records the timeline). A recurring job sweeps
// them in batches; the move is a compare-and-set, so two workers sweeping at once fail each order
// once, and a payment that lands first wins.
import { and, asc, eq, gt, inArray, lt, notExists, or, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { orders, payments } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { ApiError, message } from '../../lib/errors'
import { log } from '../../lib/log'
import { ProviderError } from '../../providers/types'
import { canRequery, syncPaymentWithProvider } from '../payments/requery'
import { transitionOrder, UNPAID_STATUSES } from './state-machine'

export const EXPIRE_JOB = 'orders.expire'
const BATCH = 100
/** One run handles at most this many batches, then asks to run again at once (leases stay short). */
const BATCHES_PER_RUN = 10

/**
 * Orders past their time, oldest first, after `after` (keyset: a skipped order is not picked again
 * in the same run). An order whose payment started within the hold time is left alone — the shopper
 * is paying right now — but only for one hold time past ORDER_TTL_HOURS: payment starts repeated
 * to keep an order (and its codes) alive do not (issue 38, decision 046).
 */
async function expiredBatch(deps: ApiDeps, after: { created: Date; id: string } | null) {
  const { orderTtlHours, stockHoldMinutes } = deps.config.orderClock
  const paying = deps.db
    .select({ one: sql`1` })
    .from(payments)
    .where(
      and(
        eq(payments.orderId, orders.id),
        eq(payments.status, 'pending'),
        gt(payments.created, sql`now() - make_interval(mins => ${stockHoldMinutes})`),
      ),
    )
  return deps.db
    .select({ id: orders.id, created: orders.created })
    .from(orders)
    .where(
      and(
        inArray(orders.status, [...UNPAID_STATUSES]),
        lt(orders.created, sql`now() - make_interval(hours => ${orderTtlHours})`),
        or(
          notExists(paying),
          lt(
            orders.created,
            sql`now() - make_interval(hours => ${orderTtlHours}, mins => ${stockHoldMinutes})`,
          ),
        ),
        after
          ? or(
              gt(orders.created, after.created),
              and(eq(orders.created, after.created), gt(orders.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(orders.created), asc(orders.id))
    .limit(BATCH)
}

/**
 * A pending payment whose provider has a status call is asked once more before the order ends: a
 * payment that went through without its callback pays the order instead. False when the provider
 * could not answer (the order waits for the next sweep rather than fail under a payment in flight).
 */
async function lastLook(deps: ApiDeps, orderId: string): Promise<boolean> {
  const pending = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, 'pending')))
  for (const p of pending) {
    if (!canRequery(deps, p.provider)) continue
    try {
      await syncPaymentWithProvider(deps, p)
    } catch (e) {
      if (e instanceof ProviderError) return false
      if (!(e instanceof ApiError)) throw e
    }
  }
  return true
}

/** Fails one expired order; false when it was not (paid or moved meanwhile, provider silent). */
export async function expireOrder(deps: ApiDeps, orderId: string): Promise<boolean> {
  if (!(await lastLook(deps, orderId))) return false
  try {
    await transitionOrder(deps.db, orderId, 'failed', { rejectReason: message('order_expired') })
    return true
  } catch (e) {
    // paid, or failed by someone else, since it was selected: the other move stands
    if (e instanceof ApiError && e.status === 409) return false
    throw e
  }
}

export const expireOrdersJob: JobHandler = async (_job, deps) => {
  let after: { created: Date; id: string } | null = null
  let expired = 0
  for (let i = 0; i < BATCHES_PER_RUN; i++) {
    const batch = await expiredBatch(deps, after)
    for (const o of batch) if (await expireOrder(deps, o.id)) expired++
    if (batch.length < BATCH) {
      if (expired) log.info({ orders: expired }, 'expired unpaid orders')
      return
    }
    after = batch[batch.length - 1]!
  }
  if (!expired) return // a full run of orders whose provider is silent: the next period tries again
  log.info({ orders: expired }, 'expired unpaid orders (more to do)')
  return { again: new Date() }
}
