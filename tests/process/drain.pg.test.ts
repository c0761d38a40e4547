// Issue 19: SIGTERM under load used to answer 500s and resets (listener and pool closed at once).
// Now: not ready at once, still accepting for SHUTDOWN_DELAY_MS, every request in flight finishes
// (database latency added by the test's proxy makes them slow), then exit 0.
import { describe, expect, it } from 'vitest'
import { cleanupAfterAll } from '#tests/helpers/cleanup'
import { startFaultProxy } from '#tests/helpers/fault-proxy'
import { prepareOrders } from '#tests/helpers/order-load'
import { createPgDatabase } from '#tests/helpers/pg-database'
import { logLines, startShopProcess } from '#tests/helpers/shop-process'

const cleanup = cleanupAfterAll()

describe('graceful shutdown', () => {
  it('SIGTERM with slow requests in flight: health 503 at once, every request 2xx, exit 0', async () => {
    const db = await createPgDatabase('shop_drain')
    cleanup.push(() => db.drop())
    const proxy = await startFaultProxy({ host: '127.0.0.1', port: 5432 })
    cleanup.push(() => proxy.close())
    const shop = await startShopProcess({
      env: {
        SHOP_ROLE: 'api',
        DATABASE_URL: proxy.via(db.url),
        PUBLIC_URL: 'http://localhost', // PostgreSQL means production: a public origin is required
        SEED_DEMO: '1',
        CATALOGUE_CACHE_SECONDS: '0',
        SHUTDOWN_DELAY_MS: '1500',
        SHUTDOWN_TIMEOUT_MS: '60000',
      },
      readyTimeoutMs: 90_000,
    })
    cleanup.push(() => shop.stop('SIGKILL'))
    const orders = await prepareOrders(shop.url)

    proxy.setLatency(150) // every database round trip now takes 0.3 s
    const inFlight = Array.from({ length: 12 }, () =>
      orders.create(shop.url, undefined, AbortSignal.timeout(90_000)).then(
        async (r) => ({ status: r.status, body: await r.text() }),
        (e: Error) => ({ status: 0, body: e.message }),
      ),
    )
    await new Promise((r) => setTimeout(r, 400))
    shop.child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 100))

    // draining: not ready, yet a request routed here a moment ago is still served
    const health = await fetch(`${shop.url}/api/health/`, { signal: AbortSignal.timeout(10_000) })
    expect(health.status).toBe(503)
    const late = await orders.create(shop.url, undefined, AbortSignal.timeout(90_000))
    expect(late.status).toBe(201)

    const answers = await Promise.all(inFlight)
    const statuses = answers.map((a) => a.status)
    console.log(`[drain] SIGTERM with 12 slow orders in flight: statuses ${statuses.join(',')}`)
    for (const a of answers) expect(a.status, a.body).toBe(201)
    expect(await shop.exited).toEqual({ code: 0, signal: null })
    const lines = logLines(shop).map((l) => l.msg)
    expect(lines).toContain('shutting down: draining')
    expect(lines.at(-1)).toBe('shut down')
    const [row] = await db.query<{ n: number }>('select count(*)::int as n from orders where email = $1', [
      orders.email,
    ])
    expect(row!.n).toBe(13)
  }, 150_000)
})
