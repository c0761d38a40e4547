// The eviction rule the page cache and the answer cache share: entries never served from the
// cache go first (oldest first), then the least recently used. A client cycling one-off URLs
// (query strings) then mostly displaces its own entries, not the ones visitors keep reading.

/** An entry that remembers whether it was ever served from the cache. */
export interface ReadMark {
  read?: boolean
}

/**
 * Drops entries of `entries` (kept oldest first, a read moving one to the back) while `over()`
 * holds: first the never-read ones except `spare` (the entry just stored), then the oldest.
 */
export function evictUnreadFirst<E extends ReadMark>(
  entries: Map<string, E>,
  over: () => boolean,
  drop: (key: string) => void,
  spare?: string,
): void {
  for (const [key, e] of entries) {
    if (!over()) return
    if (!e.read && key !== spare) drop(key)
  }
  for (const key of entries.keys()) {
    if (!over()) return
    drop(key)
  }
}
