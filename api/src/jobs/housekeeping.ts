// Housekeeping (issue 19): rows that only matter for a while are swept by recurring jobs, so the
// tables behind sign-in, rate limits, social sign-in and order creation stay small forever.
import { and, eq, isNotNull, lt, sql } from 'drizzle-orm'
import { dataRequests, oauthStates, orders, rateLimits, refreshTokens } from '../db/schema'
import { log } from '../lib/log'
import { STATE_TTL_MS } from '../services/social/state'
import type { JobHandler } from './worker'

/** Longer than any rate-limit window in use (sign-in 15 min, order look-up 1 h). */
const RATE_LIMIT_KEEP = sql`interval '1 day'`
/** A retried order creation comes within minutes; a day is generous (as payment APIs keep them). */
const IDEMPOTENCY_KEEP = sql`interval '1 day'`

/** Refresh tokens past their expiry: no longer usable, and reuse detection needs live ones only. */
const refreshTokensSweep: JobHandler = async (_job, deps) => {
  const gone = await deps.db
    .delete(refreshTokens)
    .where(lt(refreshTokens.expiresAt, sql`now()`))
    .returning({ id: refreshTokens.id })
  if (gone.length) log.info({ rows: gone.length }, 'swept expired refresh tokens')
}

/** Rate-limit counters whose window ended long ago (a new attempt would restart them anyway). */
const rateLimitsSweep: JobHandler = async (_job, deps) => {
  const gone = await deps.db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, sql`now() - ${RATE_LIMIT_KEEP}`))
    .returning({ key: rateLimits.key })
  if (gone.length) log.info({ rows: gone.length }, 'swept old rate-limit counters')
}

/** Social sign-in states never returned to (their TTL is checked on return as well). */
const oauthStatesSweep: JobHandler = async (_job, deps) => {
  const gone = await deps.db
    .delete(oauthStates)
    .where(lt(oauthStates.created, sql`now() - make_interval(secs => ${STATE_TTL_MS / 1000})`))
    .returning({ state: oauthStates.provider })
  if (gone.length) log.info({ rows: gone.length }, 'swept stale social sign-in states')
}

/** Idempotency keys of old orders are forgotten (the order stays; its key may be used again). */
const idempotencyKeysSweep: JobHandler = async (_job, deps) => {
  const gone = await deps.db
    .update(orders)
    .set({ idempotencyKey: null })
    .where(and(isNotNull(orders.idempotencyKey), lt(orders.created, sql`now() - ${IDEMPOTENCY_KEEP}`)))
    .returning({ id: orders.id })
  if (gone.length) log.info({ rows: gone.length }, 'forgot old idempotency keys')
}

/**
 * Personal data requests whose link expired unopened: never a task, and the email and text of a
 * person who may not have written them are not kept (decision 088).
 */
const dataRequestsSweep: JobHandler = async (_job, deps) => {
  const gone = await deps.db
    .delete(dataRequests)
    .where(and(eq(dataRequests.status, 'unconfirmed'), lt(dataRequests.tokenExpiresAt, sql`now()`)))
    .returning({ id: dataRequests.id })
  if (gone.length) log.info({ rows: gone.length }, 'swept unconfirmed personal data requests')
}

export const HOUSEKEEPING_HANDLERS: Record<string, JobHandler> = {
  'sweep.refresh_tokens': refreshTokensSweep,
  'sweep.rate_limits': rateLimitsSweep,
  'sweep.oauth_states': oauthStatesSweep,
  'sweep.idempotency_keys': idempotencyKeysSweep,
  'sweep.data_requests': dataRequestsSweep,
}

export const HOUSEKEEPING_RECURRING = [
  { kind: 'sweep.refresh_tokens', everySeconds: 3600 },
  { kind: 'sweep.rate_limits', everySeconds: 600 },
  { kind: 'sweep.oauth_states', everySeconds: 600 },
  { kind: 'sweep.idempotency_keys', everySeconds: 3600 },
  { kind: 'sweep.data_requests', everySeconds: 3600 },
]
