import { mkdirSync } from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import pg from 'pg'
import { projectRoot } from '../../../shared/project-root'
import { log } from '../lib/log'
import { isDatabaseUnavailable } from './faults'
import * as schema from './schema'
import { withPreparedStatements } from './pglite-statements'
import type { Db } from './types'

export type { Db, Tx } from './types'

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** True when this open seeded the demo catalogue (`seed` said it did). */
  seeded?: boolean
  /** The PostgreSQL pool's counts (metrics); absent on PGlite. */
  pool?: { totalCount: number; idleCount: number; waitingCount: number }
  close(): Promise<void>
}

/** How the PostgreSQL pool meets a database that fails (docs/operations.md lists the defaults). */
export interface PgSettings {
  poolMax: number
  /** A new connection that is not ready by then fails (and the request answers 503). */
  connectTimeoutMs: number
  /** Server side: a statement running longer is cancelled (0 = no limit). */
  statementTimeoutMs: number
  /** Client side: no answer by then and the connection is dropped (a silent network). */
  queryTimeoutMs: number
  /** Server side: a session idle inside a transaction that long is ended. */
  idleInTransactionTimeoutMs: number
  /** TCP keep-alive probes after this much idle time. */
  keepAliveMs: number
  /** Start-up waits this long for the database to answer, then gives up. */
  startupWaitMs: number
}

export const DEFAULT_PG_SETTINGS: PgSettings = {
  poolMax: 10,
  connectTimeoutMs: 5000,
  statementTimeoutMs: 15_000,
  queryTimeoutMs: 20_000,
  idleInTransactionTimeoutMs: 30_000,
  keepAliveMs: 10_000,
  startupWaitMs: 60_000,
}

/** One key for every instance of the shop: migrations and the demo seed run under it. */
export const MIGRATION_LOCK_KEY = 7_419_019

const migrationsFolder = path.join(projectRoot, 'api/drizzle')

/**
 * Opens the shop database: PostgreSQL when `url` is given, otherwise embedded PGlite persisted in
 * `dataDir` (in memory when `dataDir` is undefined). Migrations are applied on open (on PostgreSQL
 * under an advisory lock, so instances started together take turns), then `seed` runs (under the
 * same lock): whoever starts the shop passes the demo seeder, so the client never loads it.
 */
export async function openDatabase(opts: {
  url?: string
  dataDir?: string
  pg?: Partial<PgSettings>
  /** Runs after the migrations; true when it seeded (`Database.seeded`). */
  seed?: (db: Db) => Promise<boolean>
  /** false: open only (the caller migrates, e.g. a deploy step ran `npm run db:migrate`). */
  migrate?: boolean
}): Promise<Database> {
  if (opts.url) {
    const settings = { ...DEFAULT_PG_SETTINGS, ...opts.pg }
    await waitForDatabase(opts.url, settings)
    let seeded = false
    if (opts.migrate !== false || opts.seed) {
      seeded = await migrateLocked(opts.url, settings, { migrate: opts.migrate !== false, seed: opts.seed })
    }
    const pool = createPool(opts.url, settings)
    const db = drizzlePg(pool, { schema })
    return { db: db as unknown as Db, kind: 'postgres', seeded, pool, close: () => pool.end() }
  }
  if (opts.dataDir) mkdirSync(opts.dataDir, { recursive: true })
  const client = await PGlite.create(opts.dataDir)
  const db = pgliteDb(client)
  if (opts.migrate !== false) await migratePglite(db as never, { migrationsFolder })
  const seeded = opts.seed ? await opts.seed(db) : false
  return { db, kind: 'pglite', seeded, close: () => client.close() }
}

/** The shop's drizzle database over an embedded PGlite, its DML as prepared statements. */
export function pgliteDb(client: PGlite): Db {
  return drizzlePglite(withPreparedStatements(client), { schema }) as unknown as Db
}

function connectionConfig(url: string, s: PgSettings): pg.ClientConfig {
  return {
    connectionString: url,
    connectionTimeoutMillis: s.connectTimeoutMs || undefined,
    keepAlive: s.keepAliveMs > 0,
    keepAliveInitialDelayMillis: s.keepAliveMs,
    application_name: 'igromarket',
  }
}

/**
 * The request pool. Every client gets an error handler for its whole life (pg-pool only covers
 * idle ones: a server restart during a transaction used to end the process), and a client whose
 * query got no answer in time is dropped rather than handed to the next request.
 */
function createPool(url: string, s: PgSettings): pg.Pool {
  const pool = new pg.Pool({
    ...connectionConfig(url, s),
    max: s.poolMax,
    statement_timeout: s.statementTimeoutMs || undefined,
    idle_in_transaction_session_timeout: s.idleInTransactionTimeoutMs || undefined,
    query_timeout: s.queryTimeoutMs || undefined,
  })
  pool.on('error', (err) => log.warn({ err: errorSummary(err) }, 'database: idle connection lost'))
  pool.on('connect', (client) => {
    client.on('error', (err) => log.warn({ err: errorSummary(err) }, 'database: connection lost'))
    const query = client.query.bind(client) as (...args: unknown[]) => unknown
    // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded query signature
    ;(client as any).query = (...args: unknown[]) => {
      const result = query(...args)
      if (result instanceof Promise) {
        result.catch((err: Error) => {
          // After a read timeout pg keeps the socket and the unanswered query: destroy the socket so
          // pg-pool discards the client on release instead of lending it out wedged.
          if (err?.message === 'Query read timeout') {
            ;(
              client as unknown as { connection?: { stream?: { destroy(): void } } }
            ).connection?.stream?.destroy()
          }
          // drizzle-orm 0.45 sends a transaction's BEGIN before its try/finally: a BEGIN that fails
          // (a connection the server just ended) would keep the client checked out for good, and a
          // few of those starve the pool. Hand it back as broken; drizzle will not release it.
          const release = (client as unknown as { release?: (err?: Error) => void }).release
          if (isBegin(args[0]) && typeof release === 'function') {
            try {
              release.call(client, err)
            } catch {} // already back in the pool: pg-pool refuses a second release
          }
        })
      }
      return result
    }
  })
  return pool
}

function isBegin(query: unknown): boolean {
  const text = typeof query === 'string' ? query : (query as { text?: unknown } | null)?.text
  return typeof text === 'string' && /^\s*begin\b/i.test(text)
}

/** Start-up: waits for the database to answer, with backoff, up to `startupWaitMs`; says so in the log. */
async function waitForDatabase(url: string, s: PgSettings): Promise<void> {
  const deadline = Date.now() + s.startupWaitMs
  for (let attempt = 1, delay = 500; ; attempt++, delay = Math.min(delay * 2, 5000)) {
    const client = new pg.Client(connectionConfig(url, s))
    client.on('error', () => {})
    try {
      await client.connect()
      await client.query('select 1')
      if (attempt > 1) log.info({ attempt }, 'database: reachable')
      return
    } catch (err) {
      if (!isDatabaseUnavailable(err) || Date.now() + delay > deadline) {
        throw new Error(`database unreachable after ${attempt} attempt(s): ${(err as Error).message}`)
      }
      log.warn(
        { attempt, retryInMs: delay, err: errorSummary(err) },
        'database: not reachable yet, waiting (DB_STARTUP_WAIT_MS)',
      )
      await new Promise((r) => setTimeout(r, delay))
    } finally {
      await client.end().catch(() => {})
    }
  }
}

/**
 * Migrates (and seeds) on one dedicated connection holding a session advisory lock: the first
 * instance migrates, the others wait for it, then find nothing to do. No statement timeout here:
 * a migration may take long, and so may the wait for another instance's.
 */
async function migrateLocked(
  url: string,
  s: PgSettings,
  what: { migrate: boolean; seed?: (db: Db) => Promise<boolean> },
): Promise<boolean> {
  const client = new pg.Client(connectionConfig(url, s))
  client.on('error', (err) => log.warn({ err: errorSummary(err) }, 'database: migration connection lost'))
  await client.connect()
  try {
    const started = Date.now()
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    const waited = Date.now() - started
    if (waited > 500) log.info({ waitedMs: waited }, 'database: waited for another instance to migrate')
    const db = drizzlePg(client, { schema }) as unknown as Db
    if (what.migrate) await migrateYielding(client, db)
    return what.seed ? await what.seed(db) : false
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => {})
    await client.end().catch(() => {})
  }
}

/** How long the migration waits for a lock a running instance holds before it gives way. */
const MIGRATION_LOCK_WAIT_MS = 200
const MIGRATION_ATTEMPTS = 40

/**
 * Applies the pending migrations (one transaction, drizzle's) giving way to the running shop: the
 * migration takes ACCESS EXCLUSIVE locks table by table and keeps them to its end, so a buyer's
 * transaction that read one table and waits for another it holds can close a cycle with it, and
 * PostgreSQL's deadlock check then cancels the buyer's order (an upgrade's old release answered 500
 * once so). Here the migration waits at most MIGRATION_LOCK_WAIT_MS for any lock, then rolls back
 * whole, lets the buyers through and starts again; the last attempt waits as long as it takes.
 */
async function migrateYielding(client: pg.Client, db: Db): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= MIGRATION_ATTEMPTS
    await client.query(last ? 'RESET lock_timeout' : `SET lock_timeout = ${MIGRATION_LOCK_WAIT_MS}`)
    try {
      await migratePg(db as never, { migrationsFolder })
      return
    } catch (err) {
      if (last || !isLockTimeout(err)) throw err
      if (attempt === 1) log.info('database: a migration gave way to running transactions; trying again')
      await new Promise((r) => setTimeout(r, 50 + Math.random() * 200))
    } finally {
      await client.query('RESET lock_timeout').catch(() => {})
    }
  }
}

/** 55P03 lock_not_available, as pg raises it or as drizzle wraps it. */
function isLockTimeout(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } }
  return e?.code === '55P03' || e?.cause?.code === '55P03'
}

function errorSummary(err: unknown): { message: string; code?: string } {
  const e = err as { message?: string; code?: string }
  return { message: String(e?.message ?? err), ...(e?.code ? { code: e.code } : {}) }
}
