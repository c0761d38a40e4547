// Promo codes are short secrets: `show` and `activate` are limited per client address and per
// order (or account), in the database so every instance shares the counters. Over the limit the
// answer is a 429 with Retry-After.
import type { ApiDeps } from '../../context'
import { refuseOverLimit } from '../../lib/domain-error'
import type { Actor } from '../actor'
import { hitRateLimit } from '../rate-limit'

/** Counts one code check; `target` is `order:<id>` or `account:<id>` (null: the address only). */
export async function limitPromoChecks(deps: ApiDeps, actor: Actor, target: string | null): Promise<void> {
  const { db, config } = deps
  const { perAddress, perTarget, windowSeconds } = config.promoLimits
  const keys: Array<[string, number]> = [[`promo:address:${actor.network}`, perAddress]]
  if (target) keys.push([`promo:${target}`, perTarget])
  for (const [key, limit] of keys) {
    const hit = await hitRateLimit(db, key, limit, windowSeconds)
    if (!hit.allowed) throw refuseOverLimit(hit.retryAfter)
  }
}
