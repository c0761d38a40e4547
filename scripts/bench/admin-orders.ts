// Back-office order search over 100 000 orders: seeds them (demo catalogue + generated orders)
// into a fresh database and prints p50/p95 of each search the /admin/orders screen makes.
//
//   npx tsx scripts/bench/admin-orders.ts                       # embedded PGlite (in memory)
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx scripts/bench/admin-orders.ts
//   BENCH_ORDERS=20000 BENCH_RUNS=10 …                          # smaller / fewer runs
import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { openDatabase } from '#api/db/client'
import { seedIfEmpty } from '#api/demo/seed'
import { searchOrders, type OrderSearch } from '#api/services/admin/orders'

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000)
const RUNS = Number(process.env.BENCH_RUNS ?? 20)

async function open() {
  const adminUrl = process.env.BENCH_DATABASE_URL
  if (!adminUrl) return { ...(await openDatabase({ seed: seedIfEmpty })), drop: async () => {} }
  const name = `bench_admin_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({
    url: url.toString(),
    seed: seedIfEmpty,
    pg: { statementTimeoutMs: 0, queryTimeoutMs: 0 },
  })
  return {
    ...database,
    drop: async () => {
      await database.close()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    },
  }
}

const database = await open()
const { db } = database
/** The rows of a raw query (the Db type is shared by PGlite and pg, so its result is untyped). */
const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: T[] }).rows
const started = performance.now()
// 100 000 orders over 90 days: game orders and gift orders, every status, 5 000 buyers
await db.execute(sql`
  insert into orders (id, kind, status, game_id, gift_id, email, total, total_to_pay, created, updated)
  select gen_random_uuid(),
         case when n % 4 = 0 then 'RokkyOrder' else 'PUBGOrder' end,
         (array['created','waiting_for_payment','paid','sending','sent','done','failed'])[1 + n % 7],
         case when n % 4 = 0 then null else g.ids[1 + n % 3] end,
         case when n % 4 = 0 then f.ids[1 + n % 5] else null end,
         'buyer' || (n % 5000) || '@example.com',
         19900, 19900,
         now() - (n % 129600) * interval '1 minute',
         now()
  from generate_series(1, ${ORDERS}) as n,
       (select array_agg(id order by id) as ids from games) as g,
       (select array_agg(id order by id) as ids from gifts) as f`)
await db.execute(sql`analyze orders`)
const seeded = (performance.now() - started) / 1000
const [{ id: gameId } = { id: 0 }] = await rows<{ id: number }>(sql`select id from games order by id limit 1`)
const [{ id: giftId } = { id: 0 }] = await rows<{ id: number }>(sql`select id from gifts order by id limit 1`)
const [{ id: anOrder } = { id: '' }] = await rows<{ id: string }>(
  sql`select id from orders limit 1 offset 777`,
)
const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10)

const searches: Array<[string, Omit<OrderSearch, 'page' | 'pageSize'> & { page?: number }]> = [
  ['newest (no filter)', {}],
  ['page 200 (no filter)', { page: 200 }],
  ['by id', { q: anOrder }],
  ['by email', { q: 'buyer42@example.com' }],
  ['by part of an email', { q: 'buyer42' }],
  ['by status', { status: 'failed' }],
  ['by game', { game: gameId }],
  ['by gift', { gift: giftId }],
  ['by game and status', { game: gameId, status: 'done' }],
  ['last 7 days', { from: day(7), to: day(0) }],
]

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!
console.log(
  `${ORDERS} orders seeded in ${seeded.toFixed(1)} s on ${database.kind}; ${RUNS} runs each, 50 a page`,
)
for (const [name, s] of searches) {
  const times: number[] = []
  let count = 0
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now()
    const r = await searchOrders(db, { page: 1, pageSize: 50, ...s })
    times.push(performance.now() - t0)
    count = r.count
  }
  times.sort((a, b) => a - b)
  console.log(
    `${name.padEnd(24)} p50 ${pct(times, 50).toFixed(1).padStart(7)} ms   p95 ${pct(times, 95).toFixed(1).padStart(7)} ms   (${count} found)`,
  )
}
if (process.env.BENCH_EXPLAIN === '1') {
  const plan = await rows<Record<string, string>>(
    sql`explain select id from orders where gift_id = ${giftId} order by created desc, id desc limit 50`,
  )
  console.log(plan.map((r) => Object.values(r)[0]).join('\n'))
}
await database.drop()
await database.close().catch(() => {})
