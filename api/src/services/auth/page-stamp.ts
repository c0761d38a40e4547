// What a signed-in buyer's own pages are made of, as one short value (issue 36, decision 103): the
// storefront keeps a rendered profile or pay page per buyer and this value, and renders it again
// as soon as the value changes. Every row version in PostgreSQL carries the transaction that wrote
// it (`xmin`), so a write to the account, its orders (with the guest orders of its confirmed email,
// services/orders/account-orders.ts), their lines, payments, refunds, receipts,
// code views or reviews, or its social accounts gives a new value in every instance at once, with
// no column or trigger to keep up. A pay page adds the stamp of its own order (a guest's order
// opened by its link is not the account's). A row written by a transaction that commits after a later one (an older xid
// below the newest) still changes the row count when it is new; an update of that kind waits for
// the cache time (CATALOGUE_CACHE_SECONDS), like every other copy the shop keeps.
import { and, eq, isNull, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client'
import { preparedPerDb } from '../../db/prepared'
import {
  codeViews,
  orderProducts,
  orderReviews,
  orders,
  payments,
  receipts,
  refunds,
  socialAccounts,
  users,
} from '../../db/schema'
import { ACCOUNT_ORDER_SQL } from '../orders/account-orders'
import { liveBearer } from './sessions'

/** `count.newest-xid` of a set of rows. */
const versionOf = (alias: string) =>
  sql.raw(`count(*)::text || '.' || coalesce(max(${alias}.xmin::text::bigint), 0)::text`)

/** The stamp of the account `userId`'s own data, or null when there is no such account. */
export async function pageStamp(db: Db, userId: number): Promise<string | null> {
  const [row] = await pageStampQuery(db).execute({ userId })
  return row?.stamp ?? null
}

/**
 * `u` is the account (the alias is written out: drizzle leaves a column of the selected table
 * unqualified in its select list, where `id` would mean the subquery's own); every part counts
 * rows through the account's orders or its id.
 */
const pageStampQuery = preparedPerDb((db) => {
  const u = alias(users, 'u')
  const viaOrders = (table: OrderChild) =>
    sql`(select ${versionOf('x')} from ${table} x join ${orders} o on o.id = x.order_id where ${ACCOUNT_ORDER_SQL})`
  return db
    .select({
      stamp: sql<string>`u.xmin::text
        || '/' || (select ${versionOf('o')} from ${orders} o where ${ACCOUNT_ORDER_SQL})
        || '/' || ${viaOrders(orderProducts)} || '/' || ${viaOrders(payments)}
        || '/' || ${viaOrders(refunds)} || '/' || ${viaOrders(receipts)} || '/' || ${viaOrders(codeViews)}
        || '/' || ${viaOrders(orderReviews)}
        || '/' || (select ${versionOf('s')} from ${socialAccounts} s where s.user_id = u.id)`,
    })
    .from(u)
    .where(and(eq(u.id, sql.placeholder('userId')), isNull(u.deletedAt)))
    .prepare('page_stamp')
})

/** The tables whose rows belong to an order (its `order_id`). */
type OrderChild =
  | typeof orderProducts
  | typeof payments
  | typeof refunds
  | typeof receipts
  | typeof codeViews
  | typeof orderReviews

/**
 * The stamp of one order and its rows, for its pay page: an order the account does not own (a
 * guest's, opened by its link) is not in the account's stamp.
 */
export async function orderStamp(db: Db, orderId: string): Promise<string> {
  const [row] = await orderStampQuery(db).execute({ orderId })
  return row?.stamp ?? 'none'
}

const orderStampQuery = preparedPerDb((db) => {
  const part = (table: OrderChild) =>
    sql`(select ${versionOf('x')} from ${table} x where x.order_id = ${sql.placeholder('orderId')})`
  return db
    .select({
      stamp: sql<string>`(select ${versionOf('o')} from ${orders} o where o.id = ${sql.placeholder('orderId')})
        || '/' || ${part(orderProducts)} || '/' || ${part(payments)} || '/' || ${part(refunds)}
        || '/' || ${part(receipts)} || '/' || ${part(codeViews)} || '/' || ${part(orderReviews)}`,
    })
    .from(sql`(select 1) as one`)
    .prepare('order_stamp')
})

/**
 * The key of a bearer token's own pages now: its account and that account's stamp; null when the
 * token is not valid or its sign-in has ended (the page is then rendered whole, as before).
 */
export async function personalPageKey(
  db: Db,
  jwtSecret: string,
  token: string,
  /** The order of a pay page: its own stamp joins the key. */
  orderId?: string,
): Promise<{ userId: number; key: string } | null> {
  const bearer = await liveBearer(db, jwtSecret, token)
  if (!bearer) return null
  const [stamp, order] = await Promise.all([
    pageStamp(db, bearer.userId),
    orderId ? orderStamp(db, orderId) : null,
  ])
  if (stamp === null) return null
  return { userId: bearer.userId, key: `${bearer.userId}:${stamp}${order ? `:${order}` : ''}` }
}
