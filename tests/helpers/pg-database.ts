// A fresh, empty PostgreSQL database per test (not migrated: the shop under test does that), on
// TEST_DATABASE_URL, dropped afterwards with whatever sessions are left.
import { randomBytes } from 'node:crypto'
import pg from 'pg'

export interface PgTestDatabase {
  name: string
  url: string
  /** Runs one statement on the database as an outside session. */
  query<T extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>
  /** Ends every session of the shop on this database (what a restart or a failover does to them). */
  terminateSessions(): Promise<number>
  drop(): Promise<void>
}

function adminUrl(): string {
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('this test needs PostgreSQL: set TEST_DATABASE_URL (as .ci/run does)')
  return url
}

async function onAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl() })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

export async function createPgDatabase(prefix = 'shop_proc'): Promise<PgTestDatabase> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`
  await onAdmin((c) => c.query(`CREATE DATABASE ${name}`))
  const u = new URL(adminUrl())
  u.pathname = `/${name}`
  const url = u.toString()
  return {
    name,
    url,
    async query(sql, params) {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      try {
        return (await c.query(sql, params)).rows
      } finally {
        await c.end()
      }
    },
    terminateSessions: () =>
      onAdmin(async (c) => {
        const r = await c.query(
          'select pg_terminate_backend(pid) as ok from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        )
        return r.rowCount ?? 0
      }),
    drop: () => onAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  }
}
