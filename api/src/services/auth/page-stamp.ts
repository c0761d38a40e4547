// What a signed-in buyer's own pages are made of, as one short value (issue 36, decision 103): the
// storefront keeps a rendered profile or pay page per buyer and this value, and renders it again
// as soon as the value changes. Every row version in PostgreSQL carries the transaction that wrote
// it (`xmin`), so a write to the account, its orders, their lines, payments, refunds, receipts or
// code views, or its social accounts gives a new value in every instance at once, with no column
// or trigger to keep up. A row written by a transaction that commits after a later one (an older xid
// below the newest) still changes the row count when it is new; an update of that kind waits for
// the cache time (CATALOGUE_CACHE_SECONDS), like every other copy the shop keeps.
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
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
  const res = (await db.execute(sql`
    select u.xmin::text
      || '/' || (select ${versionOf('o')} from ${orders} o where o.user_id = u.id)
      || '/' || (select ${versionOf('x')} from ${orderProducts} x join ${orders} o on o.id = x.order_id where o.user_id = u.id)
      || '/' || (select ${versionOf('x')} from ${payments} x join ${orders} o on o.id = x.order_id where o.user_id = u.id)
      || '/' || (select ${versionOf('x')} from ${refunds} x join ${orders} o on o.id = x.order_id where o.user_id = u.id)
      || '/' || (select ${versionOf('x')} from ${receipts} x join ${orders} o on o.id = x.order_id where o.user_id = u.id)
      || '/' || (select ${versionOf('x')} from ${codeViews} x join ${orders} o on o.id = x.order_id where o.user_id = u.id)
      || '/' || (select ${versionOf('s')} from ${socialAccounts} s where s.user_id = u.id) as stamp
    from ${users} u where u.id = ${userId} and u.deleted_at is null`)) as unknown as {
    rows: Array<{ stamp: string }>
  }
  return res.rows[0]?.stamp ?? null
}

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
