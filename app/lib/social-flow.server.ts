// Between "sign in with X" (a POST of our own form) and X's return we keep, in a short-lived
// HttpOnly cookie of this browser, what the flow is for, where to go afterwards, and the API's
// browser nonce: the API's one-time state is usable only with that nonce (RFC 9700 §4.7), so a
// return link made in another browser (an attacker's) signs in or binds nothing here. The API
// also records the flow's use (sign-in, or bind to this account) and refuses any other.
import { parse, serialize } from 'cookie'
import { safeReturnTo, SOCIAL_PROVIDERS, type SocialProvider } from '#app/lib/account.server'
import { cookiesSecure } from '#app/lib/session.server'

const MAX_AGE_SECONDS = 15 * 60

/** `__Host-` (Secure, Path=/, no Domain) wherever cookies can be Secure; plain on http://localhost. */
export const socialFlowCookieName = (request: Request) =>
  cookiesSecure(request) ? '__Host-social_flow' : 'social_flow'

export interface SocialFlow {
  provider: SocialProvider
  mode: 'auth' | 'bind'
  returnTo: string
  /** The API's browser nonce for this flow's state. */
  nonce?: string
}

export function isSocialProvider(v: string | undefined): v is SocialProvider {
  return v !== undefined && (SOCIAL_PROVIDERS as readonly string[]).includes(v)
}

/**
 * The provider of `/auth/{provider}/start|redirect` (app/routes.ts declares those routes for the
 * known providers only, so the path has no parameter); null for anything else.
 */
export function socialProviderOf(request: Request): SocialProvider | null {
  const segment = new URL(request.url).pathname.split('/')[2]
  return isSocialProvider(segment) ? segment : null
}

const options = (request: Request) => ({
  httpOnly: true,
  // Lax: sent on the provider's top-level redirect back to us
  sameSite: 'lax' as const,
  secure: cookiesSecure(request),
  path: '/',
})

export function socialFlowCookie(flow: SocialFlow, request: Request): string {
  const value = Buffer.from(JSON.stringify(flow), 'utf8').toString('base64url')
  return serialize(socialFlowCookieName(request), value, { ...options(request), maxAge: MAX_AGE_SECONDS })
}

export function clearSocialFlowCookie(request: Request): string {
  return serialize(socialFlowCookieName(request), '', {
    ...options(request),
    maxAge: 0,
    expires: new Date(0),
  })
}

/** The flow of this provider, or a plain sign-in back to `/` (with no nonce) when the cookie is gone. */
export function readSocialFlow(request: Request, provider: SocialProvider): SocialFlow {
  const raw = parse(request.headers.get('cookie') ?? '')[socialFlowCookieName(request)]
  try {
    const v = JSON.parse(Buffer.from(raw ?? '', 'base64url').toString('utf8')) as Partial<SocialFlow>
    if (v.provider === provider)
      return {
        provider,
        mode: v.mode === 'bind' ? 'bind' : 'auth',
        returnTo: safeReturnTo(v.returnTo),
        nonce: typeof v.nonce === 'string' && v.nonce.length <= 128 ? v.nonce : undefined,
      }
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
