// The shopper's session lives in two HttpOnly cookies, `access` and `refresh` (§3, §9). The browser
// never reads them: loaders and actions forward `access` to the API as a bearer token.
//
// Logout also clears the cart, which lives in the browser's localStorage where the server cannot
// reach it. The logout answer carries `Clear-Site-Data: "storage"`, on which the browser empties
// the site's storage at once, with or without JavaScript; for browsers that ignore it, logout also
// sets a readable cookie `cart_clear=1` that lasts until a script calls `consumeCartClearSignal()`
// from `#app/lib/api/cart-signal` (on load), which empties the stored cart and expires the cookie.
import { parse, serialize } from 'cookie'
import { CART_CLEAR_COOKIE } from '#app/lib/api/cart-signal'
import { isLocalHost } from '../../shared/local-host'

export { CART_CLEAR_COOKIE }
export const ACCESS_COOKIE = 'access'
export const REFRESH_COOKIE = 'refresh'

/** Token cookies last 30 days (§9). */
export const TOKEN_MAX_AGE_SECONDS = 30 * 24 * 60 * 60
/** Until the next page with JavaScript reads it, however late (a logout with JavaScript off). */
export const CART_CLEAR_MAX_AGE_SECONDS = 30 * 24 * 60 * 60

/** The header of the logout answer that empties the browser's storage for this site (the cart). */
export const CLEAR_STORAGE_HEADER = ['clear-site-data', '"storage"'] as const

export interface Tokens {
  access: string | null
  refresh: string | null
}

/** Secure everywhere except plain http on this machine (browsers drop Secure cookies over http). */
export function cookiesSecure(request: Request): boolean {
  const url = new URL(request.url)
  return !(url.protocol === 'http:' && isLocalHost(url))
}

/** The tokens the browser sent; an empty cookie counts as absent. */
export function readTokens(request: Request): Tokens {
  const cookies = parse(request.headers.get('cookie') ?? '')
  return { access: cookies[ACCESS_COOKIE] || null, refresh: cookies[REFRESH_COOKIE] || null }
}

function tokenCookie(name: string, value: string, request: Request, maxAge: number): string {
  return serialize(name, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookiesSecure(request),
    path: '/',
    maxAge,
    ...(maxAge === 0 ? { expires: new Date(0) } : {}),
  })
}

/** Set-Cookie values that store both tokens for 30 days. */
export function tokenCookies(tokens: { access: string; refresh: string }, request: Request): string[] {
  return [
    tokenCookie(ACCESS_COOKIE, tokens.access, request, TOKEN_MAX_AGE_SECONDS),
    tokenCookie(REFRESH_COOKIE, tokens.refresh, request, TOKEN_MAX_AGE_SECONDS),
  ]
}

/** Set-Cookie values that expire both token cookies. */
export function clearTokenCookies(request: Request): string[] {
  return [tokenCookie(ACCESS_COOKIE, '', request, 0), tokenCookie(REFRESH_COOKIE, '', request, 0)]
}

/** The readable, short-lived signal that tells the browser to empty its stored cart. */
export function cartClearCookie(request: Request): string {
  return serialize(CART_CLEAR_COOKIE, '1', {
    sameSite: 'lax',
    secure: cookiesSecure(request),
    path: '/',
    maxAge: CART_CLEAR_MAX_AGE_SECONDS,
  })
}

/** Everything logout sets (§4): both tokens expired and the stored cart cleared. */
export function logoutCookies(request: Request): string[] {
  return [...clearTokenCookies(request), cartClearCookie(request)]
}
