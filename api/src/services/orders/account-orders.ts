// Which orders are an account's own in its history: those placed signed in, and the guest orders
// placed with the account's email and paid, once that email is confirmed (issue 50: a guest who
// signs up later finds what they bought). The guest orders stay guest orders: their links keep
// working signed out and nothing about who may open them changes. A paid order's mails already
// went to that mailbox with its link and codes, so listing it shows the mailbox's owner nothing new.
// An unpaid one is left out: anyone may place an order under any email (no mail goes out), and it
// must not appear in a stranger's account with a pay button. An unconfirmed email lists nothing
// extra: whoever typed an address has not proved it.
import { and, eq, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { orders, users } from '../../db/schema'

/** The filter of account `userId`'s orders (its own, and the guest orders of its confirmed email). */
export async function accountOrdersFilter(db: Db | Tx, userId: number): Promise<SQL> {
  const [u] = await db
    .select({ email: users.email, confirmed: users.emailConfirmedAt, deleted: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
  const own = eq(orders.userId, userId)
  if (!u?.email || !u.confirmed || u.deleted) return own
  // lower(email) is the orders_email_idx expression
  return or(
    own,
    and(
      isNull(orders.userId),
      isNotNull(orders.paidAt),
      sql`lower(${orders.email}) = ${u.email.toLowerCase()}`,
    ),
  )!
}

/**
 * The same rule in raw SQL for the page stamp (o: orders, u: users): the stamp of a buyer's pages
 * must change when a guest order of the confirmed email does.
 */
export const ACCOUNT_ORDER_SQL = sql.raw(
  '(o.user_id = u.id or (o.user_id is null and o.paid_at is not null and u.email_confirmed_at is not null and u.email is not null and lower(o.email) = lower(u.email)))',
)
