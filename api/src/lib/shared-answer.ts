// Marks an API answer that is the same for every anonymous requester of its URL (a catalogue read),
// so the server's answer cache (server/answer-cache.ts) may keep it for CATALOGUE_CACHE_SECONDS.
// The server strips the mark before the answer leaves; it stores nothing for a request with
// Authorization or cookies, whatever the mark says.
import type { Context } from 'hono'
import type { AppEnv } from '../context'

export const SHARED_ANSWER_HEADER = 'x-shared-answer'

/** `readAt`: when the data in the answer was read (an older cached read expires sooner). */
export function shareAnswer(c: Context<AppEnv>, readAt = Date.now()): void {
  if (c.var.deps.config.catalogueCacheSeconds > 0) c.header(SHARED_ANSWER_HEADER, String(readAt))
}
