import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../context'
import { verifyAccessToken } from '../services/auth/access-token'
import { sessionIsLive } from '../services/auth/sessions'
import { fail } from './errors'

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
