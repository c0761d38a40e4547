// What support and the owner do to one order from its back-office page, besides refunding it
// (refunds/by-staff.ts) and delivering it again (fulfilment/retry.ts): a note on its timeline, the
// order's mail sent again, an unpaid order cancelled. Each is on the timeline and in the audit log,
// in the change's own transaction (staff-order-action.ts).
import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { orderEvents } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { message } from '../../lib/errors'
import { queueMail } from '../mail/outbox'
import { recordOrderEvent } from '../orders/events'
import { transitionOrder, UNPAID_STATUSES } from '../orders/state-machine'
import { audit } from './audit'
import type { StaffMember } from './roles'
import { changeOrderAsStaff } from './staff-order-action'

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
  // no lock: the mail changes nothing of the order, and a delivery in progress holds the order's
  // lock for the supplier's whole call, which the click would wait for
  return changeOrderAsStaff<boolean>(
    db,
    staff,
    orderId,
    'resend_mail',
    async (tx, order) => {
      if (!order.email) throw refuse('admin_order_no_email')
      const template =
        order.status === 'done' ? 'order_done' : order.status === 'failed' ? 'order_failed' : null
      if (!template) throw refuse('admin_mail_nothing_to_resend')
      const key = `${template}:${order.id}:resend:${requestId ?? crypto.randomUUID()}`
      const queued = await queueMail(tx, { template, to: order.email, data: { orderId: order.id }, key })
      if (!queued) return { unchanged: false } // this request was carried out already
      return { event: { template }, after: { template }, result: true }
    },
    { lock: false },
  )
}

/** The timeline entry a staff cancel writes: the stable mark of an order cancelled by the shop. */
const CANCEL_ACTION = 'cancel'

/**
 * Cancels an unpaid order: it fails with the shop's reason, payments in flight are then refused.
 * An order the shop cancelled already (its timeline has the cancel) is answered as done.
 */
export async function cancelOrderByStaff(db: Db, staff: StaffMember, orderId: string): Promise<void> {
  await changeOrderAsStaff(db, staff, orderId, CANCEL_ACTION, async (tx, order) => {
    if (order.status === 'failed') {
      const [cancelled] = await tx
        .select({ id: orderEvents.id })
        .from(orderEvents)
        .where(
          and(
            eq(orderEvents.orderId, order.id),
            eq(orderEvents.kind, 'admin_action'),
            sql`${orderEvents.data}->>'action' = ${CANCEL_ACTION}`,
          ),
        )
        .limit(1)
      if (cancelled) return { unchanged: undefined }
    }
    if (!UNPAID_STATUSES.includes(order.status)) throw refuse('admin_order_not_cancellable')
    await transitionOrder(tx, order.id, 'failed', { rejectReason: message('admin_order_cancelled_reason') })
    return { before: { status: order.status }, after: { status: 'failed' }, result: undefined }
  })
}
