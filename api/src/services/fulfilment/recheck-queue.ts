// Queueing a supplier re-check (the job itself is recheck.ts): a leaf that fulfilOrder imports.
import type { Tx } from '../../db/client'
import { backoffSeconds, enqueue } from '../../jobs/queue'

export const RECHECK_JOB = 'orders.recheck_supplier'
/** 40 s, 80 s, 160 s … up to an hour apart (±20 %): twelve checks span about six and a half hours. */
export const nextCheckSeconds = (checks: number) => backoffSeconds(checks + 4)

/** Queued in the transaction that moves the order to `sent` (outbox). */
export async function queueSupplierRecheck(tx: Tx, orderId: string): Promise<void> {
  await enqueue(tx, {
    kind: RECHECK_JOB,
    payload: { orderId, checks: 0 },
    runAt: new Date(Date.now() + nextCheckSeconds(0) * 1000),
  })
}
