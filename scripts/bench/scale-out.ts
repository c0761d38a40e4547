// Order creation on PostgreSQL: one shop instance, then two behind Debian's haproxy with the
// committed deploy/haproxy.cfg — the same 50 clients and the same number of orders, in one run.
// Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a server where it may create a database).
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { ensureSystemPackages, HAPROXY } from '../system-packages'
import { type OrderLoadResult, orderLoad } from './order-load'
import { type Running, startProcess } from './processes'

const root = fileURLToPath(new URL('../../', import.meta.url))

export interface ScaleOutResult {
  one: OrderLoadResult
  two: OrderLoadResult
  storedOnce: boolean
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number }
      s.close(() => resolve(port))
    })
  })
}

function instance(databaseUrl: string, port: number): Promise<Running> {
  return startProcess(process.execPath, ['scripts/start.mjs'], {
    env: {
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      PUBLIC_URL: 'http://localhost',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret!!',
      SEED_DEMO: '1',
      SKIP_BUILD: '1',
      NODE_ENV: 'production',
      WEB_CONCURRENCY: '1',
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    url: `http://127.0.0.1:${port}`,
    readyUrl: `http://127.0.0.1:${port}/api/health/`,
  })
}

async function waitHealthy(url: string) {
  for (let i = 0; i < 200; i++) {
    if ((await fetch(`${url}/api/health/`).catch(() => null))?.ok) return
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${url} never became healthy`)
}

export async function scaleOut(clients = 50, total = 1000): Promise<ScaleOutResult | null> {
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
  if (!admin) return null
  ensureSystemPackages([HAPROXY])
  const name = `shop_bench_${randomBytes(4).toString('hex')}`
  const run = async (sql: string) => {
    const c = new pg.Client({ connectionString: admin })
    await c.connect()
    try {
      return await c.query(sql)
    } finally {
      await c.end()
    }
  }
  await run(`CREATE DATABASE ${name}`)
  const u = new URL(admin)
  u.pathname = `/${name}`
  const url = u.toString()
  const started: Running[] = []
  let haproxy: ChildProcess | null = null
  try {
    const [p1, p2, bind] = [await freePort(), await freePort(), await freePort()]
    started.push(await instance(url, p1))
    const one = await orderLoad(started[0]!.url, clients, total)

    started.push(await instance(url, p2))
    haproxy = spawn(HAPROXY.binary, ['-f', 'deploy/haproxy.cfg', '-db'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        BIND: `127.0.0.1:${bind}`,
        SHOP1: `127.0.0.1:${p1}`,
        SHOP2: `127.0.0.1:${p2}`,
      },
      stdio: 'ignore',
    })
    const balancer = `http://127.0.0.1:${bind}`
    await waitHealthy(balancer)
    // both instances passing haproxy's checks (two in a row, 1 s apart)
    await new Promise((r) => setTimeout(r, 2500))
    const two = await orderLoad(balancer, clients, total)

    const keys = [...one.keys, ...two.keys]
    const c = new pg.Client({ connectionString: url })
    await c.connect()
    const stored = await c.query<{ n: string; d: string }>(
      'SELECT count(*) AS n, count(DISTINCT idempotency_key) AS d FROM orders WHERE idempotency_key = ANY($1)',
      [keys],
    )
    await c.end()
    const storedOnce = Number(stored.rows[0]!.n) === keys.length && Number(stored.rows[0]!.d) === keys.length
    return { one, two, storedOnce }
  } finally {
    haproxy?.kill('SIGTERM')
    await Promise.all(started.map((s) => s.stop()))
    await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {})
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const r = await scaleOut(50, Number(process.env.BENCH_ORDERS ?? 1000))
  if (!r) console.log('no PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL')
  else
    console.log(
      `PostgreSQL, 50 clients: one instance ${r.one.ordersPerSecond} orders/s (${r.one.errors} errors); two behind haproxy ${r.two.ordersPerSecond} orders/s (${r.two.errors} errors); stored once: ${r.storedOnce}`,
    )
}
