// The player-lookup adapters by name, the shared answer cache, and the one rule of what an answer
// means for an order.
import { createHash } from 'node:crypto'
import { and, eq, gt, inArray, lte } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db } from '../../db/client'
import { games, playerChecks, supplyServers } from '../../db/schema'
import type { PlayerCheckConfig } from '../../env'
import { refuseField } from '../../lib/domain-error'
import { hitRateLimit } from '../rate-limit'
import { apigamesLookup } from './apigames'
import { sandboxLookup } from './sandbox'
import { smileOneLookup } from './smile-one'
import type { PlayerAnswer, PlayerLookup, PlayerQuery } from './types'

export type { PlayerAnswer, PlayerQuery } from './types'

/** Game kinds whose order forms carry a player id that can be checked. */
export const CHECKABLE_KINDS = ['StandoffGame', 'SupplyGame', 'Steam'] as const

/** The configured adapters; an unconfigured supplier is absent, so its games have no check. */
export function lookupsFor(cfg: PlayerCheckConfig): Map<string, PlayerLookup> {
  const out = new Map<string, PlayerLookup>()
  if (cfg.sandbox) out.set(sandboxLookup.name, sandboxLookup)
  if (cfg.smileone) out.set('smileone', smileOneLookup(cfg.smileone))
  if (cfg.apigames) out.set('apigames', apigamesLookup(cfg.apigames))
  return out
}

const registries = new WeakMap<PlayerCheckConfig, Map<string, PlayerLookup>>()
function registry(cfg: PlayerCheckConfig) {
  const known = registries.get(cfg)
  if (known) return known
  const made = lookupsFor(cfg)
  registries.set(cfg, made)
  return made
}

type CheckGame = Pick<typeof games.$inferSelect, 'kind' | 'playerCheck' | 'playerCheckRef'>

/** The adapter that checks ids of this game, or null when it has none (or it is not configured). */
export function lookupFor(cfg: PlayerCheckConfig, game: CheckGame): PlayerLookup | null {
  if (!game.playerCheck || !(CHECKABLE_KINDS as readonly string[]).includes(game.kind)) return null
  const l = registry(cfg).get(game.playerCheck)
  if (!l || (l.needsRef && !game.playerCheckRef)) return null
  return l
}

/** Whether the game's order form may show a nickname (the `player_check` flag of a game). */
export const hasPlayerCheck = (cfg: PlayerCheckConfig, game: CheckGame) => lookupFor(cfg, game) !== null

function cacheKey(lookup: PlayerLookup, ref: string | null, q: PlayerQuery): string {
  return createHash('sha256')
    .update(JSON.stringify([lookup.name, ref ?? '', q.userId, q.server ?? '']))
    .digest('hex')
}

/** The active game `id` (null if none), whose players the check route asks about. */
export async function findActiveGame(db: Db, id: number): Promise<typeof games.$inferSelect | null> {
  const [game] = await db
    .select()
    .from(games)
    .where(and(eq(games.id, id), eq(games.isActive, true)))
  return game ?? null
}

/** The per-address limit's window (PLAYER_CHECK_LIMIT_PER_ADDRESS checks per window). */
export const PLAYER_CHECK_WINDOW_SECONDS = 60
/** The per-address counter, shared by the check route and order creation (issue 38, finding 5). */
export const playerCheckLimitKey = (address: string) => `player-check:${address}`

/** Expired answers removed per write: keeps the table small without a sweeper. */
const PRUNE_BATCH = 100

/**
 * Asks the game's adapter about a player, through the cache every instance shares: found and
 * not-found answers are reused for `cacheSeconds`; malformed and unavailable ones are not kept.
 * Returns null when the game has no check. `timeoutMs` shortens the supplier's time limit.
 */
export async function checkPlayer(
  deps: ApiDeps,
  game: CheckGame,
  query: PlayerQuery,
  opts: { timeoutMs?: number; cacheOnly?: boolean } = {},
): Promise<(PlayerAnswer & { cached: boolean }) | null> {
  const cfg = deps.config.playerCheck
  const lookup = lookupFor(cfg, game)
  if (!lookup) return null
  const key = cacheKey(lookup, game.playerCheckRef, query)
  const now = new Date()
  const [hit] = await deps.db
    .select()
    .from(playerChecks)
    .where(and(eq(playerChecks.key, key), gt(playerChecks.expiresAt, now)))
  if (hit) {
    return hit.outcome === 'found' && hit.nickname
      ? { outcome: 'found', nickname: hit.nickname, cached: true }
      : { outcome: 'not_found', cached: true }
  }
  if (opts.cacheOnly)
    return { outcome: 'unavailable', reason: 'limit reached: cached answers only', cached: false }
  const answer = await lookup.lookup(query, game.playerCheckRef, {
    fetch: deps.fetch,
    timeoutMs: Math.min(opts.timeoutMs ?? cfg.timeoutMs, cfg.timeoutMs),
  })
  if (answer.outcome === 'unavailable')
    console.warn(`[player-check] ${lookup.name} did not answer: ${answer.reason}`)
  if ((answer.outcome === 'found' || answer.outcome === 'not_found') && cfg.cacheSeconds > 0) {
    const row = {
      key,
      outcome: answer.outcome,
      nickname: answer.outcome === 'found' ? answer.nickname : null,
      expiresAt: new Date(now.getTime() + cfg.cacheSeconds * 1000),
    }
    await deps.db
      .insert(playerChecks)
      .values(row)
      .onConflictDoUpdate({
        target: playerChecks.key,
        set: { outcome: row.outcome, nickname: row.nickname, expiresAt: row.expiresAt },
      })
    const stale = deps.db
      .select({ key: playerChecks.key })
      .from(playerChecks)
      .where(lte(playerChecks.expiresAt, now))
      .limit(PRUNE_BATCH)
    await deps.db.delete(playerChecks).where(inArray(playerChecks.key, stale))
  }
  return { ...answer, cached: false }
}

/** The supplier code of a supply-channel server (by id), or the free-text server as given. */
export async function serverCode(
  deps: ApiDeps,
  server: { server: number | null; customId: string | null },
): Promise<string | null> {
  if (server.customId) return server.customId
  if (server.server === null) return null
  const [s] = await deps.db
    .select({ code: supplyServers.code })
    .from(supplyServers)
    .where(eq(supplyServers.id, server.server))
  return s?.code ?? null
}

/** How long order creation waits for a supplier that is not in the cache. */
export const ORDER_CHECK_TIMEOUT_MS = 3000

/**
 * The check at order creation, with the order's own fields (nothing beyond the contract's): a
 * player the supplier does not know, or an id it calls malformed, refuses the order on `field`;
 * a supplier that does not answer lets the order through unchecked. Returns the nickname to keep.
 * Each check counts against the caller's per-address limit of the check route; past it only
 * cached answers are used (an id nobody checked lately goes through unchecked), so creating
 * orders is no way around that limit to enumerate players (issue 38, finding 5).
 */
export async function verifyPlayerForOrder(
  deps: ApiDeps,
  game: CheckGame,
  query: PlayerQuery,
  field: string,
): Promise<string | null> {
  if (!lookupFor(deps.config.playerCheck, game)) return null
  const address = deps.clientAddress ?? 'unknown'
  const hit = await hitRateLimit(
    deps.db,
    playerCheckLimitKey(address),
    deps.config.playerCheck.perAddress,
    PLAYER_CHECK_WINDOW_SECONDS,
  )
  const answer = await checkPlayer(deps, game, query, {
    timeoutMs: ORDER_CHECK_TIMEOUT_MS,
    cacheOnly: !hit.allowed,
  })
  if (!answer) return null
  if (answer.outcome === 'not_found') throw refuseField(field, 'player_not_found', { id: query.userId })
  if (answer.outcome === 'malformed') throw refuseField(field, 'player_id_malformed')
  return answer.outcome === 'found' ? answer.nickname : null
}
