// MooGold (and any supplier with a `refresh`) orders left `sent` are asked again in the background
// with backoff until the supplier's answer is final (issue 12, the order clock). The rule of what an
// answer means stays in one place, refreshSentOrder, which the status route uses as well.
import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { orders } from '../../db/schema'
import { backoffSeconds, enqueue } from '../../jobs/queue'
import type { JobHandler } from '../../jobs/worker'
import { message } from '../../lib/errors'
import { log } from '../../lib/log'
import { recordOrderEvent } from '../orders/events'
import { refreshSentOrder } from '.'

export const RECHECK_JOB = 'orders.recheck_supplier'
/** After this many answers that are not final, a person looks at the order (no endless retries). */
export const RECHECK_MAX_CHECKS = 12
/** 40 s, 80 s, 160 s … up to an hour apart (±20 %): twelve checks span about six and a half hours. */
const nextCheckSeconds = (checks: number) => backoffSeconds(checks + 4)

/** Queued in the transaction that moves the order to `sent` (outbox). */
export async function queueSupplierRecheck(tx: Tx, orderId: string): Promise<void> {
  await enqueue(tx, {
    kind: RECHECK_JOB,
    payload: { orderId, checks: 0 },
    runAt: new Date(Date.now() + nextCheckSeconds(0) * 1000),
  })
}

export const supplierRecheckJob: JobHandler = async (job, deps) => {
  const orderId = String(job.payload.orderId)
  const checks = Number(job.payload.checks ?? 0) + 1
  const [order] = await deps.db.select().from(orders).where(eq(orders.id, orderId))
  // finished meanwhile (a status poll, another worker): nothing to ask
  if (order?.status !== 'sent') return
  if ((await refreshSentOrder(deps, order)) !== 'sent') return
  if (checks >= RECHECK_MAX_CHECKS) {
    // stays `sent` and shows in the back-office overview as needing a person, with this reason
    await recordOrderEvent(deps.db, orderId, 'attention', {
      reason: message('supplier_recheck_exhausted', { checks }),
    })
    log.warn({ orderId, checks }, 'supplier re-check gave up: order needs a person')
    return
  }
  return {
    again: new Date(Date.now() + nextCheckSeconds(checks) * 1000),
    payload: { ...job.payload, checks },
  }
}
