// OAuth 2.0 authorization-code flow for facebook, google, vk, vk_id and yandex. Each provider
// differs only in a few parameters and in the shape of its user info, mapped here to one identity.
import type { ApiConfig, OAuthProviderConfig } from '../../env'
import { refuse } from '../../lib/domain-error'
import { PROVIDER_TITLES, type SocialIdentity, type SocialProvider } from './providers'
import { pkceChallenge, pkceVerifier } from './state'

export type OAuthProvider = Exclude<SocialProvider, 'steam' | 'telegram'>

const SCOPES: Record<OAuthProvider, string> = {
  facebook: 'email',
  google: 'openid email profile',
  vk: 'email',
  vk_id: 'email',
  yandex: 'login:email login:info',
}

/** VK ID requires PKCE; the others get it where they support it too. */
const USES_PKCE: Record<OAuthProvider, boolean> = {
  facebook: false,
  google: true,
  vk: false,
  vk_id: true,
  yandex: true,
}

const VK_API_VERSION = '5.199'
const TIMEOUT_MS = 10_000

export function oauthAuthorizeUrl(
  config: ApiConfig,
  provider: OAuthProvider,
  cfg: OAuthProviderConfig,
  redirectUri: string,
  state: string,
): string {
  const u = new URL(cfg.authorizeUrl)
  u.searchParams.set('response_type', 'code')
  u.searchParams.set('client_id', cfg.clientId)
  u.searchParams.set('redirect_uri', redirectUri)
  u.searchParams.set('state', state)
  u.searchParams.set('scope', SCOPES[provider])
  if (USES_PKCE[provider]) {
    u.searchParams.set('code_challenge', pkceChallenge(pkceVerifier(config, state)))
    u.searchParams.set('code_challenge_method', 'S256')
  }
  if (provider === 'vk') u.searchParams.set('v', VK_API_VERSION)
  return u.toString()
}

type Json = Record<string, unknown>

async function call(fetcher: typeof fetch, provider: OAuthProvider, req: Request): Promise<Json> {
  let res: Response
  try {
    res = await fetcher(req, { signal: AbortSignal.timeout(TIMEOUT_MS) })
  } catch {
    throw refuse('social_provider_unavailable', { provider: PROVIDER_TITLES[provider] })
  }
  const body = (await res.json().catch(() => null)) as Json | null
  if (res.status >= 500) throw refuse('social_provider_unavailable', { provider: PROVIDER_TITLES[provider] })
  if (!res.ok || !body || typeof body !== 'object' || 'error' in body)
    throw refuse('social_code_invalid', { provider: PROVIDER_TITLES[provider] })
  return body
}

const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null

function name(...parts: unknown[]): string | null {
  const s = parts.map(str).filter(Boolean).join(' ').trim()
  return s || null
}

/**
 * Exchanges the code at the token endpoint, reads the user info and returns the identity.
 * `deviceId` is VK ID's extra redirect parameter, needed by its token endpoint.
 */
export async function oauthIdentity(
  fetcher: typeof fetch,
  config: ApiConfig,
  provider: OAuthProvider,
  cfg: OAuthProviderConfig,
  input: { code: string; redirectUri: string; state: string; deviceId?: string },
): Promise<SocialIdentity> {
  const form = new URLSearchParams({
    grant_type: 'authorization_code',
    code: input.code,
    redirect_uri: input.redirectUri,
    client_id: cfg.clientId,
  })
  // VK ID is a public client (PKCE); the others authenticate with their secret
  if (provider !== 'vk_id') form.set('client_secret', cfg.clientSecret)
  if (USES_PKCE[provider]) form.set('code_verifier', pkceVerifier(config, input.state))
  if (provider === 'vk_id') {
    form.set('state', input.state)
    if (input.deviceId) form.set('device_id', input.deviceId)
  }
  const token = await call(
    fetcher,
    provider,
    new Request(cfg.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form,
    }),
  )
  const accessToken = str(token.access_token)
  if (!accessToken) throw refuse('social_code_invalid', { provider: PROVIDER_TITLES[provider] })

  const info = await fetchUserInfo(fetcher, provider, cfg, accessToken)
  const { id, ...rest } = mapIdentity(provider, token, info)
  if (!id) throw refuse('social_code_invalid', { provider: PROVIDER_TITLES[provider] })
  return { id, ...rest }
}

async function fetchUserInfo(
  fetcher: typeof fetch,
  provider: OAuthProvider,
  cfg: OAuthProviderConfig,
  accessToken: string,
): Promise<Json> {
  const u = new URL(cfg.userInfoUrl)
  const headers: Record<string, string> = { accept: 'application/json' }
  switch (provider) {
    case 'vk_id':
      return call(
        fetcher,
        provider,
        new Request(u, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: cfg.clientId, access_token: accessToken }),
        }),
      )
    case 'vk':
      u.searchParams.set('access_token', accessToken)
      u.searchParams.set('v', VK_API_VERSION)
      return call(fetcher, provider, new Request(u, { headers }))
    case 'facebook':
      u.searchParams.set('fields', 'id,name,email')
      return call(
        fetcher,
        provider,
        new Request(u, { headers: { ...headers, authorization: `Bearer ${accessToken}` } }),
      )
    case 'yandex':
      u.searchParams.set('format', 'json')
      return call(
        fetcher,
        provider,
        new Request(u, { headers: { ...headers, authorization: `OAuth ${accessToken}` } }),
      )
    case 'google':
      return call(
        fetcher,
        provider,
        new Request(u, { headers: { ...headers, authorization: `Bearer ${accessToken}` } }),
      )
  }
}

const email = (v: unknown) => {
  const s = str(v)?.trim().toLowerCase() ?? null
  return s && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s) ? s : null
}

export function mapIdentity(
  provider: OAuthProvider,
  token: Json,
  info: Json,
): Omit<SocialIdentity, 'id'> & { id: string | null } {
  switch (provider) {
    case 'vk_id': {
      const u = (info.user ?? {}) as Json
      return {
        id: str(u.user_id) ?? str(token.user_id),
        email: email(u.email) ?? email(token.email),
        nickname: name(u.first_name, u.last_name),
      }
    }
    case 'vk': {
      const list = Array.isArray(info.response) ? (info.response as Json[]) : []
      const u = list[0] ?? {}
      return {
        id: str(token.user_id) ?? str(u.id),
        email: email(token.email),
        nickname: name(u.first_name, u.last_name),
      }
    }
    case 'yandex':
      return {
        id: str(info.id),
        email: email(info.default_email),
        nickname: name(info.display_name ?? info.login),
      }
    case 'google':
      return {
        id: str(info.sub),
        // only an address Google has verified may stand for its owner
        email: info.email_verified === true || info.email_verified === 'true' ? email(info.email) : null,
        nickname: name(info.name),
      }
    case 'facebook':
      return { id: str(info.id), email: email(info.email), nickname: name(info.name) }
  }
}
