import type { Context, MiddlewareHandler } from 'hono'
import type { ApiDeps, AppEnv } from '../context'
import type { UserRow } from '../services/auth/accounts'
import { liveBearer } from '../services/auth/sessions'
import { fail } from './errors'
import type { BearerClaims } from './in-process'

function checkBearer(deps: ApiDeps, token: string): Promise<BearerClaims | null> {
  return liveBearer(deps.db, deps.config.jwtSecret, token)
}

/**
 * Operations that never read a bearer token: health (a balancer's probe answers its own shape even
 * with a token while the database is away, when a token could not be checked), the token endpoints (sign-in, refresh, sign-out), as
 * in the spec's backend, whose token views authenticate nobody — a client refreshing an expired
 * access token sends it along out of habit — and the payment providers' server-to-server
 * notifications. Everything else answers 401 to a token that is not valid, and says so in the
 * contract (lib/openapi-conventions.ts).
 */
export const TOKEN_FREE_OPERATIONS: ReadonlySet<string> = new Set([
  'GET /api/health/',
  'POST /api/auth/jwt/create/',
  'POST /api/auth/jwt/refresh/',
  'POST /api/auth/logout/',
  'POST /api/payments/payselection/webhook/',
  'POST /api/payments/getpay/notify/',
  'POST /api/payments/yookassa/notify/',
])

export const takesNoBearer = (method: string, path: string) => {
  const m = method.toUpperCase()
  // HEAD is answered by its GET handler
  return TOKEN_FREE_OPERATIONS.has(`${m === 'HEAD' ? 'GET' : m} ${path}`)
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
  c.set('user', null)
  if (header?.startsWith('Bearer ') && !takesNoBearer(c.req.method, c.req.path)) {
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
    c.set('user', claims.user)
  }
  await next()
}

/**
 * The signed-in account as the bearer check read it (in the same query), or null for guests. In a
 * storefront request's later reads it is the row of that request's first check: only a write of
 * the same request can change it, and a write is checked on its own.
 */
export function bearerUser(c: Context<AppEnv>): UserRow | null {
  return c.var.user
}

export function requireUser(c: Context<AppEnv>): number {
  const id = c.var.userId
  if (id === null) throw fail(401, 'not_authenticated')
  return id
}
