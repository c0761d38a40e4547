// Promo codes are short secrets: `show` and `activate` are limited per client address and per
// order (or account), in the database so every instance shares the counters. Over the limit the
// answer is a 429 with Retry-After.
import type { Context } from 'hono'
import type { AppEnv } from '../../context'
import { clientNetworkOf } from '../../lib/client-address'
import { refuse } from '../../lib/domain-error'
import { hitRateLimit } from '../rate-limit'

/** Counts one code check; `target` is `order:<id>` or `account:<id>` (null: the address only). */
export async function limitPromoChecks(c: Context<AppEnv>, target: string | null): Promise<void> {
  const { db, config } = c.var.deps
  const { perAddress, perTarget, windowSeconds } = config.promoLimits
  const keys: Array<[string, number]> = [[`promo:address:${clientNetworkOf(c)}`, perAddress]]
  if (target) keys.push([`promo:${target}`, perTarget])
  for (const [key, limit] of keys) {
    const hit = await hitRateLimit(db, key, limit, windowSeconds)
    if (!hit.allowed) {
      c.header('Retry-After', String(hit.retryAfter))
      throw refuse('rate_limited', { seconds: hit.retryAfter })
    }
  }
}
