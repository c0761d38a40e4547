// Guests find their orders: an email in, one mail with a signed 24-hour link out, and the list of
// that email's orders behind the link. The request does the same work whatever the email (two
// counters and one queued job), so neither its answer nor its timing tells whether the email has
// orders; the mail job looks, and sends nothing to an address without orders.
import { createHmac } from 'node:crypto'
import { desc, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db } from '../../db/client'
import { orders } from '../../db/schema'
import { hitRateLimits, type RateLimitResult } from '../rate-limit'
import { normalizeEmail } from '../auth/accounts'
import { serializeOrderHistory } from '../orders/serialize'
import { verifyLookupToken } from './lookup-token'
import { queueMail } from './outbox'

/** The newest orders a look-up link lists. */
export const LOOKUP_LIST_LIMIT = 50
/** Requests for one email within this many seconds make one mail (a double submit, a reload). */
const SAME_MAIL_SECONDS = 600

/** A stable pseudonym of an email for counters and job keys (no addresses in those tables). */
const emailTag = (secret: string, email: string) =>
  createHmac('sha256', secret).update(`lookup:${email}`).digest('hex').slice(0, 32)

export async function findOrdersByEmail(db: Db, email: string, limit: number) {
  return db
    .select()
    .from(orders)
    .where(sql`lower(${orders.email}) = ${normalizeEmail(email)}`)
    .orderBy(desc(orders.created), desc(orders.id))
    .limit(limit)
}

/**
 * Counts the request against the client address and the (email, address) pair, then queues the
 * look-up mail.
 * Returns the refused limit, or null when the request was taken.
 */
export async function requestOrderLookup(
  deps: ApiDeps,
  rawEmail: string,
  address: string,
  now = new Date(),
): Promise<RateLimitResult | null> {
  const { db, config } = deps
  const email = normalizeEmail(rawEmail)
  const tag = emailTag(config.jwtSecret, email)
  const { perAddress, perEmail, windowSeconds } = config.mail.lookupLimits
  const refused = await hitRateLimits(
    db,
    [
      [`lookup:address:${address}`, perAddress],
      // per email *from this address*: requests for someone's email from elsewhere never use up
      // the owner's own (issue 38, finding 6); mails to one address stay one a minute (the job key)
      [`lookup:email:${tag}:${address}`, perEmail],
    ],
    windowSeconds,
    now,
  )
  if (refused) return refused
  const slot = Math.floor(now.getTime() / 1000 / SAME_MAIL_SECONDS)
  await queueMail(db, { template: 'order_lookup', to: email, data: {}, key: `order_lookup:${tag}:${slot}` })
  deps.jobs?.wake()
  return null
}

/** The orders behind a look-up link, or null when the link is not a valid, unexpired one. */
export async function ordersForLookupToken(deps: ApiDeps, token: string, now = new Date()) {
  const claim = await verifyLookupToken(deps.config.jwtSecret, token, now)
  if (!claim) return null
  const rows = await findOrdersByEmail(deps.db, claim.email, LOOKUP_LIST_LIMIT)
  return {
    email: claim.email,
    expires: claim.expires,
    results: await serializeOrderHistory(deps.db, rows),
    accountOrderIds: rows.filter((r) => r.userId !== null).map((r) => r.id),
  }
}
