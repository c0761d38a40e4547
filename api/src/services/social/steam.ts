// Steam sign-in: OpenID 2.0. The shopper is sent to the OP with checkid_setup; it returns to us
// with a positive assertion, which we hand back to the OP (check_authentication) to verify.
import type { SteamProviderConfig } from '../../env'
import { refuse } from '../../lib/domain-error'
import type { SocialIdentity } from './providers'

const NS = 'http://specs.openid.net/auth/2.0'
const IDENTIFIER_SELECT = 'http://specs.openid.net/auth/2.0/identifier_select'
const TIMEOUT_MS = 10_000

/** The OP URL; `state` rides in return_to, which the OP signs, so it comes back bound to the assertion. */
export function steamAuthorizeUrl(cfg: SteamProviderConfig, redirectUri: string, state: string): string {
  const returnTo = new URL(redirectUri)
  returnTo.searchParams.set('state', state)
  const u = new URL(cfg.openidUrl)
  u.searchParams.set('openid.ns', NS)
  u.searchParams.set('openid.mode', 'checkid_setup')
  u.searchParams.set('openid.return_to', returnTo.toString())
  u.searchParams.set('openid.realm', returnTo.origin)
  u.searchParams.set('openid.identity', IDENTIFIER_SELECT)
  u.searchParams.set('openid.claimed_id', IDENTIFIER_SELECT)
  return u.toString()
}

/**
 * Verifies a Steam assertion. `code` is the query string the OP returned with (the openid.*
 * fields). Returns the identity and the state carried in the signed return_to.
 */
export async function steamIdentity(
  fetcher: typeof fetch,
  cfg: SteamProviderConfig,
  code: string,
  redirectUri: string,
): Promise<{ identity: SocialIdentity; state: string | null }> {
  const params = new URLSearchParams(code.startsWith('?') ? code.slice(1) : code)
  const bad = () => refuse('social_code_invalid', { provider: 'Steam' })
  if (params.get('openid.mode') !== 'id_res' || params.get('openid.ns') !== NS) throw bad()
  if (params.get('openid.op_endpoint') !== cfg.openidUrl) throw bad()

  const returnTo = params.get('openid.return_to') ?? ''
  if (!URL.canParse(returnTo)) throw bad()
  const rt = new URL(returnTo)
  if (`${rt.origin}${rt.pathname}` !== redirectUri) throw bad()
  const signed = (params.get('openid.signed') ?? '').split(',')
  for (const f of ['op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'])
    if (!signed.includes(f)) throw bad()

  const claimed = params.get('openid.claimed_id') ?? ''
  const op = new URL(cfg.openidUrl)
  const m = URL.canParse(claimed) ? /^\/openid\/id\/(\d{1,20})$/.exec(new URL(claimed).pathname) : null
  // the OP vouches only for its own identifiers
  if (!m || new URL(claimed).origin !== op.origin) throw bad()

  const check = new URLSearchParams()
  for (const [k, v] of params) if (k.startsWith('openid.')) check.set(k, v)
  check.set('openid.mode', 'check_authentication')
  let text: string
  try {
    const res = await fetcher(cfg.openidUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: check,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })
    if (res.status >= 500) throw new Error(`status ${res.status}`)
    text = await res.text()
  } catch {
    throw refuse('social_provider_unavailable', { provider: 'Steam' })
  }
  if (!/^is_valid:true$/m.test(text)) throw bad()
  return { identity: { id: m[1]!, email: null, nickname: null }, state: rt.searchParams.get('state') }
}
