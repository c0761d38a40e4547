// Who may use the back-office. Two roles: `support` (orders: view, notes, resend mail, retry
// fulfilment; the delivery desk, review, personal-data requests, their own Telegram link) and
// `owner` (everything: refunds, cancels and settings too; each operation's role is its `x-role`
// in the contract, routes/admin/guard.ts). An owner is a user with an `owner` row in
// staff_roles, or a user whose confirmed email is in ADMIN_EMAILS. Every role needs a confirmed
// email, whichever way it came (issue 42, finding 1): a confirmed email means its owner holds every
// way into the account (a confirmation from outside the account hands it over, decision 045), an
// unconfirmed one may be anyone's. Every role gained or lost, and every grant refused, is audited.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { auditLog, type StaffRole, staffRoles, users } from '../../db/schema'
import { isEmailConfirmed } from '../auth/email-confirmation'
import { auditRoleChange, reconcileRole } from './role-audit'

/** The roles, and a role's type, as the back-office's routes declare them. */
export { STAFF_ROLES, type StaffRole } from '../../db/schema'

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
    .select({
      email: users.email,
      deletedAt: users.deletedAt,
      confirmedAt: users.emailConfirmedAt,
      role: staffRoles.role,
    })
    .from(users)
    .leftJoin(staffRoles, eq(staffRoles.userId, users.id))
    .where(eq(users.id, userId))
  if (!row) return null
  const gone = !row.email || row.deletedAt
  // a role row of an account nobody proved is not honoured (a grant made before this rule, a row
  // written by hand): the role comes back once the email is confirmed
  const proven = !gone && row.confirmedAt !== null
  const byEmail = proven && adminEmails.includes(row.email!.toLowerCase())
  const role: StaffRole | null = !proven ? null : byEmail ? 'owner' : (row.role ?? null)
  const via = gone
    ? 'account deleted'
    : !proven && row.role
      ? 'email unconfirmed'
      : byEmail || !row.role
        ? 'ADMIN_EMAILS'
        : 'staff_roles'
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

/** Why a grant was refused: no such account, or its email was never confirmed. */
export class GrantRefused extends Error {
  constructor(
    readonly reason: 'no_account' | 'email_unconfirmed',
    message: string,
  ) {
    super(message)
  }
}

export const GRANT_REFUSED_ACTION = 'staff.role_refused'

/** The account a grant or a revocation names (deleted accounts are not found). */
export async function accountByEmail(db: Db | Tx, email: string) {
  const [user] = await db
    .select({ id: users.id, confirmedAt: users.emailConfirmedAt, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.email, email.trim().toLowerCase()))
  return user && !user.deletedAt ? user : null
}

/**
 * Grants (or changes) a role by email. The account must exist and its email must be confirmed
 * (issue 42): otherwise a GrantRefused says what to do, and the refusal is audited. Returns the
 * user id.
 */
export async function grantRole(db: Db, email: string, role: StaffRole, grantedBy: string): Promise<number> {
  const address = email.trim().toLowerCase()
  const user = await accountByEmail(db, address)
  if (!user?.confirmedAt) {
    await db.insert(auditLog).values({
      actorUserId: null,
      actorEmail: grantedBy,
      action: GRANT_REFUSED_ACTION,
      entity: 'user',
      entityId: user ? String(user.id) : address,
      after: { role, email: address, reason: user ? 'email_unconfirmed' : 'no_account' },
    })
    if (!user)
      throw new GrantRefused(
        'no_account',
        `There is no account with the email ${address}. The person signs up on the shop first (with this address), confirms it from the mail, and then you grant the role.`,
      )
    throw new GrantRefused(
      'email_unconfirmed',
      `The account ${address} has not confirmed its email, so nobody has proved it belongs to that person: no role was granted. Ask them to open the confirmation link mailed to ${address} (or press «Отправить письмо ещё раз» in their profile), then run this command again.`,
    )
  }
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
