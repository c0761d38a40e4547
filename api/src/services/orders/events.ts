// The order timeline: one row per thing that happened to an order, written in the transaction of
// the change itself, so the timeline never shows what did not happen (or misses what did).
import { asc, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { orderEvents } from '../../db/schema'
import { followOrderEvent } from '../telegram/follow'

export type OrderEventKind =
  | 'created'
  | 'status'
  | 'payment_started'
  | 'provider_callback'
  | 'fulfilment'
  | 'mail_sent'
  | 'refund'
  | 'note'
  | 'admin_action'
  | 'attention'
  | 'payment_refused'
  | 'receipt'

export async function recordOrderEvent(
  db: Db | Tx,
  orderId: string,
  kind: OrderEventKind,
  data: Record<string, unknown> = {},
  actorUserId: number | null = null,
): Promise<void> {
  await db.insert(orderEvents).values({ orderId, kind, data, actorUserId })
  // the bot's news of it (buyers following the order, staff messages), with the event
  await followOrderEvent(db, orderId, kind, data)
}

export async function listOrderEvents(db: Db | Tx, orderId: string) {
  return db.select().from(orderEvents).where(eq(orderEvents.orderId, orderId)).orderBy(asc(orderEvents.id))
}
