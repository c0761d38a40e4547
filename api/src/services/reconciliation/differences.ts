// The differences «Сверка» found, as the back-office reads them, and a person's explanation of
// one (with a note, in the audit log).
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { Db } from '../../db/client'
import {
  type ReconciliationKind,
  orders,
  type ReconciliationStatus,
  reconciliationDifferences,
  users,
} from '../../db/schema'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'

/** The kinds and states of a difference (the back-office filters by them). */
export { RECONCILIATION_KINDS, RECONCILIATION_STATUSES } from '../../db/schema'

export type DifferenceRow = typeof reconciliationDifferences.$inferSelect & {
  explainedByEmail: string | null
  /** The order's short number people read (decision 135); null without an order. */
  orderNumber: number | null
}

export interface DifferenceFilter {
  status?: ReconciliationStatus
  kind?: ReconciliationKind
  provider?: string
  limit: number
  offset: number
}

const columns = { row: reconciliationDifferences, email: users.email, number: orders.number }

const withEmail = (r: {
  row: typeof reconciliationDifferences.$inferSelect
  email: string | null
  number: number | null
}): DifferenceRow => ({
  ...r.row,
  explainedByEmail: r.email,
  orderNumber: r.number,
})

/** Newest first; `count` is of every row the filter matches. */
export async function listDifferences(db: Db, f: DifferenceFilter) {
  const where: SQL[] = []
  if (f.status) where.push(eq(reconciliationDifferences.status, f.status))
  if (f.kind) where.push(eq(reconciliationDifferences.kind, f.kind))
  if (f.provider) where.push(eq(reconciliationDifferences.provider, f.provider))
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(reconciliationDifferences)
      .leftJoin(users, eq(users.id, reconciliationDifferences.explainedBy))
      .leftJoin(orders, eq(orders.id, reconciliationDifferences.orderId))
      .where(and(...where))
      .orderBy(desc(reconciliationDifferences.occurredAt), desc(reconciliationDifferences.id))
      .limit(f.limit)
      .offset(f.offset),
    db
      .select({ n: count() })
      .from(reconciliationDifferences)
      .where(and(...where)),
  ])
  return { count: total?.n ?? 0, rows: rows.map(withEmail) }
}

export async function getDifference(db: Db, id: number): Promise<DifferenceRow | null> {
  const [r] = await db
    .select(columns)
    .from(reconciliationDifferences)
    .leftJoin(users, eq(users.id, reconciliationDifferences.explainedBy))
    .leftJoin(orders, eq(orders.id, reconciliationDifferences.orderId))
    .where(eq(reconciliationDifferences.id, id))
  return r ? withEmail(r) : null
}

/**
 * A person says why the books differ: the open difference becomes `explained` with the note.
 * null when there is no such difference; 'not_open' when it is already explained or resolved.
 */
export async function explainDifference(
  db: Db,
  actor: StaffMember,
  id: number,
  note: string,
  now = new Date(),
) {
  const done = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(reconciliationDifferences)
      .set({ status: 'explained', explainedAt: now, explainedBy: actor.userId, note })
      .where(and(eq(reconciliationDifferences.id, id), eq(reconciliationDifferences.status, 'open')))
      .returning({ id: reconciliationDifferences.id, key: reconciliationDifferences.key })
    if (!row) return false
    await audit(tx, actor, {
      action: 'reconciliation.explain',
      entity: 'reconciliation_difference',
      entityId: id,
      before: { status: 'open' },
      after: { status: 'explained', note },
    })
    return true
  })
  const row = await getDifference(db, id)
  if (!row) return null
  return done ? row : ('not_open' as const)
}

/** Every open difference (the staff alert names each; a shop has a handful, not thousands). */
export async function openDifferences(db: Db) {
  return db
    .select()
    .from(reconciliationDifferences)
    .where(eq(reconciliationDifferences.status, 'open'))
    .orderBy(reconciliationDifferences.id)
    .limit(200)
}
