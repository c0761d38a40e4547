// The storefront's one call of the player check (POST /api/games/{id}/check_player/, our extension):
// what the order form shows for the id (and server) typed in, with JavaScript or without.
import { type ApiSession, ApiResponseError, must } from '#app/lib/api/client.server'

export interface PlayerQuery {
  userId: string
  serverId?: string
  serverCustomId?: string
}

export type PlayerCheckView =
  | { state: 'found'; nickname: string }
  /** The supplier does not know this player, or calls the id malformed: the order is refused. */
  | { state: 'refused'; message: string }
  /** The supplier did not answer: the shopper may go on, warned. */
  | { state: 'unavailable'; message: string }
  /** No check for this game, too many checks, or an incomplete query: nothing to show. */
  | { state: 'none' }

/** The text a confirmation is for: the id and server as typed (a changed one needs a new check). */
export function playerKey(q: PlayerQuery): string {
  return [q.userId.trim(), (q.serverId ?? '').trim(), (q.serverCustomId ?? '').trim()].join('|')
}

export async function checkPlayer(api: ApiSession, gameId: number, q: PlayerQuery): Promise<PlayerCheckView> {
  const userId = q.userId.trim()
  if (!userId || userId.length > 64) return { state: 'none' }
  const server = q.serverId?.trim()
  try {
    const found = await must(
      api.client.POST('/api/games/{id}/check_player/', {
        params: { path: { id: gameId } },
        body: {
          user_id: userId,
          ...(server && /^\d{1,9}$/.test(server) ? { server: Number(server) } : {}),
          ...(q.serverCustomId?.trim() ? { server_custom_id: q.serverCustomId.trim().slice(0, 64) } : {}),
        },
      }),
    )
    return { state: 'found', nickname: found.nickname }
  } catch (e) {
    if (!(e instanceof ApiResponseError)) throw e
    if (e.code === 'player_not_found' || e.code === 'player_id_malformed')
      return { state: 'refused', message: e.message }
    if (e.code === 'player_check_unavailable' || e.status === 408 || e.status >= 500)
      return { state: 'unavailable', message: e.message }
    return { state: 'none' }
  }
}
