// The gate in front of order creation and payment starts (issue 34): the owner's block lists (a
// neutral 403 that never says why) and the velocity limits per client address and per email, in
// the database like every other limit, so all instances share them (429 with Retry-After).
import { and, eq, inArray, or } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db, Tx } from '../../db/client'
import { blockList } from '../../db/schema'
import { inRanges, networkOf } from '../../lib/address-ranges'
import { refuse, refuseOverLimit } from '../../lib/domain-error'
import type { Actor } from '../actor'
import { emailKey } from '../identity/email-key'
import { hitRateLimits } from '../rate-limit'
import { loadRiskSettings } from './settings'

export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase()

/**
 * Whether any of the buyer's traits is on the owner's block lists: one read of the entries that
 * could match (the email by its key and as typed, its domain, the card) and of every network,
 * which is matched here. An IPv6 address entry stands for its whole network of `ipv6Prefix` bits
 * (issue 42): the blocked buyer's neighbour addresses are theirs too.
 */
export async function isBlocked(
  db: Db | Tx,
  who: { email?: string | null; address?: string | null; cardHash?: string | null },
  ipv6Prefix: number,
): Promise<boolean> {
  const email = who.email?.trim().toLowerCase() || null
  const address = who.address && who.address !== 'unknown' ? who.address : null
  const exact = [
    // entries are stored as keys; one written before keys were (issue 42) still matches as typed
    email ? and(eq(blockList.kind, 'email'), inArray(blockList.value, [emailKey(email), email])) : undefined,
    email ? and(eq(blockList.kind, 'domain'), eq(blockList.value, emailDomain(email))) : undefined,
    who.cardHash ? and(eq(blockList.kind, 'card'), eq(blockList.value, who.cardHash)) : undefined,
    address ? eq(blockList.kind, 'network') : undefined,
  ].filter((cond) => cond !== undefined)
  if (exact.length === 0) return false
  const rows = await db
    .select({ kind: blockList.kind, value: blockList.value })
    .from(blockList)
    .where(or(...exact))
  if (rows.some((r) => r.kind !== 'network')) return true
  const nets = rows.map((r) => (r.value.includes('/') ? r.value : networkOf(r.value, ipv6Prefix)))
  return address !== null && nets.length > 0 && inRanges(address, nets)
}

/**
 * Refuses a blocked buyer (403 `buyer_blocked`, a neutral message) and counts one order creation or
 * payment start against the limits per address and per email (429 `rate_limited` over them).
 */
export async function guardBuyerStart(
  deps: ApiDeps,
  actor: Actor,
  what: 'order' | 'payment',
  email: string | null | undefined,
): Promise<void> {
  const { db, config } = deps
  if (await isBlocked(db, { email, address: actor.address }, config.clientIpv6Prefix))
    throw refuse('buyer_blocked')
  const s = await loadRiskSettings(db, config)
  // one client per IPv6 /64 and one buyer per mailbox (issue 42)
  const limits: Array<[string, number]> = [
    [`${what}:address:${actor.network}`, what === 'order' ? s.order_per_address : s.payment_per_address],
  ]
  const mail = email?.trim() ? emailKey(email) : null
  if (mail) limits.push([`${what}:email:${mail}`, what === 'order' ? s.order_per_email : s.payment_per_email])
  const hit = await hitRateLimits(db, limits, s.window_minutes * 60)
  if (hit) throw refuseOverLimit(hit.retryAfter)
}
