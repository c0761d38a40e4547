// Review instead of delivery (issue 34): a paid order that trips a risk rule is held — paid, its
// codes reserved for it, nothing delivered, shown, mailed or sent to a supplier — until staff
// approve it (delivery goes on as usual) or reject it (failed: refunded by the shop's rules, a
// neutral mail). Each decision is audited and on the order's timeline; repeats change nothing.
import { eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db, Tx } from '../../db/client'
import { giftCodes, orderReviews, orders, type payments, voucherCodes } from '../../db/schema'
import { enqueue } from '../../jobs/queue'
import type { JobHandler } from '../../jobs/worker'
import { message } from '../../lib/errors'
import { refuse } from '../../lib/domain-error'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { staffEmails } from '../delivery/handover'
import { queueMail } from '../mail/outbox'
import { recordOrderEvent } from '../orders/events'
import { transitionOrder } from '../orders/state-machine'
import { isBlocked } from './gate'
import { isHeldForReview } from './held'
import { trippedRules } from './rules'
import { loadRiskSettings } from './settings'

/** The review reason of a buyer on the owner's block lists (not a switchable rule). */
const BLOCKED_RULE = 'block_list'

export const REVIEW_OVERDUE_JOB = 'review.overdue'
/** Staff are mailed about an order still held this long after it was held. */
export const REVIEW_OVERDUE_MINUTES = 30
/** The codes of a held order stay reserved this long (the hold of an unpaid order is 30 minutes). */
const HELD_CODES_DAYS = 30

type OrderRow = typeof orders.$inferSelect
type PaymentRow = typeof payments.$inferSelect

/**
 * Checks the rules for an order just paid by `payment` (in the settlement's transaction) and holds
 * it when one trips: the review row, its codes reserved, the buyer's mail, the staff's clock.
 * Returns the rules tripped (empty: deliver as usual).
 */
export async function holdIfRisky(tx: Tx, deps: ApiDeps, payment: PaymentRow): Promise<string[]> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, payment.orderId))
  if (!order) return []
  const rules: string[] = await trippedRules(tx, await loadRiskSettings(tx, deps.config), order, payment)
  // a buyer blocked after starting to pay (or whose card only now shows) is held, never delivered
  const who = { email: order.email, address: payment.clientAddress, cardHash: payment.cardHash }
  if (await isBlocked(tx, who, deps.config.clientIpv6Prefix)) rules.push(BLOCKED_RULE)
  if (rules.length === 0) return []
  const inserted = await tx
    .insert(orderReviews)
    .values({ orderId: order.id, rules })
    .onConflictDoNothing()
    .returning({ id: orderReviews.orderId })
  if (inserted.length === 0) return rules
  const until = new Date(Date.now() + HELD_CODES_DAYS * 86_400_000)
  for (const t of [voucherCodes, giftCodes])
    await tx.update(t).set({ heldUntil: until }).where(eq(t.heldBy, order.id))
  await recordOrderEvent(tx, order.id, 'attention', { reason: message('review_held_event'), rules })
  if (order.email)
    await queueMail(tx, {
      template: 'order_held',
      to: order.email,
      data: { orderId: order.id },
      key: `order_held:${order.id}`,
    })
  await enqueue(tx, {
    kind: REVIEW_OVERDUE_JOB,
    key: `review_overdue:${order.id}`,
    payload: { orderId: order.id },
    runAt: new Date(Date.now() + REVIEW_OVERDUE_MINUTES * 60_000),
  })
  return rules
}

export interface ReviewOutcome {
  id: string
  status: string
  changed: boolean
  detail: string
}

async function lockReview(tx: Tx, id: string) {
  const [o] = await tx.select().from(orders).where(eq(orders.id, id)).for('update')
  if (!o) throw refuse('order_not_found')
  const [r] = await tx.select().from(orderReviews).where(eq(orderReviews.orderId, id)).for('update')
  if (!r) throw refuse('review_not_held')
  return { o, r }
}

async function decide(
  tx: Tx,
  staff: StaffMember,
  o: OrderRow,
  status: 'approved' | 'rejected',
  reason: string | null,
) {
  await tx
    .update(orderReviews)
    .set({ status, decidedAt: new Date(), decidedBy: staff.userId, reason })
    .where(eq(orderReviews.orderId, o.id))
  await recordOrderEvent(
    tx,
    o.id,
    'admin_action',
    {
      action: `review.${status === 'approved' ? 'approve' : 'reject'}`,
      by: staff.email,
      ...(reason ? { reason } : {}),
    },
    staff.userId,
  )
  await audit(tx, staff, {
    action: `order.review_${status === 'approved' ? 'approve' : 'reject'}`,
    entity: 'order',
    entityId: o.id,
    before: { status: o.status, review: 'held' },
    after: { review: status, ...(reason ? { reason } : {}) },
  })
}

/** Approve: the review ends and delivery goes on (the caller runs fulfilOrder afterwards). */
export async function approveReview(db: Db, staff: StaffMember, id: string): Promise<ReviewOutcome> {
  return db.transaction(async (tx) => {
    const { o, r } = await lockReview(tx, id)
    if (r.status === 'approved')
      return { id, status: o.status, changed: false, detail: message('review_approve_repeat') }
    if (r.status !== 'held' || o.status !== 'paid') throw refuse('review_not_held')
    await decide(tx, staff, o, 'approved', null)
    return { id, status: o.status, changed: true, detail: message('review_approve_done') }
  })
}

/** Reject: failed with a neutral reason for the buyer (the staff's stays internal), refunded once. */
export async function rejectReview(
  db: Db,
  staff: StaffMember,
  id: string,
  reason: string,
): Promise<ReviewOutcome> {
  return db.transaction(async (tx) => {
    const { o, r } = await lockReview(tx, id)
    if (r.status === 'rejected')
      return { id, status: o.status, changed: false, detail: message('review_reject_repeat') }
    if (r.status !== 'held' || o.status !== 'paid') throw refuse('review_not_held')
    await decide(tx, staff, o, 'rejected', reason)
    // failed after paying: the refund by the shop's rules, the codes released, the failed mail
    await transitionOrder(tx, id, 'failed', { rejectReason: message('review_reject_reason_neutral') })
    return { id, status: 'failed', changed: true, detail: message('review_reject_done') }
  })
}

/** 30 minutes after the hold: one mail to every staff member when the order is still held. */
export const reviewOverdueJob: JobHandler = async (job, deps) => {
  const orderId = String(job.payload.orderId)
  await deps.db.transaction(async (tx) => {
    if (!(await isHeldForReview(tx, orderId))) return
    for (const to of await staffEmails(tx, deps.config.adminEmails))
      await queueMail(tx, {
        template: 'review_overdue',
        to,
        data: { orderId },
        key: `review_overdue:${orderId}:${to}`,
      })
    await tx.update(orderReviews).set({ staffMailedAt: new Date() }).where(eq(orderReviews.orderId, orderId))
  })
  deps.jobs?.wake()
}
