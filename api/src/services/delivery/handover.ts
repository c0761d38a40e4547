// A paid order handed to a person: the buyer's «оплачен — ожидает выдачи» mail, and two clocks in
// the job queue, written in the transaction that moves the order to `sent` (outbox): the staff's
// overdue notice at the game's promised time, and the automatic refund after
// DELIVERY_REFUND_HOURS. Each keyed by the order, so each happens once whatever restarts.
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import type { ApiConfig } from '../../env'
import { games, orders, staffRoles, users } from '../../db/schema'
import { enqueue } from '../../jobs/queue'
import type { JobHandler } from '../../jobs/worker'
import { message } from '../../lib/errors'
import { queueMail } from '../mail/outbox'
import { recordOrderEvent } from '../orders/events'
import { transitionOrder } from '../orders/state-machine'

export const DELIVERY_OVERDUE_JOB = 'delivery.overdue'
export const DELIVERY_REFUND_JOB = 'delivery.auto_refund'

export async function handToPerson(tx: Tx, orderId: string, config: Pick<ApiConfig, 'deliveryRefundHours'>) {
  const [o] = await tx
    .select({ email: orders.email, minutes: games.deliveryMinutes })
    .from(orders)
    .leftJoin(games, eq(games.id, orders.gameId))
    .where(eq(orders.id, orderId))
  const minutes = o?.minutes ?? 30
  await recordOrderEvent(tx, orderId, 'fulfilment', { manual: true, promised_minutes: minutes })
  if (o?.email)
    await queueMail(tx, {
      template: 'order_paid',
      to: o.email,
      data: { orderId },
      key: `order_paid:${orderId}`,
    })
  const now = Date.now()
  await enqueue(tx, {
    kind: DELIVERY_OVERDUE_JOB,
    key: `delivery_overdue:${orderId}`,
    payload: { orderId },
    runAt: new Date(now + minutes * 60_000),
  })
  await enqueue(tx, {
    kind: DELIVERY_REFUND_JOB,
    key: `delivery_refund:${orderId}`,
    payload: { orderId },
    runAt: new Date(now + config.deliveryRefundHours * 3_600_000),
  })
}

/** Every staff member's address: owners and support with a role row, and ADMIN_EMAILS. */
export async function staffEmails(db: Db | Tx, adminEmails: readonly string[]): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(staffRoles)
    .innerJoin(users, eq(users.id, staffRoles.userId))
    .where(and(isNotNull(users.email), isNull(users.deletedAt)))
  const all = [...rows.map((r) => (r.email ?? '').toLowerCase()), ...adminEmails]
  return [...new Set(all.filter(Boolean))].sort()
}

const isWaiting = (o: { status: string; awaitingSince: Date | null } | undefined) =>
  o?.status === 'sent' && o.awaitingSince !== null

/** At the promised time: one mail to every staff member when the order still waits. */
export const deliveryOverdueJob: JobHandler = async (job, deps) => {
  const orderId = String(job.payload.orderId)
  await deps.db.transaction(async (tx) => {
    const [o] = await tx
      .select({ status: orders.status, awaitingSince: orders.awaitingSince })
      .from(orders)
      .where(eq(orders.id, orderId))
    if (!isWaiting(o)) return
    for (const to of await staffEmails(tx, deps.config.adminEmails))
      await queueMail(tx, {
        template: 'delivery_overdue',
        to,
        data: { orderId },
        key: `delivery_overdue:${orderId}:${to}`,
      })
    await recordOrderEvent(tx, orderId, 'attention', { reason: message('delivery_overdue_event') })
  })
  deps.jobs?.wake()
}

/** After DELIVERY_REFUND_HOURS: an order nobody delivered fails and is refunded (the failed mail says why). */
export const deliveryRefundJob: JobHandler = async (job, deps) => {
  const orderId = String(job.payload.orderId)
  await deps.db.transaction(async (tx) => {
    const [o] = await tx
      .select({ status: orders.status, awaitingSince: orders.awaitingSince })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update')
    if (!isWaiting(o)) return
    // compare-and-set from `sent`: a person who delivers meanwhile wins, and this runs once
    await transitionOrder(tx, orderId, 'failed', {
      rejectReason: message('delivery_auto_refund_reason', { hours: deps.config.deliveryRefundHours }),
      awaitingSince: null,
      takenBy: null,
      takenAt: null,
    })
  })
  deps.jobs?.wake()
}
