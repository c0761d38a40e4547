// A paid order handed to a person: the buyer's «оплачен — ожидает выдачи» mail, and three clocks in
// the job queue, written in the transaction that moves the order to `sent` (outbox): the staff's
// overdue notice at the game's promised time, the staff's warning before the automatic refund
// (DELIVERY_REFUND_WARN_HOURS before it), and the refund deadline (the game's «Автовозврат через N ч»,
// else DELIVERY_REFUND_HOURS; none when the game turned it off). At the deadline an order nobody took
// fails and is refunded; one somebody took is never refunded by itself: it goes to the owner
// (decision 125). Each job keyed by the order and re-checked under a row lock, so each happens once
// whatever restarts or however many instances run.
import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import type { ApiConfig } from '../../env'
import { games, orders, staffRoles, users } from '../../db/schema'
import { enqueue } from '../../jobs/queue'
import type { JobHandler } from '../../jobs/worker'
import { message } from '../../lib/errors'
import { queueMail } from '../mail/outbox'
import { recordOrderEvent } from '../orders/events'
import { transitionOrder } from '../orders/state-machine'
import { hoursLeft } from './waiting'

export const DELIVERY_OVERDUE_JOB = 'delivery.overdue'
export const DELIVERY_REFUND_JOB = 'delivery.auto_refund'
export const DELIVERY_REFUND_WARNING_JOB = 'delivery.refund_warning'

type RefundConfig = Pick<ApiConfig, 'deliveryRefundHours' | 'deliveryRefundWarnHours'>

/** Hours after which a game's order nobody took is refunded: the game's own, else the shop's; null: never. */
export function autoRefundHours(gameHours: number | null | undefined, shopHours: number): number | null {
  if (gameHours === 0) return null
  return gameHours ?? shopHours
}

/** When the staff are warned before a refund due at `due`: `warnHours` earlier, never before `from`. */
export function warningTime(from: Date, due: Date, warnHours: number): Date {
  return new Date(Math.max(from.getTime(), due.getTime() - warnHours * 3_600_000))
}

/** The e-mail domain of an order whose refund deadline Playwright's server (E2E=1) brings near, see below. */
export const E2E_REFUND_SOON_DOMAIN = '@refund-soon.test'
/** How long after the hand-over such an order's refund deadline falls. */
export const E2E_REFUND_SOON_SECONDS = 75

/**
 * E2E=1 only (Playwright's server; refused outside demo mode, everywhere else never): an order
 * whose e-mail is at E2E_REFUND_SOON_DOMAIN gets its refund deadline E2E_REFUND_SOON_SECONDS after
 * the hand-over instead of hours, so a browser test sees a taken order escalated to the owner
 * (the shortest setting a game has is 1 h). Nothing else about the clocks changes.
 */
function refundSoonInE2e(email: string | null | undefined): boolean {
  return process.env.E2E === '1' && (email ?? '').toLowerCase().endsWith(E2E_REFUND_SOON_DOMAIN)
}

export async function handToPerson(tx: Tx, orderId: string, config: RefundConfig) {
  const [o] = await tx
    .select({ email: orders.email, minutes: games.deliveryMinutes, refundHours: games.autoRefundHours })
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
  const hours = autoRefundHours(o?.refundHours, config.deliveryRefundHours)
  if (hours === null) return
  const due = new Date(now + (refundSoonInE2e(o?.email) ? E2E_REFUND_SOON_SECONDS * 1000 : hours * 3_600_000))
  await tx.update(orders).set({ refundDueAt: due }).where(eq(orders.id, orderId))
  if (config.deliveryRefundWarnHours > 0)
    await enqueue(tx, {
      kind: DELIVERY_REFUND_WARNING_JOB,
      key: `delivery_refund_warning:${orderId}`,
      payload: { orderId },
      runAt: warningTime(new Date(now), due, config.deliveryRefundWarnHours),
    })
  await enqueue(tx, {
    kind: DELIVERY_REFUND_JOB,
    key: `delivery_refund:${orderId}`,
    payload: { orderId },
    runAt: due,
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

/** The owners' addresses (role `owner`) and ADMIN_EMAILS: who decides an escalated order. */
export async function ownerEmails(db: Db | Tx, adminEmails: readonly string[]): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(staffRoles)
    .innerJoin(users, eq(users.id, staffRoles.userId))
    .where(and(inArray(staffRoles.role, ['owner']), isNotNull(users.email), isNull(users.deletedAt)))
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

/** DELIVERY_REFUND_WARN_HOURS before the deadline: every staff member is told, when nobody has taken it. */
export const deliveryRefundWarningJob: JobHandler = async (job, deps) => {
  const orderId = String(job.payload.orderId)
  await deps.db.transaction(async (tx) => {
    const [o] = await tx
      .select({
        status: orders.status,
        awaitingSince: orders.awaitingSince,
        takenBy: orders.takenBy,
        refundDueAt: orders.refundDueAt,
      })
      .from(orders)
      .where(eq(orders.id, orderId))
    // taken: nothing will be refunded by itself, so there is nothing to warn about
    if (!isWaiting(o) || o?.takenBy !== null || o.refundDueAt === null) return
    for (const to of await staffEmails(tx, deps.config.adminEmails))
      await queueMail(tx, {
        template: 'delivery_refund_warning',
        to,
        data: { orderId },
        key: `delivery_refund_warning:${orderId}:${to}`,
      })
    await recordOrderEvent(tx, orderId, 'attention', {
      reason: message('delivery_refund_warning_event', { hours: hoursLeft(o.refundDueAt, new Date()) }),
    })
  })
  deps.jobs?.wake()
}

/**
 * At the deadline: an order nobody took fails and is refunded (the failed mail says why); one that
 * somebody took is escalated to the owner instead (mail, the overview, the desk's filter), who
 * chooses «Выдано» or a refund.
 */
export const deliveryRefundJob: JobHandler = async (job, deps) => {
  const orderId = String(job.payload.orderId)
  await deps.db.transaction(async (tx) => {
    const [o] = await tx
      .select({
        status: orders.status,
        awaitingSince: orders.awaitingSince,
        takenBy: orders.takenBy,
        refundDueAt: orders.refundDueAt,
        escalatedAt: orders.escalatedAt,
      })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for('update')
    if (!isWaiting(o) || !o?.awaitingSince || o.refundDueAt === null) return
    if (o.takenBy !== null) {
      if (o.escalatedAt !== null) return
      await tx.update(orders).set({ escalatedAt: new Date() }).where(eq(orders.id, orderId))
      for (const to of await ownerEmails(tx, deps.config.adminEmails))
        await queueMail(tx, {
          template: 'delivery_escalated',
          to,
          data: { orderId },
          key: `delivery_escalated:${orderId}:${to}`,
        })
      await recordOrderEvent(tx, orderId, 'attention', { reason: message('delivery_escalated_event') })
      return
    }
    // the hours it was given when handed over (the game's setting may have changed since)
    const hours = Math.max(1, Math.round((o.refundDueAt.getTime() - o.awaitingSince.getTime()) / 3_600_000))
    // compare-and-set from `sent`: a person who delivers meanwhile wins, and this runs once
    await transitionOrder(tx, orderId, 'failed', {
      rejectReason: message('delivery_auto_refund_reason', { hours }),
      awaitingSince: null,
      takenBy: null,
      takenAt: null,
    })
  })
  deps.jobs?.wake()
}
