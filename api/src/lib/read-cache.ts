import { LRUCache } from 'lru-cache'
import type { ApiDeps } from '../context'

type Read = { value: unknown; readAt: number }
type Load = () => Promise<Read>
const caches = new WeakMap<ApiDeps, LRUCache<string, Read, Load>>()
const MAX_ENTRIES = 1000

/**
 * A short-lived per-process cache for public catalogue reads (`config.catalogueCacheSeconds`,
 * 0 = off). Only display data goes through it: prices that matter are read from the database when
 * an order is priced. `readAt` is when the value was read from the database, so an answer kept
 * further on (server/answer-cache.ts) expires with it. Storage, the bound (least recently used
 * first), expiry, one shared query for concurrent misses and forgetting a failed read are
 * lru-cache's (issue 35).
 */
export function cachedReadWithTime<T>(
  deps: ApiDeps,
  key: string,
  load: () => Promise<T>,
): Promise<{ value: T; readAt: number }> {
  const ttlMs = deps.config.catalogueCacheSeconds * 1000
  const read = () => {
    const readAt = Date.now()
    return load().then((value) => ({ value, readAt }))
  }
  if (ttlMs <= 0) return read() as Promise<{ value: T; readAt: number }>
  let cache = caches.get(deps)
  if (!cache) {
    cache = new LRUCache<string, Read, Load>({
      max: MAX_ENTRIES,
      ttl: ttlMs,
      fetchMethod: (_key, _stale, { context }) => context(),
    })
    caches.set(deps, cache)
  }
  return cache.fetch(key, { context: read }) as Promise<{ value: T; readAt: number }>
}
