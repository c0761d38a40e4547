import { createHash } from 'node:crypto'
import type { PlayerCheckConfig } from '../../env'
import { cleanNickname, jsonBody, type PlayerAnswer, type PlayerLookup, timedFetch } from './types'

export const SMILEONE_ROLE_PATH = 'getrole'

const md5 = (s: string) => createHash('md5').update(s).digest('hex')

/**
 * Smile One request signature: the parameters sorted by name as `k=v&` pairs, the merchant key
 * appended, MD5 taken twice (hex).
 */
export function signSmileOne(params: Record<string, string>, key: string): string {
  const joined = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}&`)
    .join('')
  return md5(md5(`${joined}${key}`))
}

/** Smile One's "role does not exist" status; 200 is a found role, anything else an error. */
const ROLE_MISSING = 201

/**
 * Smile One's role check (POST form to `…/smilecoin/api/getrole`). The game's `player_check_ref`
 * is `<product>/<productid>` as Smile One lists them (e.g. `mobilelegends/13`); the server goes
 * in `zoneid`.
 */
export function smileOneLookup(cfg: NonNullable<PlayerCheckConfig['smileone']>): PlayerLookup {
  return {
    name: 'smileone',
    needsRef: true,
    async lookup({ userId, server }, ref, ctx): Promise<PlayerAnswer> {
      const [product = '', productid = ''] = (ref ?? '').split('/')
      const params: Record<string, string> = {
        email: cfg.email,
        uid: cfg.uid,
        userid: userId,
        zoneid: server ?? '',
        product,
        productid,
        time: String(Math.floor(Date.now() / 1000)),
      }
      const form = new URLSearchParams({ ...params, sign: signSmileOne(params, cfg.key) })
      const r = await timedFetch(ctx, `${cfg.apiUrl.replace(/\/$/, '')}/${SMILEONE_ROLE_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      })
      if (!r.ok) return { outcome: 'unavailable', reason: r.reason }
      const body = await jsonBody(r.res)
      if (!r.res.ok || !body) return { outcome: 'unavailable', reason: `HTTP ${r.res.status}` }
      const status = Number(body.status)
      if (status === ROLE_MISSING) return { outcome: 'not_found' }
      const nickname = cleanNickname(body.username)
      if (status === 200 && nickname) return { outcome: 'found', nickname }
      return { outcome: 'unavailable', reason: `status ${body.status}: ${String(body.message ?? '')}` }
    },
  }
}
