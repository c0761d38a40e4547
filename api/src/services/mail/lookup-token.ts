// The order look-up link's token: an encrypted, authenticated JWT (JWE, dir + A256GCM) that says
// "the holder reads the orders of this email until this time". Encrypted so that the email never
// shows in a URL (logs, history); its key is derived from JWT_SECRET for this one purpose, so a
// token of any other kind does not even decrypt here, and every instance sharing JWT_SECRET
// accepts it. Nothing is stored. See docs/decisions/017-order-lookup-links.md.
import { hkdfSync } from 'node:crypto'
import { EncryptJWT, jwtDecrypt } from 'jose'

export const LOOKUP_PURPOSE = 'order_lookup'
export const LOOKUP_TTL_SECONDS = 24 * 3600

const keys = new Map<string, Uint8Array>()

/** A 256-bit key for `purpose`, derived from the JWT secret (HKDF-SHA256). */
export function purposeKey(secret: string, purpose: string): Uint8Array {
  const id = `${purpose}\u0000${secret}`
  let key = keys.get(id)
  if (!key) {
    key = new Uint8Array(hkdfSync('sha256', secret, 'shop-link-token', `v1:${purpose}`, 32))
    keys.set(id, key)
  }
  return key
}

/** A link token for `email`, valid 24 hours from `now`. */
export async function signLookupToken(secret: string, email: string, now = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000)
  return new EncryptJWT({ pur: LOOKUP_PURPOSE, email })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setIssuedAt(iat)
    .setExpirationTime(iat + LOOKUP_TTL_SECONDS)
    .encrypt(purposeKey(secret, LOOKUP_PURPOSE))
}

/** The email a valid, unexpired look-up token was made for, or null. */
export async function verifyLookupToken(
  secret: string,
  token: string,
  now = new Date(),
): Promise<{ email: string; expires: Date } | null> {
  try {
    const { payload } = await jwtDecrypt(token, purposeKey(secret, LOOKUP_PURPOSE), {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
      currentDate: now,
    })
    if (
      payload.pur !== LOOKUP_PURPOSE ||
      typeof payload.email !== 'string' ||
      typeof payload.exp !== 'number'
    )
      return null
    return { email: payload.email, expires: new Date(payload.exp * 1000) }
  } catch {
    return null
  }
}
