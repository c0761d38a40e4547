import type { Context, MiddlewareHandler } from 'hono'
import { jwtVerify, SignJWT } from 'jose'
import type { AppEnv } from '../context'
import { sessionIsLive } from '../services/auth/sessions'
import { fail } from './errors'

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
 * The user and sign-in of a well-signed, unexpired access token, or null. Only HS256, and `exp` is
 * required: a token without one (which the API never issues) would never end.
 */
export async function verifyAccessToken(
  secret: string,
  token: string,
): Promise<{ userId: number; sessionId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), {
      algorithms: ['HS256'],
      requiredClaims: ['exp', 'sub'],
    })
    if (payload.typ !== 'access' || !payload.sub || typeof payload.sid !== 'string') return null
    const userId = Number(payload.sub)
    return Number.isSafeInteger(userId) ? { userId, sessionId: payload.sid } : null
  } catch {
    return null
  }
}

/**
 * Reads `Authorization: Bearer …`; a present but invalid token is a 401 so clients refresh. The
 * token's sign-in is checked on every request, so sign-out, a password change or reset and account
 * deletion end it at once, not when the token expires.
 */
export const bearerAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('authorization')
  c.set('userId', null)
  c.set('sessionId', null)
  if (header?.startsWith('Bearer ')) {
    const claims = await verifyAccessToken(c.var.deps.config.jwtSecret, header.slice(7).trim())
    if (!claims || !(await sessionIsLive(c.var.deps.db, claims.userId, claims.sessionId)))
      throw fail(401, 'token_not_valid')
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
