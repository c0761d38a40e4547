// The mails an order's status change causes, queued by the state machine in the same transaction
// as the change (services/orders/state-machine.ts): whatever path makes an order done or failed,
// its mail is committed with it, or rolled back with it.
import type { Tx } from '../../db/client'
import type { OrderStatus } from '../../db/schema'
import { queueMail } from './outbox'

export interface StatusChange {
  id: string
  to: OrderStatus
  email: string | null
  /** Set when the order was paid: an unpaid order that ends gets no mail (nothing was bought). */
  paidAt: Date | null
}

export async function queueOrderStatusMail(tx: Tx, order: StatusChange): Promise<void> {
  if (!order.email) return
  if (order.to === 'done')
    await queueMail(tx, {
      template: 'order_done',
      to: order.email,
      data: { orderId: order.id },
      key: `order_done:${order.id}`,
    })
  else if (order.to === 'failed' && order.paidAt !== null)
    await queueMail(tx, {
      template: 'order_failed',
      to: order.email,
      data: { orderId: order.id },
      key: `order_failed:${order.id}`,
    })
}

/** Statuses whose arrival sends a mail. */
export const MAILED_STATUSES: readonly OrderStatus[] = ['done', 'failed']
