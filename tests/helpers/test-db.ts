import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { type Database, openDatabase } from '#api/db/client'

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new
 * database on TEST_DATABASE_URL that is dropped afterwards.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres') return openDatabase({})
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL')
  const name = `shop_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString() })
  return {
    ...database,
    async close() {
      await database.close()
      const c = new pg.Client({ connectionString: adminUrl })
      await c.connect()
      // pool.end() resolves before every backend has gone: wait for them, so FORCE has nobody to kill
      for (let i = 0; i < 100; i++) {
        const r = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name])
        if (r.rows[0].n === 0) break
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}
