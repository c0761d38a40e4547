import type { ApiDeps } from '../context'

type Entry = { expires: number; value: Promise<unknown> }
const caches = new WeakMap<ApiDeps, Map<string, Entry>>()
const MAX_ENTRIES = 1000

/**
 * A short-lived per-process cache for public catalogue reads (`config.catalogueCacheSeconds`,
 * 0 = off). Concurrent misses share one query. Only display data goes through it: prices that
 * matter are read from the database when an order is priced.
 */
export function cachedRead<T>(deps: ApiDeps, key: string, load: () => Promise<T>): Promise<T> {
  const ttlMs = deps.config.catalogueCacheSeconds * 1000
  if (ttlMs <= 0) return load()
  let cache = caches.get(deps)
  if (!cache) {
    cache = new Map()
    caches.set(deps, cache)
  }
  const now = Date.now()
  const hit = cache.get(key)
  if (hit && hit.expires > now) return hit.value as Promise<T>
  if (cache.size >= MAX_ENTRIES) cache.clear()
  const value = load()
  cache.set(key, { expires: now + ttlMs, value })
  // a failed read is not remembered
  value.catch(() => cache.delete(key))
  return value
}
