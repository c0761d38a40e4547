// Between "sign in with X" and X's return we remember, in a short-lived HttpOnly cookie, whether
// this was a sign-in or a bind and where to go afterwards. The API's one-time `state` is what
// protects the exchange; this cookie only carries the shopper's way back.
import { parse, serialize } from 'cookie'
import { safeReturnTo, SOCIAL_PROVIDERS, type SocialProvider } from '#app/lib/account.server'
import { cookiesSecure } from '#app/lib/session.server'

export const SOCIAL_FLOW_COOKIE = 'social_flow'
const MAX_AGE_SECONDS = 15 * 60

export interface SocialFlow {
  provider: SocialProvider
  mode: 'auth' | 'bind'
  returnTo: string
}

export function isSocialProvider(v: string | undefined): v is SocialProvider {
  return v !== undefined && (SOCIAL_PROVIDERS as readonly string[]).includes(v)
}

export function socialFlowCookie(flow: SocialFlow, request: Request): string {
  const value = Buffer.from(JSON.stringify(flow), 'utf8').toString('base64url')
  return serialize(SOCIAL_FLOW_COOKIE, value, {
    httpOnly: true,
    // Lax: sent on the provider's top-level redirect back to us
    sameSite: 'lax',
    secure: cookiesSecure(request),
    path: '/auth',
    maxAge: MAX_AGE_SECONDS,
  })
}

export function clearSocialFlowCookie(request: Request): string {
  return serialize(SOCIAL_FLOW_COOKIE, '', {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookiesSecure(request),
    path: '/auth',
    maxAge: 0,
    expires: new Date(0),
  })
}

/** The flow of this provider, or a plain sign-in back to `/` when the cookie is gone. */
export function readSocialFlow(request: Request, provider: SocialProvider): SocialFlow {
  const raw = parse(request.headers.get('cookie') ?? '')[SOCIAL_FLOW_COOKIE]
  try {
    const v = JSON.parse(Buffer.from(raw ?? '', 'base64url').toString('utf8')) as Partial<SocialFlow>
    if (v.provider === provider)
      return { provider, mode: v.mode === 'bind' ? 'bind' : 'auth', returnTo: safeReturnTo(v.returnTo) }
  } catch {}
  return { provider, mode: 'auth', returnTo: '/' }
}

const TELEGRAM_FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash']

/** What the provider's return carries, as the API's auth/bind body expects it (§7). */
export function returnBody(provider: SocialProvider, url: URL, redirectUri: string) {
  const q = url.searchParams
  const state = q.get('state') ?? undefined
  if (provider === 'steam') return { code: url.search.slice(1), redirect_uri: redirectUri, state }
  if (provider === 'telegram') {
    const tg = q.get('tgAuthResult')
    const payload =
      tg ?? JSON.stringify(Object.fromEntries([...q].filter(([k]) => TELEGRAM_FIELDS.includes(k))))
    return { code: payload, redirect_uri: redirectUri, state }
  }
  return {
    code: q.get('code') ?? '',
    redirect_uri: redirectUri,
    state,
    device_id: q.get('device_id') ?? undefined,
  }
}
