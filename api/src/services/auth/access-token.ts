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
