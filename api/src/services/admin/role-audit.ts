// Every back-office role gained or lost leaves an audit entry (issue 38, finding 7; decision 045).
// Roles come from two places: staff_roles rows (granted by the operator's CLI) and ADMIN_EMAILS
// (an environment list, matched against a confirmed email). The first is recorded where it is
// written; the second changes without any write of ours (an email confirmed, the list edited, the
// account deleted), so the role a user is found to have is compared with the last one recorded for
// them and a difference is written down the first time it is seen.
import { and, desc, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { auditLog, type StaffRole } from '../../db/schema'

export const ROLE_ACTION = 'staff.role'

export interface RoleChange {
  userId: number
  /** The account's email at the time (kept in the entry: the account may be deleted later). */
  email: string | null
  before: StaffRole | null
  after: StaffRole | null
  /** What made the change: `ADMIN_EMAILS`, `cli`, `account deleted`, … */
  via: string
}

export async function auditRoleChange(db: Db | Tx, change: RoleChange): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: null,
    actorEmail: change.via,
    action: ROLE_ACTION,
    entity: 'user',
    entityId: String(change.userId),
    before: { role: change.before, email: change.email },
    after: { role: change.after, email: change.email, via: change.via },
  })
}

/** The role last recorded for the user (null when none was, or the last entry took it away). */
export async function recordedRole(db: Db | Tx, userId: number): Promise<StaffRole | null> {
  const [row] = await db
    .select({ after: auditLog.after })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'user'),
        eq(auditLog.entityId, String(userId)),
        eq(auditLog.action, ROLE_ACTION),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1)
  return ((row?.after as { role?: StaffRole | null } | undefined)?.role ?? null) as StaffRole | null
}

/** Writes an entry when the role found now differs from the last one recorded. */
export async function reconcileRole(
  db: Db | Tx,
  userId: number,
  email: string | null,
  now: StaffRole | null,
  via: string,
): Promise<void> {
  const before = await recordedRole(db, userId)
  if (before !== now) await auditRoleChange(db, { userId, email, before, after: now, via })
}
