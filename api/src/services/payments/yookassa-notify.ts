// YooKassa's HTTP notifications (payment.succeeded, payment.canceled, payment.waiting_for_capture,
// refund.succeeded). The body is never believed: it only names an object, which is fetched from
// YooKassa's API with our keys, and the answer goes through the one settlement path (settle.ts:
// amount, currency, order still payable, each event once). Where it came from is checked by the
// route (YOOKASSA_NOTIFY_FROM).
import { and, eq, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { auditLog, payments, refunds } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { log } from '../../lib/log'
import { fetchYookassaPayment, fetchYookassaRefund, stateOfYookassaPayment } from '../../providers/yookassa'
import { PROVIDER_MISMATCH, type ProviderMismatch, recordProviderMismatch } from '../refunds/mismatch'
import { completeProviderRefund } from '../refunds/provider-job'
import { applyProviderState } from './requery'

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export interface YookassaNotice {
  event: string
  objectId: string
}

/** The notification's event and object id, or a 400: nothing else in it is read. */
export function readYookassaNotice(body: unknown): YookassaNotice {
  const b = body as { type?: unknown; event?: unknown; object?: { id?: unknown } } | null
  if (
    b?.type !== 'notification' ||
    typeof b.event !== 'string' ||
    typeof b.object?.id !== 'string' ||
    !b.object.id ||
    b.object.id.length > 64
  )
    throw refuse('yookassa_notice_invalid')
  return { event: b.event, objectId: b.object.id }
}

/** Our payment of a YooKassa payment: by the id YooKassa gave, else by the metadata it echoes. */
async function ourPayment(deps: ApiDeps, externalId: string, metadataPaymentId: string | undefined) {
  const [byExternal] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, 'yookassa'), eq(payments.externalId, externalId)))
  if (byExternal) return byExternal
  if (!metadataPaymentId || !UUID_RE.test(metadataPaymentId)) return null
  // the creation answer was lost (a crash, a timeout): the metadata we sent names our payment
  const [byMeta] = await deps.db
    .update(payments)
    .set({ externalId })
    .where(
      and(
        eq(payments.id, metadataPaymentId.toLowerCase()),
        eq(payments.provider, 'yookassa'),
        eq(payments.status, 'pending'),
      ),
    )
    .returning()
  return byMeta ?? null
}

/** Settles what a notification points at. Throws ProviderError when YooKassa cannot be asked. */
export async function handleYookassaNotice(deps: ApiDeps, notice: YookassaNotice): Promise<void> {
  if (notice.event.startsWith('payment.')) {
    const remote = await fetchYookassaPayment(deps, notice.objectId)
    const payment = await ourPayment(deps, remote.id, remote.metadata?.payment_id)
    if (!payment) {
      log.warn({ yookassaId: remote.id }, 'yookassa notification about a payment we do not know')
      return
    }
    const state = stateOfYookassaPayment(remote)
    if (state.state !== 'pending') await applyProviderState(deps, payment, state)
    return
  }
  if (notice.event === 'refund.succeeded') await settleYookassaRefund(deps, notice.objectId)
}

/**
 * refund.succeeded: completes the provider refund it names (once). A refund the shop moved to another
 * route, or does not have, is a mismatch: an audit entry and a staff alert, never a silent 200.
 */
async function settleYookassaRefund(deps: ApiDeps, objectId: string): Promise<void> {
  const remote = await fetchYookassaRefund(deps, objectId)
  if (remote.status !== 'succeeded') return
  const [payment] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, 'yookassa'), eq(payments.externalId, remote.payment_id)))
  const ours = payment ? await deps.db.select().from(refunds).where(eq(refunds.paymentId, payment.id)) : []
  // the refund YooKassa names by its id, else the one our job asked for before its answer was kept
  const refund =
    ours.find((r) => r.externalId === remote.id) ??
    ours.find((r) => r.externalId === null && r.method === 'provider' && r.status === 'pending')
  if (refund?.method === 'provider' && refund.status === 'pending') {
    await completeProviderRefund(deps, refund, remote.id, 'yookassa')
    return
  }
  // the same notification again, for a refund already done through YooKassa
  if (refund?.method === 'provider' && refund.status === 'done') return
  await mismatchOnce(deps, {
    provider: 'yookassa',
    kind: refund ? 'refund_succeeded_elsewhere' : 'refund_unknown',
    orderId: payment?.orderId ?? null,
    externalId: remote.id,
    shop: refund
      ? { refund_id: refund.id, method: refund.method, status: refund.status, amount: refund.amount }
      : { payment_id: payment?.id ?? null },
    remote: { status: remote.status, amount: remote.amount ?? null, payment_id: remote.payment_id },
  })
}

/** One audit entry per provider object, however often YooKassa repeats its notification. */
async function mismatchOnce(deps: ApiDeps, m: ProviderMismatch) {
  const [seen] = await deps.db
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(
      and(eq(auditLog.action, PROVIDER_MISMATCH), sql`${auditLog.after}->>'external_id' = ${m.externalId}`),
    )
    .limit(1)
  if (seen) return
  log.warn(
    { provider: m.provider, kind: m.kind, externalId: m.externalId },
    'provider event does not fit the shop',
  )
  await recordProviderMismatch(deps.db, m)
}
