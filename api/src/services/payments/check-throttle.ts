// «Проверить оплату» asks the provider at most once per payment per CHECK_EVERY_SECONDS, whoever
// presses it and on whichever instance (decision 112): the claim is one atomic upsert in the shared
// rate-limit table, so 100 presses at once make one provider call; the others answer from the
// shop's record (the notification and the re-query job still settle the payment).
import type { Db } from '../../db/client'
import { hitRateLimit } from '../rate-limit'

export const CHECK_EVERY_SECONDS = 5

/** Whether this press may ask the provider about the payment now (the first in its 5 s window). */
export async function claimProviderCheck(db: Db, paymentId: string, now = new Date()): Promise<boolean> {
  const hit = await hitRateLimit(db, `provider-check:${paymentId}`, 1, CHECK_EVERY_SECONDS, now)
  return hit.allowed
}
