// Issue 19: the database is allowed to fail. Every session of the shop terminated in the middle
// of an order load (a PostgreSQL restart or failover): the process survives, requests that met a
// dead connection answer 503 with Retry-After, and orders succeed again. A database that stops
// answering (behind the test's TCP proxy): health answers 503 at once, requests 503 instead of
// hanging, and everything recovers when it answers again; start-up waits for it.
import { describe, expect, it } from 'vitest'
import { cleanupAfterAll } from '#tests/helpers/cleanup'
import { type FaultProxy, startFaultProxy } from '#tests/helpers/fault-proxy'
import { orderLoad, prepareOrders } from '#tests/helpers/order-load'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'
import { logLines, type ShopProcess, startShopProcess, waitFor } from '#tests/helpers/shop-process'

const cleanup = cleanupAfterAll()

async function database(): Promise<PgTestDatabase> {
  const db = await createPgDatabase()
  cleanup.push(() => db.drop())
  return db
}
async function shop(env: Record<string, string>, opts: { waitReady?: boolean } = {}): Promise<ShopProcess> {
  const p = await startShopProcess({
    // PostgreSQL means production: a public address is required (http is allowed on localhost)
    env: {
      SHOP_ROLE: 'api',
      JOBS: '0',
      CATALOGUE_CACHE_SECONDS: '0',
      PUBLIC_URL: 'http://localhost',
      ...env,
    },
    readyTimeoutMs: 90_000,
    ...opts,
  })
  cleanup.push(() => p.stop('SIGKILL'))
  return p
}

describe('database faults', () => {
  it('pg_terminate_backend of every session during an order load: the process stays, orders recover', async () => {
    const db = await database()
    const proc = await shop({ DATABASE_URL: db.url, SEED_DEMO: '1', DB_POOL_MAX: '4' })
    const orders = await prepareOrders(proc.url)

    let terminatedAt = 0
    let rounds = 0
    let terminated = 0
    const startedAt = Date.now()
    const load = orderLoad(proc.url, orders, {
      clients: 6,
      // run until 10 orders have succeeded after the last termination (or 45 s have gone by)
      stop: (o) =>
        (rounds === 3 && o.filter((x) => x.at > terminatedAt && x.status === 201).length >= 10) ||
        Date.now() - startedAt > 45_000,
    })
    // three rounds of terminations while requests are in flight
    for (let round = 0; round < 3; round++) {
      await new Promise((r) => setTimeout(r, 700))
      terminated += await db.terminateSessions()
      terminatedAt = Date.now()
      rounds++
    }
    const outcomes = await load
    expect(terminated).toBeGreaterThan(0)
    expect(proc.alive()).toBe(true)

    // every answer is a created order or a clear 503: no 500, no reset
    const statuses = new Set(outcomes.map((o) => o.status))
    expect(
      [...statuses].every((s) => s === 201 || s === 503),
      `statuses: ${[...statuses]}`,
    ).toBe(true)
    for (const o of outcomes.filter((x) => x.status === 503)) {
      expect(o.code).toBe('database_unavailable')
      expect(Number(o.retryAfter)).toBeGreaterThan(0)
    }
    const after = outcomes.filter((o) => o.at > terminatedAt && o.status === 201)
    const lateFailures = outcomes.filter((o) => o.at > terminatedAt && o.status !== 201).map((o) => o.code)
    expect(
      after.length,
      `after the last termination: ${lateFailures.length} failed (${[...new Set(lateFailures)]})`,
    ).toBeGreaterThanOrEqual(10)
    const failed = outcomes.filter((o) => o.status !== 201).length
    console.log(
      `[db-faults] pg_terminate_backend ×3 (${terminated} sessions) during ${outcomes.length} orders: ` +
        `${failed} answered 503, first order after the last termination ${after[0]!.at - terminatedAt} ms later`,
    )
    // the shop counts what it made: every 201 is a row
    const [row] = await db.query<{ n: number }>('select count(*)::int as n from orders where email = $1', [
      orders.email,
    ])
    expect(row!.n).toBe(outcomes.filter((o) => o.status === 201).length)
  }, 120_000)

  it('a database that stops answering: health 503 at once, requests 503 not hangs, then recovery', async () => {
    const db = await database()
    const proxy: FaultProxy = await startFaultProxy({ host: '127.0.0.1', port: 5432 })
    cleanup.push(() => proxy.close())
    // start-up while the database is silent: the shop waits for it and says so
    proxy.setSilent(true)
    const proc = await shop(
      {
        DATABASE_URL: proxy.via(db.url),
        SEED_DEMO: '1',
        DB_CONNECT_TIMEOUT_MS: '1000',
        DB_QUERY_TIMEOUT_MS: '2000',
      },
      { waitReady: false },
    )
    await waitFor('the start-up wait in the log', () =>
      logLines(proc).some((l) => l.msg === 'database: not reachable yet, waiting (DB_STARTUP_WAIT_MS)'),
    )
    proxy.setSilent(false)
    await waitFor(
      'the shop to start',
      () =>
        fetch(`${proc.url}/api/health/`)
          .then((r) => r.ok)
          .catch(() => false),
      90_000,
    )
    expect((await fetch(`${proc.url}/api/games/`)).status).toBe(200)

    proxy.setSilent(true)
    const t0 = Date.now()
    const health = await fetch(`${proc.url}/api/health/`, { signal: AbortSignal.timeout(10_000) })
    const healthMs = Date.now() - t0
    expect(health.status).toBe(503)
    expect(await health.json()).toEqual({ status: 'unavailable' })
    // a client that sends its token everywhere gets health's own shape too (the token cannot be
    // checked while the database is away; health never reads one)
    const withToken = await fetch(`${proc.url}/api/health/`, {
      headers: { authorization: 'Bearer not-a-token' },
      signal: AbortSignal.timeout(10_000),
    })
    expect(withToken.status).toBe(503)
    expect(await withToken.json()).toEqual({ status: 'unavailable' })

    const t1 = Date.now()
    const answers = await Promise.all(
      ['/api/games/', '/api/games/?limit=5', '/api/gifts/', '/api/games/', '/api/games/'].map((p) =>
        fetch(proc.url + p, { signal: AbortSignal.timeout(20_000) }),
      ),
    )
    const requestsMs = Date.now() - t1
    for (const r of answers) {
      expect(r.status).toBe(503)
      expect(r.headers.get('retry-after')).toBe('2')
      expect(await r.json()).toMatchObject({
        code: 'database_unavailable',
        detail: expect.stringMatching(/недоступен/),
      })
    }

    proxy.setSilent(false)
    const t2 = Date.now()
    await waitFor('the shop to answer again', async () => {
      const r = await fetch(`${proc.url}/api/games/`)
      return r.status === 200
    })
    expect((await fetch(`${proc.url}/api/health/`)).status).toBe(200)
    console.log(
      `[db-faults] silent database: health 503 in ${healthMs} ms, 5 requests 503 within ${requestsMs} ms, ` +
        `answering again ${Date.now() - t2} ms after the network came back`,
    )
    expect(proc.alive()).toBe(true)
  }, 120_000)
})
