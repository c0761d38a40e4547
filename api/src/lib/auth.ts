import type { Context, MiddlewareHandler } from 'hono'
import { jwtVerify, SignJWT } from 'jose'
import type { ApiDeps, AppEnv } from '../context'
import { sessionIsLive } from '../services/auth/sessions'
import { fail } from './errors'
import type { BearerClaims } from './in-process'

const enc = new TextEncoder()
const keyCache = new Map<string, Uint8Array>()
const key = (secret: string) => {
  let k = keyCache.get(secret)
  if (!k) {
    k = enc.encode(secret)
    keyCache.set(secret, k)
  }
  return k
}

/** An access token of one sign-in (`sid`: its refresh token family, checked on every request). */
export async function signAccessToken(
  secret: string,
  userId: number,
  ttlSeconds: number,
  sessionId: string,
): Promise<string> {
  return new SignJWT({ typ: 'access', sid: sessionId })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key(secret))
}

/**
 * Tokens whose signature was checked, with their expiry: the same token comes with every request
 * of a signed-in buyer, and a signature check through WebCrypto (key import, then HMAC) was the
 * dearest part of the bearer check. Only what the token itself proves is kept; whether its
 * sign-in is still live is asked every time (bearerAuth). Bounded; emptied when full.
 */
const verified = new Map<string, { claims: BearerClaims; expiresAtMs: number }>()
const VERIFIED_TOKENS_MAX = 4096

/**
 * The user and sign-in of a well-signed, unexpired access token, or null. Only HS256, and `exp` is
 * required: a token without one (which the API never issues) would never end.
 */
export async function verifyAccessToken(secret: string, token: string): Promise<BearerClaims | null> {
  const cacheKey = `${secret}\u0000${token}`
  const seen = verified.get(cacheKey)
  if (seen) return seen.expiresAtMs > Date.now() ? seen.claims : null
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'sub'],
    })
    if (payload.typ !== 'access' || !payload.sub || typeof payload.sid !== 'string') return null
    const userId = Number(payload.sub)
    if (!Number.isSafeInteger(userId)) return null
    const claims = { userId, sessionId: payload.sid }
    if (verified.size >= VERIFIED_TOKENS_MAX) verified.clear()
    verified.set(cacheKey, { claims, expiresAtMs: (payload.exp ?? 0) * 1000 })
    return claims
  } catch {
    return null
  }
}

async function checkBearer(deps: ApiDeps, token: string): Promise<BearerClaims | null> {
  const claims = await verifyAccessToken(deps.config.jwtSecret, token)
  return claims && (await sessionIsLive(deps.db, claims.userId, claims.sessionId)) ? claims : null
}

/**
 * Reads `Authorization: Bearer …`; a present but invalid token is a 401 so clients refresh. The
 * token's sign-in is checked on every request, so sign-out, a password change or reset and account
 * deletion end it at once, not when the token expires. The storefront's calls in this process
 * share one check per storefront request (lib/in-process.ts): a page's loaders send the same token
 * several times within a few milliseconds. A write (anything but GET or HEAD) is checked on its own
 * and empties that memo, since it may itself end a sign-in.
 */
export const bearerAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('authorization')
  c.set('userId', null)
  c.set('sessionId', null)
  if (header?.startsWith('Bearer ')) {
    const token = header.slice(7).trim()
    const memo = c.env?.inProcess?.bearers
    const read = c.req.method === 'GET' || c.req.method === 'HEAD'
    if (memo && !read) memo.clear()
    let check = read ? memo?.get(token) : undefined
    if (!check) {
      check = checkBearer(c.var.deps, token)
      if (memo && read) {
        const kept = check
        memo.set(token, kept)
        // a failed check (the database down) is not remembered: the next call tries again
        kept.catch(() => memo.get(token) === kept && memo.delete(token))
      }
    }
    const claims = await check
    if (!claims) throw fail(401, 'token_not_valid')
    c.set('userId', claims.userId)
    c.set('sessionId', claims.sessionId)
  }
  await next()
}

export function requireUser(c: Context<AppEnv>): number {
  const id = c.var.userId
  if (id === null) throw fail(401, 'not_authenticated')
  return id
}
