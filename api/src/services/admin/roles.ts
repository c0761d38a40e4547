// Who may use the back-office. Two roles: `support` (orders: view, notes, resend mail, retry
// fulfilment, refund) and `owner` (everything). An owner is a user with an `owner` row in
// staff_roles, or a user whose confirmed email is in ADMIN_EMAILS. A confirmed email means its
// owner holds every way into the account (a confirmation from outside the account hands it over,
// decision 045). Every role gained or lost is audited (role-audit.ts).
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type StaffRole, staffRoles, users } from '../../db/schema'
import { isEmailConfirmed } from '../auth/email-confirmation'
import { auditRoleChange, reconcileRole } from './role-audit'

const RANK: Record<StaffRole, number> = { support: 1, owner: 2 }

/** True when `role` may do what `needed` allows. */
export const roleAllows = (role: StaffRole | null, needed: StaffRole) =>
  role !== null && RANK[role] >= RANK[needed]

export interface StaffMember {
  userId: number
  email: string
  role: StaffRole
}

/** The staff role of a signed-in user, or null for shoppers (and deleted accounts). */
export async function staffMember(
  db: Db | Tx,
  userId: number,
  adminEmails: readonly string[],
): Promise<StaffMember | null> {
  const [row] = await db
    .select({ email: users.email, deletedAt: users.deletedAt, role: staffRoles.role })
    .from(users)
    .leftJoin(staffRoles, eq(staffRoles.userId, users.id))
    .where(eq(users.id, userId))
  if (!row) return null
  const gone = !row.email || row.deletedAt
  const byEmail =
    !gone && adminEmails.includes(row.email!.toLowerCase()) && (await isEmailConfirmed(db, userId))
  const role: StaffRole | null = gone ? null : byEmail ? 'owner' : (row.role ?? null)
  const via = gone ? 'account deleted' : byEmail || !row.role ? 'ADMIN_EMAILS' : 'staff_roles'
  await reconcileRole(db, userId, row.email, role, via)
  return role ? { userId, email: row.email!, role } : null
}

/**
 * True for a signed-in account whose email is in ADMIN_EMAILS but not confirmed yet: the owner to
 * be, who is told to confirm (issue 37) instead of meeting the back-office's 404.
 */
export async function isPendingOwner(db: Db | Tx, userId: number, adminEmails: readonly string[]) {
  const [row] = await db
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
  if (!row?.email || row.deletedAt || !adminEmails.includes(row.email.toLowerCase())) return false
  return !(await isEmailConfirmed(db, userId))
}

/** Grants (or changes) a role by email; the account must exist. Returns the user id. */
export async function grantRole(db: Db, email: string, role: StaffRole, grantedBy: string): Promise<number> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
  if (!user) throw new Error(`no account with the email ${email}: sign up first`)
  await db.transaction(async (tx) => {
    const [old] = await tx.select().from(staffRoles).where(eq(staffRoles.userId, user.id))
    await tx
      .insert(staffRoles)
      .values({ userId: user.id, role, grantedBy })
      .onConflictDoUpdate({ target: staffRoles.userId, set: { role, grantedBy } })
    if (old?.role !== role)
      await auditRoleChange(tx, {
        userId: user.id,
        email,
        before: old?.role ?? null,
        after: role,
        via: grantedBy,
      })
  })
  return user.id
}

export async function revokeRole(db: Db, userId: number, revokedBy = 'cli'): Promise<void> {
  await db.transaction(async (tx) => {
    const gone = await tx.delete(staffRoles).where(eq(staffRoles.userId, userId)).returning()
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId))
    if (gone[0])
      await auditRoleChange(tx, {
        userId,
        email: user?.email ?? null,
        before: gone[0].role,
        after: null,
        via: revokedBy,
      })
  })
}
