// The `receipt.send` job: registers one pending receipt through its transport, outside any
// transaction (a network call). Sandbox: registered at once (demo and tests only). ATOL: sell or
// sell_refund (de-duplicated by external_id), then the report until done or fail. A refusal marks
// the receipt failed with the reason for the back-office; an outage is retried with backoff, and
// when the attempts are used up the receipt is failed too. The payment is never touched.
import { and, eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db } from '../../db/client'
import { payments, receipts } from '../../db/schema'
import { getProvider } from '../../providers'
import { ProviderRejected } from '../../providers/types'
import type { JobHandler } from '../../jobs/worker'
import { message } from '../../lib/errors'
import { log } from '../../lib/log'
import { recordOrderEvent } from '../orders/events'
import { AtolRefusal, atolRegister, atolReport } from './atol'
import type { ReceiptDoc } from './formats'
import type { ReceiptItem, ReceiptSeller } from './model'
import { isSettlement } from './moment'
import { type ReceiptRow, sandboxFiscal } from './outbox'

/** Report polls of one registration before it counts as not answering. */
const MAX_REPORT_CHECKS = 120

async function finish(
  db: Db,
  row: ReceiptRow,
  to: { status: 'registered'; fiscal: Record<string, unknown> } | { status: 'failed'; reason: string },
) {
  await db.transaction(async (tx) => {
    const [done] = await tx
      .update(receipts)
      .set(
        to.status === 'registered'
          ? { status: 'registered', fiscal: to.fiscal, registeredAt: new Date(), lastError: null }
          : { status: 'failed', lastError: to.reason.slice(0, 2000) },
      )
      .where(and(eq(receipts.id, row.id), eq(receipts.status, 'pending')))
      .returning({ id: receipts.id })
    if (!done) return
    await recordOrderEvent(tx, row.orderId, 'receipt', {
      receipt_id: row.id,
      kind: row.kind,
      status: to.status,
      ...(to.status === 'failed' ? { reason: to.reason } : { fiscal: to.fiscal }),
    })
  })
}

const docOf = (r: ReceiptRow): ReceiptDoc => ({
  kind: r.kind,
  externalId: r.externalId,
  email: r.email,
  total: r.total,
  items: r.items as ReceiptItem[],
  seller: r.seller as unknown as ReceiptSeller,
  paymentMethod: r.paymentMethod ?? 'full_payment',
})

/**
 * The settlement of an advance taken by a provider that carries receipts (`with_payment`): the
 * provider's own receipt call (YooKassa POST /receipts), then its state until registered.
 */
async function providerStep(
  deps: ApiDeps,
  row: ReceiptRow,
  job: Parameters<JobHandler>[0],
): Promise<Awaited<ReturnType<JobHandler>>> {
  const [payment] = await deps.db
    .select()
    .from(payments)
    .where(eq(payments.id, row.externalId.slice('settle:'.length)))
  const provider = payment ? getProvider(payment.provider) : undefined
  if (!payment || !provider?.registerSettlement || !provider.receiptState)
    return finish(deps.db, row, {
      status: 'failed',
      reason: message('receipt_with_payment_unsupported', { provider: payment?.provider ?? row.transport }),
    })
  const checks = Number((job.payload as { checks?: unknown }).checks ?? 0)
  try {
    const state = row.serviceId
      ? await provider.receiptState(row.serviceId, deps)
      : await provider.registerSettlement(docOf(row), payment, deps, `receipt:${row.externalId}`)
    if (!row.serviceId)
      await deps.db.update(receipts).set({ serviceId: state.id }).where(eq(receipts.id, row.id))
    if (state.state === 'registered')
      return finish(deps.db, row, { status: 'registered', fiscal: state.fiscal })
    if (state.state === 'failed')
      return finish(deps.db, row, {
        status: 'failed',
        reason: message('receipt_refused', { reason: state.reason }),
      })
    if (checks >= MAX_REPORT_CHECKS)
      return finish(deps.db, row, {
        status: 'failed',
        reason: message('receipt_unreachable', { reason: 'wait' }),
      })
    return {
      again: new Date(Date.now() + Math.min(60, 1 + checks) * 1000),
      payload: { ...job.payload, checks: checks + 1 },
    }
  } catch (e) {
    const reason = (e as Error).message
    if (e instanceof ProviderRejected)
      return finish(deps.db, row, { status: 'failed', reason: message('receipt_refused', { reason }) })
    if (job.attempts >= job.maxAttempts)
      return finish(deps.db, row, { status: 'failed', reason: message('receipt_unreachable', { reason }) })
    await deps.db
      .update(receipts)
      .set({ lastError: reason.slice(0, 2000) })
      .where(eq(receipts.id, row.id))
    throw e
  }
}

async function atolStep(
  deps: ApiDeps,
  row: ReceiptRow,
  job: Parameters<JobHandler>[0],
): Promise<Awaited<ReturnType<JobHandler>>> {
  const cfg = deps.config.atol
  if (!cfg) return finish(deps.db, row, { status: 'failed', reason: message('receipt_atol_not_configured') })
  const checks = Number((job.payload as { checks?: unknown }).checks ?? 0)
  try {
    let uuid = row.serviceId
    if (!uuid) {
      uuid = await atolRegister(deps.fetch, cfg, docOf(row), row.created)
      await deps.db.update(receipts).set({ serviceId: uuid }).where(eq(receipts.id, row.id))
    }
    const report = await atolReport(deps.fetch, cfg, uuid)
    if (report.status === 'done') return finish(deps.db, row, { status: 'registered', fiscal: report.fiscal })
    if (report.status === 'fail')
      return finish(deps.db, row, {
        status: 'failed',
        reason: message('receipt_refused', { reason: report.error }),
      })
    if (checks >= MAX_REPORT_CHECKS)
      return finish(deps.db, row, {
        status: 'failed',
        reason: message('receipt_unreachable', { reason: 'wait' }),
      })
    // registered later: ask again soon, more slowly as it goes on (not counted as a failure)
    return {
      again: new Date(Date.now() + Math.min(60, 1 + checks) * 1000),
      payload: { ...job.payload, checks: checks + 1 },
    }
  } catch (e) {
    const reason = (e as Error).message
    if (e instanceof AtolRefusal)
      return finish(deps.db, row, { status: 'failed', reason: message('receipt_refused', { reason }) })
    log.warn({ job: job.id, receipt: row.id, error: reason }, 'ATOL not answering')
    if (job.attempts >= job.maxAttempts)
      return finish(deps.db, row, { status: 'failed', reason: message('receipt_unreachable', { reason }) })
    await deps.db
      .update(receipts)
      .set({ lastError: reason.slice(0, 2000) })
      .where(eq(receipts.id, row.id))
    throw e
  }
}

export const receiptSendJob: JobHandler = async (job, deps) => {
  const id = Number((job.payload as { receiptId?: unknown }).receiptId)
  const [row] = await deps.db.select().from(receipts).where(eq(receipts.id, id))
  if (row?.status !== 'pending') return
  const seller = row.seller as Partial<ReceiptSeller>
  if (!seller.inn || !seller.name || !seller.email)
    return finish(deps.db, row, { status: 'failed', reason: message('receipt_no_requisites') })
  if (row.transport === 'sandbox') {
    // the sandbox prints nothing: never for real shoppers
    if (!deps.config.sandboxPayments)
      return finish(deps.db, row, { status: 'failed', reason: message('receipt_sandbox_in_production') })
    return finish(deps.db, row, { status: 'registered', fiscal: sandboxFiscal(row.externalId, new Date()) })
  }
  if (row.transport === 'atol') return atolStep(deps, row, job)
  if (row.transport === 'with_payment' && isSettlement(row.externalId)) return providerStep(deps, row, job)
  return finish(deps.db, row, {
    status: 'failed',
    reason: message('receipt_with_payment_unsupported', { provider: row.transport }),
  })
}
