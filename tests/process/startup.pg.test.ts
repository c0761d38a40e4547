// Issue 19: instances started at the same moment on an empty PostgreSQL database all come up
// (migrations under an advisory lock, the demo seed once), and `npm run db:migrate` migrates
// without starting the shop. Each round gets a fresh database.
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'
import { type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'

const root = fileURLToPath(new URL('../..', import.meta.url))
const migrationCount = readdirSync(`${root}/api/drizzle`).filter((f) => f.endsWith('.sql')).length

let procs: ShopProcess[] = []
let db: PgTestDatabase | null = null
afterEach(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')))
  procs = []
  await db?.drop()
  db = null
})

async function expectOneSeededCatalogue(database: PgTestDatabase) {
  const migrations = await database.query<{ n: number }>(
    'select count(*)::int as n from drizzle.__drizzle_migrations',
  )
  expect(migrations[0]!.n).toBe(migrationCount)
  const slugs = await database.query<{ n: number; distinct: number }>(
    'select count(*)::int as n, count(distinct title)::int as distinct from games',
  )
  expect(slugs[0]!.n).toBeGreaterThan(0)
  expect(slugs[0]!.n).toBe(slugs[0]!.distinct)
}

describe('start-up of several instances on one empty database', () => {
  for (const [round, count] of [
    [1, 2],
    [2, 3],
    [3, 2],
    [4, 3],
  ] as const) {
    it(`round ${round}: ${count} instances started at the same moment all come up`, async () => {
      db = await createPgDatabase('shop_start')
      const t0 = Date.now()
      const started = await Promise.allSettled(
        Array.from({ length: count }, () =>
          startShopProcess({
            env: {
              SHOP_ROLE: 'api',
              DATABASE_URL: db!.url,
              PUBLIC_URL: 'http://localhost',
              SEED_DEMO: '1',
              JOBS: '0',
            },
            readyTimeoutMs: 120_000,
          }),
        ),
      )
      procs = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
      const failures = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []))
      expect(failures, failures.join('\n')).toEqual([])
      console.log(`[startup] ${count} instances on an empty database: all ready in ${Date.now() - t0} ms`)
      for (const p of procs) {
        const r = await fetch(`${p.url}/api/games/`)
        expect(r.status).toBe(200)
      }
      await expectOneSeededCatalogue(db)
    }, 150_000)
  }

  it('npm run db:migrate migrates without starting the shop, also twice at once', async () => {
    db = await createPgDatabase('shop_migrate')
    const run = () =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        let out = ''
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts'], {
          cwd: root,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            NODE_ENV: 'production',
            DATABASE_URL: db!.url,
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        child.stdout.on('data', (d) => {
          out += d
        })
        child.stderr.on('data', (d) => {
          out += d
        })
        child.on('exit', (code) => resolve({ code, out }))
      })
    const results = await Promise.all([run(), run()])
    for (const r of results) {
      expect(r.code, r.out).toBe(0)
      expect(r.out).toContain('Migrations applied to PostgreSQL')
    }
    const migrations = await db.query<{ n: number }>(
      'select count(*)::int as n from drizzle.__drizzle_migrations',
    )
    expect(migrations[0]!.n).toBe(migrationCount)
    // migrated, not seeded: the shop did not start
    const games = await db.query<{ n: number }>('select count(*)::int as n from games')
    expect(games[0]!.n).toBe(0)
  }, 90_000)
})
