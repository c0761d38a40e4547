// Player look-up ("role check"): the id (and server) a shopper typed in, the nickname or "not found"
// out. One interface for every supplier, beside the fulfilment adapters.

/** What the shopper typed: the player id and, for games with servers, the server's supplier code. */
export interface PlayerQuery {
  userId: string
  server: string | null
}

/** A supplier's answer. Adapters never throw: a timeout or a broken answer is `unavailable`. */
export type PlayerAnswer =
  | { outcome: 'found'; nickname: string }
  | { outcome: 'not_found' }
  | { outcome: 'malformed' }
  | { outcome: 'unavailable'; reason: string }

export interface LookupContext {
  fetch: typeof fetch
  timeoutMs: number
}

export interface PlayerLookup {
  /** The value of `games.player_check` that selects this adapter. */
  readonly name: string
  /** Whether a game must name its game code at the supplier (`games.player_check_ref`). */
  readonly needsRef: boolean
  lookup(query: PlayerQuery, ref: string | null, ctx: LookupContext): Promise<PlayerAnswer>
}

/** Longest nickname kept from a supplier (they are short; this bounds what we store and show). */
export const NICKNAME_MAX = 64

/** A supplier's nickname, trimmed and bounded, or null when it gave none. */
export function cleanNickname(v: unknown): string | null {
  if (typeof v !== 'string') return null
  // control characters never belong in a name shown on a page or in a mail
  const s = v.replace(/\p{Cc}/gu, '').trim()
  return s ? s.slice(0, NICKNAME_MAX) : null
}

/** fetch with the adapter's time limit; network errors and timeouts become a reason string. */
export async function timedFetch(
  ctx: LookupContext,
  url: string,
  init: RequestInit,
): Promise<{ ok: true; res: Response } | { ok: false; reason: string }> {
  try {
    const res = await ctx.fetch(url, { ...init, signal: AbortSignal.timeout(ctx.timeoutMs) })
    return { ok: true, res }
  } catch (e) {
    const name = e instanceof Error ? e.name : ''
    return { ok: false, reason: name === 'TimeoutError' ? 'timeout' : 'network error' }
  }
}

/** The JSON body of a supplier's answer, or null when it is not JSON. */
export async function jsonBody(res: Response): Promise<Record<string, unknown> | null> {
  try {
    const v = (await res.json()) as unknown
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null
  } catch {
    return null
  }
}
