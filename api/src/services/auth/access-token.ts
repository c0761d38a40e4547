// Access tokens (HS256 JWTs): signing and checking only, a leaf module that imports no database or
// middleware, so the sign-in services and the bearer middleware both depend on it and not on each other.
import { jwtVerify, SignJWT } from 'jose'

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

/** What an access token proves by itself: its user and its sign-in. */
export interface AccessClaims {
  userId: number
  sessionId: string
}

/**
 * Tokens whose signature was checked, with their expiry: the same token comes with every request
 * of a signed-in buyer, and a signature check through WebCrypto (key import, then HMAC) was the
 * dearest part of the bearer check. Only what the token itself proves is kept; whether its
 * sign-in is still live is asked every time (bearerAuth). Bounded; emptied when full.
 */
const verified = new Map<string, { claims: AccessClaims; expiresAtMs: number }>()
const VERIFIED_TOKENS_MAX = 4096

/**
 * The user and sign-in of a well-signed, unexpired access token, or null. Only HS256, and `exp` is
 * required: a token without one (which the API never issues) would never end.
 */
export async function verifyAccessToken(secret: string, token: string): Promise<AccessClaims | null> {
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
