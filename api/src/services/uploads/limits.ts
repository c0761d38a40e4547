// Image uploads cost storage and CPU: each is counted per client address and per target (the
// order or the account it is for), in the database so every instance shares the counters. Over
// the limit the answer is a 429 with Retry-After.
import type { Context } from 'hono'
import type { AppEnv } from '../../context'
import { clientNetworkOf } from '../../lib/client-address'
import { refuse } from '../../lib/domain-error'
import { hitRateLimit } from '../rate-limit'

/** Counts one upload for `target` (`order:<id>` or `account:<id>`); throws 429 over a limit. */
export async function limitUploads(c: Context<AppEnv>, target: string): Promise<void> {
  const { db, config } = c.var.deps
  const { perAddress, perTarget, windowSeconds } = config.uploadLimits
  const keys: Array<[string, number]> = [
    [`upload:address:${clientNetworkOf(c)}`, perAddress],
    [`upload:${target}`, perTarget],
  ]
  for (const [key, limit] of keys) {
    const hit = await hitRateLimit(db, key, limit, windowSeconds)
    if (!hit.allowed) {
      c.header('Retry-After', String(hit.retryAfter))
      throw refuse('rate_limited', { seconds: hit.retryAfter })
    }
  }
}
