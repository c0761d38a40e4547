// The audit log of the back-office: every change, written in the change's own transaction.
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
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

/** One page of the audit log, newest first, of one entity kind (and id) or of everything. */
export async function auditPage(
  db: Db,
  filter: { entity?: string; entityId?: string },
  page: number,
  size: number,
): Promise<{ count: number; rows: Array<typeof auditLog.$inferSelect> }> {
  const where: SQL[] = []
  if (filter.entity) where.push(eq(auditLog.entity, filter.entity))
  if (filter.entityId) where.push(eq(auditLog.entityId, filter.entityId))
  const cond = where.length ? and(...where) : undefined
  const [total] = await db.select({ n: count() }).from(auditLog).where(cond)
  const rows = await db
    .select()
    .from(auditLog)
    .where(cond)
    .orderBy(desc(auditLog.id))
    .limit(size)
    .offset((page - 1) * size)
  return { count: total?.n ?? 0, rows }
}
