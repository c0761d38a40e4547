import { createHash, randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { type Database, openDatabase, pgliteDb } from '#api/db/client'

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new
 * database on TEST_DATABASE_URL that is dropped afterwards.
 */
export async function openTestDatabase(): Promise<Database> {
  if (process.env.TEST_DB !== 'postgres')
    return process.env.TEST_PGLITE_TEMPLATE ? openFromTemplate() : openDatabase({})
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

const MIGRATIONS = fileURLToPath(new URL('../../api/drizzle', import.meta.url))

/**
 * TEST_PGLITE_TEMPLATE=1 (the mutation run, which opens a database per test file per mutant): the
 * first file migrates and saves the database as a tarball keyed by the migrations' text; later
 * ones load it (about 1 s instead of 5-12 s of migrating under load). Off in the normal suite.
 */
async function openFromTemplate(): Promise<Database> {
  const hash = createHash('sha256')
  for (const f of readdirSync(MIGRATIONS)
    .filter((n) => n.endsWith('.sql'))
    .sort())
    hash.update(f).update(readFileSync(path.join(MIGRATIONS, f)))
  const file = path.join(tmpdir(), `shop-pglite-template-${hash.digest('hex').slice(0, 16)}.tar.gz`)
  if (!existsSync(file)) {
    const fresh = await openDatabase({})
    const dump = await (fresh.db as unknown as { $client: PGlite }).$client.dumpDataDir('gzip')
    const part = `${file}.${randomBytes(4).toString('hex')}`
    writeFileSync(part, Buffer.from(await dump.arrayBuffer()))
    renameSync(part, file) // atomic: a parallel file sees the whole tarball or none
    return fresh
  }
  const client = await PGlite.create({ loadDataDir: new Blob([readFileSync(file)]) })
  const db = pgliteDb(client)
  return { db, kind: 'pglite', seeded: false, close: () => client.close() }
}
