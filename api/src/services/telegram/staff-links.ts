// Staff members' Telegram links as the back-office manages them: who linked, which alerts each
// gets (the owner chooses), and undoing a link (its owner, or an owner). Changes are audited.
import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { type TelegramAlert, telegramStaff, users } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'

/** The alerts a staff member may get in Telegram (the back-office's form offers them). */
export { TELEGRAM_ALERTS } from '../../db/schema'

/** Linked staff (one, or all), as the back-office shows them. */
export async function linkedStaff(db: Db, userId?: number) {
  const q = db
    .select({ link: telegramStaff, email: users.email })
    .from(telegramStaff)
    .innerJoin(users, eq(users.id, telegramStaff.userId))
  const list = await (userId === undefined ? q : q.where(eq(telegramStaff.userId, userId))).orderBy(
    telegramStaff.userId,
  )
  return list.map((r) => ({
    user_id: r.link.userId,
    email: r.email ?? '',
    telegram_name: r.link.tgName,
    alerts: r.link.alerts,
    linked_at: r.link.linkedAt.toISOString(),
  }))
}

/** Sets the alerts a linked staff member gets; returns the link as shown (404 when not linked). */
export async function chooseStaffAlerts(db: Db, staff: StaffMember, userId: number, chosen: TelegramAlert[]) {
  const alerts = [...new Set(chosen)]
  const changed = await db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(telegramStaff)
      .where(eq(telegramStaff.userId, userId))
      .for('update')
    if (!before) return false
    await tx.update(telegramStaff).set({ alerts }).where(eq(telegramStaff.userId, userId))
    await audit(tx, staff, {
      action: 'telegram.alerts',
      entity: 'user',
      entityId: String(userId),
      before: { alerts: before.alerts },
      after: { alerts },
    })
    return true
  })
  if (!changed) throw refuse('not_found')
  const [row] = await linkedStaff(db, userId)
  return row!
}

/** Undoes a staff member's link: their own, or anyone's for an owner (404 when not linked). */
export async function unlinkStaff(db: Db, staff: StaffMember, userId: number): Promise<void> {
  if (userId !== staff.userId && staff.role !== 'owner') throw refuse('admin_forbidden')
  const gone = await db.transaction(async (tx) => {
    const [row] = await tx.delete(telegramStaff).where(eq(telegramStaff.userId, userId)).returning()
    if (row)
      await audit(tx, staff, {
        action: 'telegram.unlink',
        entity: 'user',
        entityId: String(userId),
        before: { telegram_name: row.tgName },
        after: null,
      })
    return row
  })
  if (!gone) throw refuse('not_found')
}
