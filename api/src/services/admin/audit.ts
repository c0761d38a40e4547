// The audit log of the back-office: every change, written in the change's own transaction.
import type { Db, Tx } from '../../db/client'
import { auditLog } from '../../db/schema'
import type { StaffMember } from './roles'

export interface AuditEntry {
  action: string
  entity: string
  entityId: string | number
  before?: unknown
  after?: unknown
}

export async function audit(db: Db | Tx, actor: StaffMember, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: actor.userId,
    actorEmail: actor.email,
    action: entry.action,
    entity: entry.entity,
    entityId: String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
  })
}

/** The fields of `after` that differ from `before` (both sides), for a readable audit entry. */
export function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>) {
  const b: Record<string, unknown> = {}
  const a: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(after)) {
    if (v === undefined) continue
    if (JSON.stringify(before[k]) !== JSON.stringify(v)) {
      b[k] = before[k]
      a[k] = v
    }
  }
  return { before: b, after: a, changed: Object.keys(a).length > 0 }
}
