// Sign-in throttling that an attacker cannot turn against the owner (issue 20, ASVS 5.0 V6.3):
// - per (account, address): `perPair` attempts per window, then 429 — one address guessing one
//   account is stopped without touching anyone else;
// - per address: `perAddress` attempts per window across accounts, then 429 (password spraying);
// - per account: failures from every address are counted; past `perAccount` of them each further
//   attempt on the account waits a growing delay (¼ s, ½ s, 1 s … up to `slowdownMaxMs`) before
//   the password is checked. That slows a guesser spread over many addresses but never refuses:
//   the owner's right password from a new address still signs in. No global lock anywhere.
// Counters live in `rate_limits` (shared by every instance); emails appear only as an HMAC tag.
import { createHmac } from 'node:crypto'
import { and, eq, gt } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { rateLimits } from '../../db/schema'
import type { ApiConfig } from '../../env'
import { hitRateLimit, type RateLimitResult, resetRateLimit } from '../rate-limit'

type Limits = ApiConfig['signIn']

const tag = (secret: string, email: string) =>
  createHmac('sha256', secret).update(`signin:${email}`).digest('hex').slice(0, 32)

export const signInKeys = (secret: string, email: string, address: string) => {
  const t = tag(secret, email)
  return {
    pair: `signin:pair:${t}:${address}`,
    address: `signin:address:${address}`,
    failures: `signin:failures:${t}`,
  }
}

/** The delay before checking a password of an account with `failures` recent failures. */
export function slowdownMs(failures: number, limits: Pick<Limits, 'perAccount' | 'slowdownMaxMs'>): number {
  const over = failures - limits.perAccount
  if (over <= 0) return 0
  return Math.min(limits.slowdownMaxMs, 250 * 2 ** Math.min(over - 1, 20))
}

/**
 * Counts an attempt. Refused (429) when the pair or the address is over its limit; otherwise the
 * delay to wait before checking the password.
 */
export async function admitSignIn(
  db: Db,
  config: Pick<ApiConfig, 'jwtSecret' | 'signIn'>,
  email: string,
  address: string,
  now = new Date(),
): Promise<{ refused: RateLimitResult } | { delayMs: number }> {
  const limits = config.signIn
  const k = signInKeys(config.jwtSecret, email, address)
  for (const [key, limit] of [
    [k.address, limits.perAddress],
    [k.pair, limits.perPair],
  ] as const) {
    const hit = await hitRateLimit(db, key, limit, limits.windowSeconds, now)
    if (!hit.allowed) return { refused: hit }
  }
  const floor = new Date(now.getTime() - limits.windowSeconds * 1000)
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, k.failures), gt(rateLimits.windowStart, floor)))
  return { delayMs: slowdownMs(row?.count ?? 0, limits) }
}

/** A wrong password: one more failure of the account, whatever the address. */
export async function recordSignInFailure(
  db: Db,
  config: Pick<ApiConfig, 'jwtSecret' | 'signIn'>,
  email: string,
  now = new Date(),
): Promise<void> {
  const k = signInKeys(config.jwtSecret, email, '')
  // the limit is never "refused" here: the count only sets the delay of later attempts
  await hitRateLimit(db, k.failures, Number.MAX_SAFE_INTEGER, config.signIn.windowSeconds, now)
}

/** A right password: the account's failures and this pair's attempts are forgotten. */
export async function recordSignInSuccess(
  db: Db,
  config: Pick<ApiConfig, 'jwtSecret'>,
  email: string,
  address: string,
): Promise<void> {
  const k = signInKeys(config.jwtSecret, email, address)
  await resetRateLimit(db, k.pair)
  await resetRateLimit(db, k.failures)
}
