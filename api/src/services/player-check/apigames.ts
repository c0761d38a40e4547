import { createHash } from 'node:crypto'
import type { PlayerCheckConfig } from '../../env'
import { cleanNickname, jsonBody, type PlayerAnswer, type PlayerLookup, timedFetch } from './types'

/** apigames signature of merchant calls: MD5 hex of merchant id followed by the secret key. */
export function signApigames(merchantId: string, secretKey: string): string {
  return createHash('md5').update(`${merchantId}${secretKey}`).digest('hex')
}

/**
 * apigames' `cek-username` (GET `/merchant/{merchant}/cek-username/{game}?user_id=…&signature=…`).
 * The game's `player_check_ref` is apigames' game code (e.g. `mobilelegend`); a server is
 * appended to the user id, as apigames expects for games with zones.
 */
export function apigamesLookup(cfg: NonNullable<PlayerCheckConfig['apigames']>): PlayerLookup {
  return {
    name: 'apigames',
    needsRef: true,
    async lookup({ userId, server }, ref, ctx): Promise<PlayerAnswer> {
      const url = new URL(
        `${cfg.apiUrl.replace(/\/$/, '')}/merchant/${encodeURIComponent(cfg.merchantId)}/cek-username/${encodeURIComponent(ref ?? '')}`,
      )
      url.searchParams.set('user_id', `${userId}${server ?? ''}`)
      url.searchParams.set('signature', signApigames(cfg.merchantId, cfg.secretKey))
      const r = await timedFetch(ctx, url.toString(), { method: 'GET' })
      if (!r.ok) return { outcome: 'unavailable', reason: r.reason }
      const body = await jsonBody(r.res)
      if (!r.res.ok || !body) return { outcome: 'unavailable', reason: `HTTP ${r.res.status}` }
      const data = (body.data ?? {}) as Record<string, unknown>
      if (Number(body.status) === 1 && data.is_valid === false) return { outcome: 'not_found' }
      const nickname = cleanNickname(data.username)
      if (Number(body.status) === 1 && data.is_valid === true && nickname)
        return { outcome: 'found', nickname }
      return { outcome: 'unavailable', reason: `status ${body.status}: ${String(body.message ?? '')}` }
    },
  }
}
