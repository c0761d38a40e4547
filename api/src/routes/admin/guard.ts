// The back-office's door. Every /api/admin/ call is answered as an unknown address (404) unless
// the caller is staff, so guests and shoppers get no hint that it exists; a support member
// calling an owner operation gets 403, before its input is even read. Changes are counted per
// staff member (ADMIN_WRITE_LIMIT per ADMIN_WRITE_WINDOW seconds, in the database so every
// instance shares the count); over it the answer is 429 with Retry-After.
import { createRoute, type RouteConfig } from '@hono/zod-openapi'
import type { Context, MiddlewareHandler } from 'hono'
import type { AppEnv } from '../../context'
import { errorResponses } from '../../lib/schemas'
import { fail, message } from '../../lib/errors'
import { hitRateLimit } from '../../services/rate-limit'
import {
  isPendingOwner,
  roleAllows,
  type StaffMember,
  type StaffRole,
  staffMember,
} from '../../services/admin/roles'

/** The role each back-office operation needs, filled as the operations are declared. */
const ROLES: Array<{ method: string; pattern: RegExp; role: StaffRole }> = []

const patternOf = (path: string) => new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`)

/** What the door above means for an operation needing `role`, said in its contract description. */
const ROLE_NOTE: Record<StaffRole, string> = {
  support: 'Staff only (support or owner); anyone else gets 404, as for an unknown address.',
  owner: 'Owner only: support staff get 403; anyone who is not staff gets 404, as for an unknown address.',
}
const WRITE_NOTE = 'Counts towards the per-staff write limit (429 with Retry-After beyond it).'

/**
 * Declares a back-office operation and the role it needs; the role is also written into the
 * contract (`x-role`, and a sentence of the description) for clients and tests.
 */
export function adminRoute<const R extends Omit<RouteConfig, 'tags'>>(role: StaffRole, def: R) {
  ROLES.push({ method: def.method.toUpperCase(), pattern: patternOf(def.path), role })
  const write = isWrite(def.method)
  const responses = write ? { ...def.responses, ...errorResponses(429) } : def.responses
  const description = [def.description, ROLE_NOTE[role], write ? WRITE_NOTE : null].filter(Boolean).join(' ')
  return createRoute({ ...def, description, responses, tags: ['admin'], 'x-role': role })
}

const isWrite = (method: string) => !['GET', 'HEAD'].includes(method.toUpperCase())

const neededRole = (method: string, path: string): StaffRole =>
  ROLES.find((r) => r.method === method && r.pattern.test(path))?.role ?? 'owner'

export const adminGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const userId = c.var.userId
  const { db, config } = c.var.deps
  const staff = userId === null ? null : await staffMember(db, userId, config.adminEmails)
  if (!staff) {
    // the ADMIN_EMAILS owner before confirming is told why; everyone else meets an unknown address
    if (userId !== null && (await isPendingOwner(db, userId, config.adminEmails)))
      throw fail(403, 'owner_email_unconfirmed')
    return c.json({ detail: message('route_not_found', { path: c.req.path }), code: 'not_found' }, 404)
  }
  if (!roleAllows(staff.role, neededRole(c.req.method, c.req.path))) throw fail(403, 'admin_forbidden')
  if (isWrite(c.req.method)) {
    const { perStaff, windowSeconds } = config.adminWriteLimit
    const hit = await hitRateLimit(db, `admin:write:${staff.userId}`, perStaff, windowSeconds)
    if (!hit.allowed) {
      c.header('Retry-After', String(hit.retryAfter))
      throw fail(429, 'rate_limited', { seconds: hit.retryAfter })
    }
  }
  c.set('staff', staff)
  await next()
  c.header('cache-control', 'no-store')
}

/** The staff member behind this call (the guard has checked the operation's role). */
export function staffOf(c: Context<AppEnv>): StaffMember {
  const staff = c.var.staff
  if (!staff) throw fail(403, 'admin_forbidden')
  return staff
}
