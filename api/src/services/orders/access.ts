import { eq } from 'drizzle-orm'
import { z } from 'zod'
import type { Db, Tx } from '../../db/client'
import { orders, users } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import type { Actor } from '../actor'

export type OrderRow = typeof orders.$inferSelect

// zod's own UUID check: the one the routes' schemas use and the contract publishes (lib/schemas.ts)
const UUID_RE = z.regexes.uuid()

export const isUuid = (id: string) => UUID_RE.test(id)

/**
 * The one access rule for every order endpoint. An order placed by a signed-in user is visible
 * only to that user; anyone else gets the same 404 as for a missing order, so the answer never
 * reveals that the id exists. A guest order is reachable by anyone holding its (unguessable) id.
 * A malformed id is a 400. `lock` takes a row lock (inside a transaction) for read-modify-write.
 */
export async function loadOrderForCaller(
  db: Db | Tx,
  actor: Pick<Actor, 'userId'>,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<OrderRow> {
  if (!isUuid(id)) throw refuse('order_id_invalid')
  const q = db.select().from(orders).where(eq(orders.id, id.toLowerCase()))
  const [order] = opts.lock ? await q.for('update') : await q
  if (!order || !canSee(order, actor.userId)) throw refuse('order_not_found')
  return order
}

/** Whether a caller (user id, or null for a guest) may see and change an order. */
export function canSee(order: Pick<OrderRow, 'userId'>, callerId: number | null): boolean {
  return order.userId === null || order.userId === callerId
}

/** The email an order of this caller goes under: the one given, else the signed-in account's. */
export async function buyerEmail(db: Db | Tx, given: string | null | undefined, userId: number | null) {
  if (given?.trim()) return given.trim().toLowerCase()
  if (userId === null) return null
  const [u] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId))
  return u?.email?.toLowerCase() ?? null
}
