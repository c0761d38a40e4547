// What support and the owner do to one order from its back-office page, besides refunding it
// (refunds/by-staff.ts) and delivering it again (fulfilment/retry.ts): a note on its timeline, the
// order's mail sent again, an unpaid order cancelled. Each is on the timeline and in the audit log,
// in the change's own transaction.
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { orderEvents, orders } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { message } from '../../lib/errors'
import { queueMail } from '../mail/outbox'
import { recordOrderEvent } from '../orders/events'
import { transitionOrder, UNPAID_STATUSES } from '../orders/state-machine'
import { audit } from './audit'
import type { StaffMember } from './roles'

/** A staff note on the order's timeline. */
export async function addOrderNote(db: Db, staff: StaffMember, orderId: string, text: string): Promise<void> {
  const id = orderId.toLowerCase()
  await db.transaction(async (tx) => {
    await recordOrderEvent(tx, id, 'note', { text, by: staff.email }, staff.userId)
    await audit(tx, staff, { action: 'order.note', entity: 'order', entityId: id, after: { text } })
  })
}

/**
 * Queues the order's mail (done or failed) to the buyer again; the same request id is carried out
 * once. Returns whether a mail was queued.
 */
export async function resendOrderMail(
  db: Db,
  staff: StaffMember,
  orderId: string,
  requestId: string | undefined,
): Promise<boolean> {
  const id = orderId.toLowerCase()
  return db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, id))
    if (!order) throw refuse('order_not_found')
    if (!order.email) throw refuse('admin_order_no_email')
    const template =
      order.status === 'done' ? 'order_done' : order.status === 'failed' ? 'order_failed' : null
    if (!template) throw refuse('admin_mail_nothing_to_resend')
    const key = `${template}:${id}:resend:${requestId ?? crypto.randomUUID()}`
    const queued = await queueMail(tx, { template, to: order.email, data: { orderId: id }, key })
    if (!queued) return false // this request was carried out already
    await recordOrderEvent(
      tx,
      id,
      'admin_action',
      { action: 'resend_mail', template, by: staff.email },
      staff.userId,
    )
    await audit(tx, staff, {
      action: 'order.resend_mail',
      entity: 'order',
      entityId: id,
      after: { template },
    })
    return true
  })
}

/** The timeline entry a staff cancel writes: the stable mark of an order cancelled by the shop. */
const CANCEL_ACTION = 'cancel'

/**
 * Cancels an unpaid order: it fails with the shop's reason, payments in flight are then refused.
 * An order the shop cancelled already (its timeline has the cancel) is answered as done.
 */
export async function cancelOrderByStaff(db: Db, staff: StaffMember, orderId: string): Promise<void> {
  const id = orderId.toLowerCase()
  await db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, id)).for('update')
    if (!order) throw refuse('order_not_found')
    if (order.status === 'failed') {
      const [cancelled] = await tx
        .select({ id: orderEvents.id })
        .from(orderEvents)
        .where(
          and(
            eq(orderEvents.orderId, id),
            eq(orderEvents.kind, 'admin_action'),
            sql`${orderEvents.data}->>'action' = ${CANCEL_ACTION}`,
          ),
        )
        .limit(1)
      if (cancelled) return
    }
    if (!UNPAID_STATUSES.includes(order.status)) throw refuse('admin_order_not_cancellable')
    await transitionOrder(tx, id, 'failed', { rejectReason: message('admin_order_cancelled_reason') })
    await recordOrderEvent(tx, id, 'admin_action', { action: CANCEL_ACTION, by: staff.email }, staff.userId)
    await audit(tx, staff, {
      action: 'order.cancel',
      entity: 'order',
      entityId: id,
      before: { status: order.status },
      after: { status: 'failed' },
    })
  })
}
