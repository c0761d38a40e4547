import type { Context, MiddlewareHandler } from 'hono'
import { jwtVerify, SignJWT } from 'jose'
import type { AppEnv } from '../context'
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

export async function signAccessToken(secret: string, userId: number, ttlSeconds: number): Promise<string> {
  return new SignJWT({ typ: 'access' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(userId))
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(key(secret))
}

/** The user id of a valid access token, or null. */
export async function verifyAccessToken(secret: string, token: string): Promise<number | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { algorithms: ['HS256'] })
    if (payload.typ !== 'access' || !payload.sub) return null
    const id = Number(payload.sub)
    return Number.isSafeInteger(id) ? id : null
  } catch {
    return null
  }
}

/** Reads `Authorization: Bearer …`; a present but invalid token is a 401 so clients refresh. */
export const bearerAuth: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header('authorization')
  c.set('userId', null)
  if (header?.startsWith('Bearer ')) {
    const userId = await verifyAccessToken(c.var.deps.config.jwtSecret, header.slice(7).trim())
    if (userId === null) throw fail(401, 'token_not_valid')
    c.set('userId', userId)
  }
  await next()
}

export function requireUser(c: Context<AppEnv>): number {
  const id = c.var.userId
  if (id === null) throw fail(401, 'not_authenticated')
  return id
}
