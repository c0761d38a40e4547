// The demo's staff accounts (their passwords are in the README) exist only in demo mode (issue 42,
// finding 2). A production `SEED_DEMO=1` seeds the catalogue without them, and a production start
// that finds one (left from an earlier demo on the same database) disables it: its roles go
// (audited), its password and every sign-in end, and the log and the overview say so.
import { eq, inArray } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { staffRoles, users } from '../../db/schema'
import { log } from '../../lib/log'
import { openEventAlert } from '../alerts/events'
import { revokeAllForUser } from '../auth/tokens'
import { fill, M } from '../mail/messages'
import { revokeRole } from './roles'

export const DEMO_OWNER_EMAIL = 'owner@igromarket.demo'
export const DEMO_SUPPORT_EMAIL = 'support@igromarket.demo'
export const DEMO_STAFF_EMAILS = [DEMO_OWNER_EMAIL, DEMO_SUPPORT_EMAIL] as const

/**
 * Disables every demo staff account that can still get in or holds a role; the emails disabled.
 * Safe at every start and from several instances at once (a disabled account is not found again).
 */
export async function disableDemoStaff(db: Db): Promise<string[]> {
  const demo = await db
    .select({ id: users.id, email: users.email, hash: users.passwordHash, role: staffRoles.role })
    .from(users)
    .leftJoin(staffRoles, eq(staffRoles.userId, users.id))
    .where(inArray(users.email, [...DEMO_STAFF_EMAILS]))
  const disabled: string[] = []
  for (const u of demo) {
    if (!u.email || (!u.role && !u.hash)) continue
    await revokeRole(db, u.id, 'production start: demo account')
    await db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash: null }).where(eq(users.id, u.id))
      await revokeAllForUser(tx, u.id)
    })
    disabled.push(u.email)
  }
  if (!disabled.length) return disabled
  log.warn(
    { accounts: disabled },
    'demo staff accounts found in production were disabled (roles taken away, password and sign-ins ended): their passwords are public',
  )
  await openEventAlert(db, {
    cause: 'demo_staff_disabled',
    detail: fill(M.staff_alerts.details.demo_staff_disabled, { accounts: disabled.join(', ') }),
    link: '/admin',
    audience: 'owner',
  })
  return disabled
}
