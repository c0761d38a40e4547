// MooGold (and any supplier with a `refresh`) orders left `sent` are asked again in the background
// with backoff until the supplier's answer is final (issue 12, the order clock). The rule of what an
// answer means stays in one place, refreshSentOrder, which the status route uses as well. Queueing
// the first check lives in recheck-queue.ts, so fulfilOrder (index.ts) and this job need not import
// each other.
import { eq } from 'drizzle-orm'
import { orders } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { message } from '../../lib/errors'
import { log } from '../../lib/log'
import { recordOrderEvent } from '../orders/events'
import { refreshSentOrder } from '.'
import { nextCheckSeconds } from './recheck-queue'

/** After this many answers that are not final, a person looks at the order (no endless retries). */
export const RECHECK_MAX_CHECKS = 12

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
