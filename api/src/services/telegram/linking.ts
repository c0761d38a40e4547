// One-time deep links (t.me/<bot>?start=<code>): a staff member links their Telegram from the
// back-office, a buyer links a chat to an order from its pay page or mail, and a buyer signed in
// with Telegram links the whole account from any of their orders (once for all orders). A code is
// random, kept only as a hash, single-use (taken by compare-and-set), expires, and is made at a
// limited rate.
import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db, Tx } from '../../db/client'
import { socialAccounts, telegramLinkCodes } from '../../db/schema'
import { fail } from '../../lib/errors'
import { hitRateLimit } from '../rate-limit'
import { botUsername } from './bot-api'

export const STAFF_CODE_MINUTES = 10
export const ORDER_CODE_MINUTES = 30
/** Links made per staff member, per order and per client address in an hour. */
export const LINKS_PER_HOUR = { staff: 5, order: 10, address: 30 }

const hash = (code: string) => createHash('sha256').update(code).digest('hex')
/** The start parameter: a letter for the purpose and 24 base64url characters (144 random bits). */
const PAYLOAD_RE = /^([soa])([A-Za-z0-9_-]{24})$/
const PREFIX = { staff: 's', order: 'o', account: 'a' } as const
const PURPOSE = { s: 'staff', o: 'order', a: 'account' } as const

async function limited(db: Db, key: string, limit: number) {
  const hit = await hitRateLimit(db, key, limit, 3600)
  if (!hit.allowed) throw fail(429, 'rate_limited', { seconds: hit.retryAfter })
}

async function makeLink(
  deps: ApiDeps,
  row: { purpose: 'staff' | 'order' | 'account'; userId?: number; orderId?: string },
  minutes: number,
): Promise<{ url: string; expires_at: string }> {
  if (!deps.config.telegram) throw fail(409, 'telegram_not_configured')
  const name = await botUsername(deps).catch(() => {
    throw fail(502, 'telegram_unavailable')
  })
  const code = randomBytes(18).toString('base64url')
  const expiresAt = new Date(Date.now() + minutes * 60_000)
  await deps.db.insert(telegramLinkCodes).values({ codeHash: hash(code), ...row, expiresAt })
  const start = `${PREFIX[row.purpose]}${code}`
  return { url: `https://t.me/${name}?start=${start}`, expires_at: expiresAt.toISOString() }
}

export async function staffLink(deps: ApiDeps, userId: number) {
  await limited(deps.db, `tg:link:staff:${userId}`, LINKS_PER_HOUR.staff)
  return makeLink(deps, { purpose: 'staff', userId }, STAFF_CODE_MINUTES)
}

/** The Telegram account (its user id, as text) bound to a shop account by Telegram sign-in, or null. */
export async function boundTelegram(db: Db | Tx, userId: number): Promise<string | null> {
  const [row] = await db
    .select({ uid: socialAccounts.providerUserId })
    .from(socialAccounts)
    .where(and(eq(socialAccounts.userId, userId), eq(socialAccounts.provider, 'telegram')))
  return row?.uid ?? null
}

/**
 * «Следить в Telegram» for an order. Its owner, signed in and with a Telegram sign-in bound, gets
 * an account link (every order of the account, this one first); anyone else a link for this order.
 */
export async function orderLink(
  deps: ApiDeps,
  order: { id: string; userId: number | null },
  clientAddress: string | undefined,
  callerId: number | null = null,
) {
  await limited(deps.db, `tg:link:order:${order.id}`, LINKS_PER_HOUR.order)
  if (clientAddress) await limited(deps.db, `tg:link:addr:${clientAddress}`, LINKS_PER_HOUR.address)
  const account =
    callerId !== null && order.userId === callerId && (await boundTelegram(deps.db, callerId)) !== null
  return makeLink(
    deps,
    account
      ? { purpose: 'account', userId: callerId, orderId: order.id }
      : { purpose: 'order', orderId: order.id },
    ORDER_CODE_MINUTES,
  )
}

/** Takes a code given to /start: the row it was made for, once, before it expires; else null. */
export async function takeCode(tx: Db | Tx, payload: string) {
  const m = PAYLOAD_RE.exec(payload)
  if (!m) return null
  const purpose = PURPOSE[m[1] as keyof typeof PURPOSE]
  const [row] = await tx
    .update(telegramLinkCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(telegramLinkCodes.codeHash, hash(m[2]!)),
        eq(telegramLinkCodes.purpose, purpose),
        isNull(telegramLinkCodes.usedAt),
        gt(telegramLinkCodes.expiresAt, sql`now()`),
      ),
    )
    .returning()
  return row ?? null
}
