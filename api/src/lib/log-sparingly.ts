// Log lines that strangers can cause (issue 44, finding 7): a provider callback or return anyone
// may post to wrote an error-level stack trace per request, so a loop of curl could flood the log.
// Such events are one warn line, with the error's message only, at most once per key and window;
// the next line says how many were left out. Kept in memory: it only thins this process's output.
import { log } from './log'

const WINDOW_MS = 60_000
const last = new Map<string, { at: number; skipped: number }>()

/** One warn line for `key` per minute at most; `err` is reduced to its message (no stack). */
export function warnSparingly(key: string, msg: string, err?: unknown, now = Date.now()): void {
  const seen = last.get(key)
  if (seen && now - seen.at < WINDOW_MS) {
    seen.skipped++
    return
  }
  last.set(key, { at: now, skipped: 0 })
  const reason = err instanceof Error ? err.message : err === undefined ? undefined : String(err)
  log.warn({ key, reason, ...(seen?.skipped ? { skipped: seen.skipped } : {}) }, msg)
}
