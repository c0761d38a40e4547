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
 * database on TEST_DATABASE_URL that is dropped afterwards. Both are copies of a database migrated
 * once per set of migrations (PGlite: a saved data directory; PostgreSQL: CREATE DATABASE …
 * TEMPLATE), not migrated per file: 23 migrations took 5-12 s a file under load.
 * TEST_DB_TEMPLATE=0 migrates every file from scratch instead.
 */
export async function openTestDatabase(): Promise<Database> {
  const fromTemplate = process.env.TEST_DB_TEMPLATE !== '0'
  if (process.env.TEST_DB !== 'postgres') return fromTemplate ? openFromTemplate() : openDatabase({})
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL')
  const name = `shop_test_${randomBytes(6).toString('hex')}`
  const template = fromTemplate ? await pgTemplate(adminUrl) : null
  await onAdmin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  // a copy of the template is migrated already: this only confirms it
  const database = await openDatabase({ url: url.toString() })
  return {
    ...database,
    async close() {
      await database.close()
      await onAdmin(adminUrl, async (c) => {
        await sessionsGone(c, name)
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      })
    },
  }
}

async function onAdmin<T>(adminUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

/** pool.end() resolves before every backend has gone: wait for them (FORCE then has nobody to kill). */
async function sessionsGone(c: pg.Client, name: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const r = await c.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name])
    if (r.rows[0].n === 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * The PostgreSQL template of this set of migrations, `shop_tmpl_<hash>`: built once by whichever
 * test file comes first (an advisory lock keeps the others waiting, not building it twice), under
 * a temporary name renamed when complete, so nobody copies a half-migrated one. Templates of other
 * migrations are dropped then.
 */
async function pgTemplate(adminUrl: string): Promise<string> {
  const name = `shop_tmpl_${migrationsHash()}`
  const exists = (c: pg.Client) =>
    c.query('select 1 from pg_database where datname = $1', [name]).then((r) => (r.rowCount ?? 0) > 0)
  return onAdmin(adminUrl, async (c) => {
    if (await exists(c)) return name
    await c.query('select pg_advisory_lock(74210311)')
    try {
      if (await exists(c)) return name
      const building = `${name}_${randomBytes(3).toString('hex')}`
      await c.query(`CREATE DATABASE ${building}`)
      const url = new URL(adminUrl)
      url.pathname = `/${building}`
      const db = await openDatabase({ url: url.toString() })
      await db.close()
      await sessionsGone(c, building)
      await c.query(`ALTER DATABASE ${building} RENAME TO ${name}`)
      const old = await c.query<{ datname: string }>(
        "select datname from pg_database where datname like 'shop\\_tmpl\\_%' and datname <> $1",
        [name],
      )
      for (const { datname } of old.rows) await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
      return name
    } finally {
      await c.query('select pg_advisory_unlock(74210311)')
    }
  })
}

/** The migrations' names and text: a template is of exactly these. */
function migrationsHash(): string {
  const hash = createHash('sha256')
  for (const f of readdirSync(MIGRATIONS)
    .filter((n) => n.endsWith('.sql'))
    .sort())
    hash.update(f).update(readFileSync(path.join(MIGRATIONS, f)))
  return hash.digest('hex').slice(0, 16)
}

const MIGRATIONS = fileURLToPath(new URL('../../api/drizzle', import.meta.url))

/**
 * PGlite: the first file migrates and saves the database as a tarball keyed by the migrations'
 * text; later ones (and later runs) load it, about 1 s instead of 5-12 s of migrating under load.
 */
async function openFromTemplate(): Promise<Database> {
  const file = path.join(tmpdir(), `shop-pglite-template-${migrationsHash()}.tar.gz`)
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
