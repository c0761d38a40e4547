// One way to change a row from the back-office: read it under a lock, write only what changed,
// and audit the difference, all in one transaction.
import { eq } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Tx } from '../../db/client'
import { refuse } from '../../lib/domain-error'
import { audit, changedFields } from './audit'
import type { StaffMember } from './roles'

export async function patchAudited<Row extends Record<string, unknown>>(
  tx: Tx,
  staff: StaffMember,
  target: { table: PgTable; id: PgColumn; entity: string },
  id: number | string,
  patch: Partial<Row>,
  check?: (merged: Row) => void,
): Promise<Row> {
  // biome-ignore lint/suspicious/noExplicitAny: drizzle's generic table types do not narrow here
  const t = target.table as any
  const [before] = (await tx.select().from(t).where(eq(target.id, id)).for('update')) as Row[]
  if (!before) throw refuse('not_found')
  check?.({ ...before, ...stripUndefined(patch) } as Row)
  const diff = changedFields(before, patch)
  if (!diff.changed) return before
  const [after] = (await tx.update(t).set(diff.after).where(eq(target.id, id)).returning()) as Row[]
  await audit(tx, staff, {
    action: `${target.entity}.update`,
    entity: target.entity,
    entityId: id,
    before: diff.before,
    after: diff.after,
  })
  return after ?? before
}

function stripUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>
}
