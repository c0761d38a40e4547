// Which errors mean "the database is away" (restart, failover, network, overload) rather than "this
// request is wrong": those answer 503 with Retry-After, and the next request gets a fresh connection.

/** SQLSTATEs of a database that is restarting, shutting down, unreachable or overloaded. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a restart
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, recovering
  '57014', // query_canceled: statement_timeout
  '53300', // too_many_connections
  '25P03', // idle_in_transaction_session_timeout
])
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
// pg and pg-pool say these in words only
const UNAVAILABLE_MESSAGES = [
  'Connection terminated',
  'Query read timeout',
  'timeout expired', // pg: connectionTimeoutMillis
  'timeout exceeded when trying to connect',
  'is not queryable',
  'Cannot use a pool after calling end on the pool',
  'terminating connection',
]

/** True when `err` (or one of its causes: drizzle wraps driver errors) says the database is away. */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    i++
  ) {
    const code = typeof e.code === 'string' ? e.code : ''
    if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_ERRNOS.has(code)) return true
    const text = typeof e.message === 'string' ? e.message : ''
    if (UNAVAILABLE_MESSAGES.some((m) => text.includes(m))) return true
    e = e.cause as typeof e
  }
  return false
}

/** Seconds a client should wait before trying again after a 503 of the database. */
export const DATABASE_RETRY_AFTER_SECONDS = 2
