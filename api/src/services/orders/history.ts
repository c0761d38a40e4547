// The signed-in buyer's order history (GET /api/orders/): one page of the account's orders, newest
// first, each code it shows logged as a view (code-views.ts).
import { and, count, desc, eq, type SQL } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import { type OrderStatus, orders } from '../../db/schema'
import type { Actor } from '../actor'
import { accountOrdersFilter } from './account-orders'
import { logCodeViews } from './code-views'
import { serializeOrderHistory } from './serialize'
import type { OrderHistoryOut } from './wire-types'

export { ORDER_STATUSES } from '../../db/schema'

export interface OrderHistoryQuery {
  page: number
  pageSize: number
  status?: OrderStatus
}

/** One page of account `userId`'s orders (its own and its confirmed email's paid guest orders). */
export async function orderHistoryPage(
  deps: Pick<ApiDeps, 'db'>,
  actor: Actor,
  userId: number,
  { page, pageSize, status }: OrderHistoryQuery,
): Promise<{ total: number; results: OrderHistoryOut[] }> {
  const { db } = deps
  // the account's orders and the guest orders of its confirmed email
  const where: SQL[] = [await accountOrdersFilter(db, userId)]
  if (status) where.push(eq(orders.status, status))
  const [total] = await db
    .select({ n: count() })
    .from(orders)
    .where(and(...where))
  const rows = await db
    .select()
    .from(orders)
    .where(and(...where))
    .orderBy(desc(orders.created), desc(orders.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize)
  const results = await serializeOrderHistory(db, rows)
  await logCodeViews(db, actor, 'history', results)
  return { total: total?.n ?? 0, results }
}
