// One thing a person does to one order from the back-office (refund, cancel, the mail again): the
// order read under lock, the change, then its `admin_action` on the order's timeline and its
// `order.<action>` entry in the audit log, all in one transaction, so the records never show what
// did not happen. The change decides what the two records carry, or that nothing happened.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { orders } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { recordOrderEvent } from '../orders/events'
import { audit } from './audit'
import type { StaffMember } from './roles'

type Order = typeof orders.$inferSelect

export interface StaffOrderChange<T> {
  /** What the timeline's event carries besides the action and who did it. */
  event?: Record<string, unknown>
  /** The audit entry's before and after. */
  before?: Record<string, unknown>
  after?: Record<string, unknown>
  /** What the caller gets back. */
  result: T
}

/**
 * Runs `change` on the order (locked `FOR UPDATE` unless `lock` is false; 404 `order_not_found`
 * when there is none) and records it. `change` answers `{ unchanged }` when there was nothing to
 * do (a repeated request): then nothing is recorded.
 */
export async function changeOrderAsStaff<T>(
  db: Db,
  staff: StaffMember,
  orderId: string,
  action: string,
  change: (tx: Tx, order: Order) => Promise<StaffOrderChange<T> | { unchanged: T }>,
  { lock = true }: { lock?: boolean } = {},
): Promise<T> {
  const id = orderId.toLowerCase()
  return db.transaction(async (tx) => {
    const read = tx.select().from(orders).where(eq(orders.id, id))
    const [order] = lock ? await read.for('update') : await read
    if (!order) throw refuse('order_not_found')
    const done = await change(tx, order)
    if ('unchanged' in done) return done.unchanged
    await recordOrderEvent(tx, id, 'admin_action', { action, ...done.event, by: staff.email }, staff.userId)
    await audit(tx, staff, {
      action: `order.${action}`,
      entity: 'order',
      entityId: id,
      before: done.before,
      after: done.after,
    })
    return done.result
  })
}
