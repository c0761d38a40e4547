// Image uploads cost storage and CPU: each is counted per client address and per target (the
// order or the account it is for), in the database so every instance shares the counters. Over
// the limit the answer is a 429 with Retry-After.
import type { ApiDeps } from '../../context'
import { refuseOverLimit } from '../../lib/domain-error'
import type { Actor } from '../actor'
import { hitRateLimit } from '../rate-limit'

/** Counts one upload for `target` (`order:<id>` or `account:<id>`); throws 429 over a limit. */
export async function limitUploads(deps: ApiDeps, actor: Actor, target: string): Promise<void> {
  const { db, config } = deps
  const { perAddress, perTarget, windowSeconds } = config.uploadLimits
  const keys: Array<[string, number]> = [
    [`upload:address:${actor.network}`, perAddress],
    [`upload:${target}`, perTarget],
  ]
  for (const [key, limit] of keys) {
    const hit = await hitRateLimit(db, key, limit, windowSeconds)
    if (!hit.allowed) throw refuseOverLimit(hit.retryAfter)
  }
}
