// Who may use the back-office. Two roles: `support` (orders: view, notes, resend mail, retry
// fulfilment, refund) and `owner` (everything). An owner is a user with an `owner` row in
// staff_roles, or a user whose confirmed email is in ADMIN_EMAILS.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type StaffRole, staffRoles, users } from '../../db/schema'
import { isEmailConfirmed } from '../auth/email-confirmation'

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
  if (!row?.email || row.deletedAt) return null
  const byEmail = adminEmails.includes(row.email.toLowerCase()) && (await isEmailConfirmed(db, userId))
  const role: StaffRole | null = byEmail ? 'owner' : (row.role ?? null)
  return role ? { userId, email: row.email, role } : null
}

/** Grants (or changes) a role by email; the account must exist. Returns the user id. */
export async function grantRole(db: Db, email: string, role: StaffRole, grantedBy: string): Promise<number> {
  const [user] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
  if (!user) throw new Error(`no account with the email ${email}: sign up first`)
  await db
    .insert(staffRoles)
    .values({ userId: user.id, role, grantedBy })
    .onConflictDoUpdate({ target: staffRoles.userId, set: { role, grantedBy } })
  return user.id
}

export async function revokeRole(db: Db, userId: number): Promise<void> {
  await db.delete(staffRoles).where(eq(staffRoles.userId, userId))
}
