import { and, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type OrderStatus, orders } from '../../db/schema'
import { ApiError, message } from '../../lib/errors'

/**
 * The order lifecycle: created → waiting_for_payment → paid → sending → sent → done, and failed
 * (with a reject_reason) from any state before done. Nothing else is allowed.
 */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  created: ['waiting_for_payment', 'paid', 'failed'],
  waiting_for_payment: ['paid', 'failed'],
  paid: ['sending', 'failed'],
  sending: ['sent', 'failed'],
  sent: ['done', 'failed'],
  done: [],
  failed: [],
}

/** While an order is in these states its contents may change and it may be paid. */
export const UNPAID_STATUSES: readonly OrderStatus[] = ['created', 'waiting_for_payment']

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to)
}

export function isPaymentActive(status: OrderStatus): boolean {
  return UNPAID_STATUSES.includes(status)
}

/**
 * Moves an order to `to` when its current state allows it, atomically (compare-and-set on the
 * status, so two workers can never both make the same move). Throws a 409 otherwise.
 */
export async function transitionOrder(
  db: Db | Tx,
  orderId: string,
  to: OrderStatus,
  extra: Partial<typeof orders.$inferInsert> = {},
): Promise<OrderStatus> {
  const allowedFrom = (Object.keys(ORDER_TRANSITIONS) as OrderStatus[]).filter((s) => canTransition(s, to))
  const updated = await db
    .update(orders)
    .set({ ...extra, status: to, updated: new Date() })
    .where(and(eq(orders.id, orderId), inArray(orders.status, allowedFrom)))
    .returning({ id: orders.id })
  if (updated.length === 1) return to
  const [row] = await db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId))
  if (!row) throw new ApiError(404, 'not_found', message('not_found'))
  throw new ApiError(409, 'illegal_transition', message('illegal_transition', { from: row.status, to }))
}
