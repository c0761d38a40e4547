import type { ApiDeps } from '../context'

type Read = { value: unknown; readAt: number }
type Entry = { expires: number; read: Promise<Read> }
const caches = new WeakMap<ApiDeps, Map<string, Entry>>()
const MAX_ENTRIES = 1000

/**
 * A short-lived per-process cache for public catalogue reads (`config.catalogueCacheSeconds`,
 * 0 = off). Concurrent misses share one query. Only display data goes through it: prices that
 * matter are read from the database when an order is priced. `readAt` is when the value was read
 * from the database, so an answer kept further on (server/answer-cache.ts) expires with it.
 */
export function cachedReadWithTime<T>(
  deps: ApiDeps,
  key: string,
  load: () => Promise<T>,
): Promise<{ value: T; readAt: number }> {
  const ttlMs = deps.config.catalogueCacheSeconds * 1000
  const now = Date.now()
  if (ttlMs <= 0) return load().then((value) => ({ value, readAt: now }))
  let cache = caches.get(deps)
  if (!cache) {
    cache = new Map()
    caches.set(deps, cache)
  }
  const hit = cache.get(key)
  if (hit && hit.expires > now) return hit.read as Promise<{ value: T; readAt: number }>
  if (cache.size >= MAX_ENTRIES) cache.clear()
  const read = load().then((value) => ({ value, readAt: now }))
  cache.set(key, { expires: now + ttlMs, read })
  // a failed read is not remembered
  read.catch(() => cache.delete(key))
  return read
}
