// What a signed-in buyer's own pages are made of, as one short value (issue 36, decision 103): the
// storefront keeps a rendered profile or pay page per buyer and this value, and renders it again
// as soon as the value changes. Every row version in PostgreSQL carries the transaction that wrote
// it (`xmin`), so a write to the account, its orders, their lines, payments, refunds, receipts or
// code views, or its social accounts gives a new value in every instance at once, with no column
// or trigger to keep up. A row written by a transaction that commits after a later one (an older xid
// below the newest) still changes the row count when it is new; an update of that kind waits for
// the cache time (CATALOGUE_CACHE_SECONDS), like every other copy the shop keeps.
import { and, eq, isNull, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/client'
import { preparedPerDb } from '../../db/prepared'
import {
  codeViews,
  orderProducts,
  orders,
  payments,
  receipts,
  refunds,
  socialAccounts,
  users,
} from '../../db/schema'
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
  const viaOrders = (
    table: typeof orderProducts | typeof payments | typeof refunds | typeof receipts | typeof codeViews,
  ) =>
    sql`(select ${versionOf('x')} from ${table} x join ${orders} o on o.id = x.order_id where o.user_id = u.id)`
  return db
    .select({
      stamp: sql<string>`u.xmin::text
        || '/' || (select ${versionOf('o')} from ${orders} o where o.user_id = u.id)
        || '/' || ${viaOrders(orderProducts)} || '/' || ${viaOrders(payments)}
        || '/' || ${viaOrders(refunds)} || '/' || ${viaOrders(receipts)} || '/' || ${viaOrders(codeViews)}
        || '/' || (select ${versionOf('s')} from ${socialAccounts} s where s.user_id = u.id)`,
    })
    .from(u)
    .where(and(eq(u.id, sql.placeholder('userId')), isNull(u.deletedAt)))
    .prepare('page_stamp')
})

/**
 * The key of a bearer token's own pages now: its account and that account's stamp; null when the
 * token is not valid or its sign-in has ended (the page is then rendered whole, as before).
 */
export async function personalPageKey(
  db: Db,
  jwtSecret: string,
  token: string,
): Promise<{ userId: number; key: string } | null> {
  const bearer = await liveBearer(db, jwtSecret, token)
  if (!bearer) return null
  const stamp = await pageStamp(db, bearer.userId)
  return stamp === null ? null : { userId: bearer.userId, key: `${bearer.userId}:${stamp}` }
}
