// «Повторить выдачу»: the back-office delivers a paid order again when its delivery failed (stock
// that came back, a supplier that refused once) or never ran (a process that died between the
// payment and the delivery). Never twice: the order moves back to `paid` by compare-and-set, the
// delivery locks the order row and runs only from `paid`, and codes are claimed atomically.
import { and, eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db, Tx } from '../../db/client'
import { type OrderStatus, orderEvents, orders, refunds } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { recordOrderEvent } from '../orders/events'
import { transitionOrder } from '../orders/state-machine'
import { fulfilOrder } from '.'

type OrderRow = typeof orders.$inferSelect

/**
 * The one rule for the action: the order was paid (paid_at set), is not delivered (`paid`, or
 * `failed` after paying) and has no refund (opened, done or waiting for a person: the money goes
 * back, so nothing is delivered — decision 033).
 */
export async function canRetryFulfilment(db: Db | Tx, order: OrderRow): Promise<boolean> {
  if (order.paidAt === null || (order.status !== 'paid' && order.status !== 'failed')) return false
  const refunded = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.orderId, order.id), eq(refunds.kind, 'order')))
    .limit(1)
  return refunded.length === 0
}

/**
 * Moves the order back to `paid` (audited, on its timeline) and delivers it. A request id already
 * carried out for this order is answered as done (a double submit). Returns the status afterwards.
 */
export async function retryFulfilment(
  deps: ApiDeps,
  staff: StaffMember,
  orderId: string,
  requestId?: string,
): Promise<OrderStatus> {
  const go = await deps.db.transaction(async (tx) => {
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
    if (!order) throw refuse('order_not_found')
    if (!(await canRetryFulfilment(tx, order))) {
      if (requestId && (await alreadyDone(tx, orderId, requestId))) return false
      throw refuse('admin_order_not_retryable')
    }
    if (order.status === 'failed') await transitionOrder(tx, orderId, 'paid', { rejectReason: null })
    await recordOrderEvent(
      tx,
      orderId,
      'admin_action',
      { action: 'retry_fulfilment', by: staff.email, ...(requestId ? { request_id: requestId } : {}) },
      staff.userId,
    )
    await audit(tx, staff, {
      action: 'order.retry_fulfilment',
      entity: 'order',
      entityId: orderId,
      before: { status: order.status, reject_reason: order.rejectReason },
      after: { status: 'paid' },
    })
    return true
  })
  if (go) return fulfilOrder(deps, orderId)
  const [o] = await deps.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId))
  return o?.status ?? 'failed'
}

async function alreadyDone(tx: Tx, orderId: string, requestId: string): Promise<boolean> {
  const events = await tx
    .select({ data: orderEvents.data })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'admin_action')))
  return events.some((e) => e.data.action === 'retry_fulfilment' && e.data.request_id === requestId)
}
