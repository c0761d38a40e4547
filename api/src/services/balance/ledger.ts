// The balance ledger: the only writer of balance_entries and of users.balance. Each entry is
// written once per (kind, cause) and moves the cached users.balance in the same transaction by a
// guarded update, so the balance is always the sum of its entries and never below zero, even
// when many transactions spend it at once (the row lock orders them; PostgreSQL re-checks the
// guard against the committed balance; the CHECK constraint is the backstop).
import { and, count, desc, eq, gte, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type BalanceEntryKind, balanceEntries, orders, users } from '../../db/schema'
import { signedDelta } from './rules'

export { BALANCE_ENTRY_KINDS } from '../../db/schema'

export interface BalanceEntryInput {
  userId: number
  kind: BalanceEntryKind
  /** Kopecks: positive for cashback, refund and spend (see rules.signedDelta); signed for a correction. */
  amount: number
  /** What caused it, unique per kind: an order id, an admin request id. */
  cause: string
  orderId?: string | null
}

/** posted: written now; duplicate: this cause was written before (nothing changes); insufficient: the balance is too low. */
export type PostOutcome = 'posted' | 'duplicate' | 'insufficient'

class Insufficient extends Error {}

/**
 * Writes an entry and moves the balance, in a savepoint of the caller's transaction (so an
 * insufficient balance undoes the entry and nothing else). Safe to call again for the same cause.
 */
export async function postBalanceEntry(db: Db | Tx, input: BalanceEntryInput): Promise<PostOutcome> {
  const delta = signedDelta(input.kind, input.amount)
  try {
    return await db.transaction(async (sp) => {
      const [entry] = await sp
        .insert(balanceEntries)
        .values({
          userId: input.userId,
          amount: delta,
          kind: input.kind,
          cause: input.cause,
          orderId: input.orderId ?? null,
        })
        .onConflictDoNothing()
        .returning({ id: balanceEntries.id })
      if (!entry) return 'duplicate' as const
      const moved = await sp
        .update(users)
        .set({ balance: sql`${users.balance} + ${delta}` })
        .where(and(eq(users.id, input.userId), gte(sql`${users.balance} + ${delta}`, 0)))
        .returning({ id: users.id })
      if (moved.length === 0) throw new Insufficient()
      return 'posted' as const
    })
  } catch (e) {
    if (e instanceof Insufficient) return 'insufficient'
    throw e
  }
}

export interface BalanceEntryOut {
  id: number
  kind: BalanceEntryKind
  amount: number
  orderId: string | null
  /** The order's short number for people (decision 135); null without an order. */
  orderNumber: number | null
  created: Date
}

/** A page of a user's entries, newest first. */
export async function listBalanceEntries(
  db: Db,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ count: number; results: BalanceEntryOut[] }> {
  const [total] = await db
    .select({ n: count() })
    .from(balanceEntries)
    .where(eq(balanceEntries.userId, userId))
  const results = await db
    .select({
      id: balanceEntries.id,
      kind: balanceEntries.kind,
      amount: balanceEntries.amount,
      orderId: balanceEntries.orderId,
      orderNumber: orders.number,
      created: balanceEntries.created,
    })
    .from(balanceEntries)
    .leftJoin(orders, eq(orders.id, balanceEntries.orderId))
    .where(eq(balanceEntries.userId, userId))
    .orderBy(desc(balanceEntries.id))
    .limit(page.limit)
    .offset(page.offset)
  // Stryker disable next-line OptionalChaining: count() without GROUP BY always answers one row
  return { count: total?.n ?? 0, results }
}
