// Prometheus metrics on METRICS_PORT (issue 19): a real process, scraped as Prometheus would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'

let shop: ShopProcess
let metricsUrl: string

beforeAll(async () => {
  const port = await freePort()
  metricsUrl = `http://127.0.0.1:${port}/metrics`
  shop = await startShopProcess({
    // the shop listens on every interface, as in production; the metrics must still not (issue 37)
    env: { SHOP_ROLE: 'api', METRICS_PORT: String(port), HOST: '0.0.0.0' },
    readyTimeoutMs: 170_000,
  })
}, 180_000)
afterAll(async () => {
  await shop?.stop('SIGKILL')
})

describe('metrics', () => {
  it('process defaults, request durations by route and status, orders and jobs by status', async () => {
    expect((await fetch(`${shop.url}/api/games/`)).status).toBe(200)
    const game = (await (await fetch(`${shop.url}/api/games/3/`)).json()) as { products: { id: number }[] }
    const order = await fetch(`${shop.url}/api/orders/standoff/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        products: [{ product_id: game.products[0]?.id, quantity: 1 }],
        email: 'metrics@example.com',
        game_account_id: '12345678',
        surplus: '0.10',
      }),
    })
    expect(order.status).toBe(201)

    const res = await fetch(metricsUrl)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/plain')
    const text = await res.text()
    expect(text).toMatch(/^process_cpu_user_seconds_total\{[^}]*\} \d/m)
    expect(text).toMatch(/^nodejs_heap_size_used_bytes\{/m)
    // ids in paths are folded, so the label set stays small
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{[^}]*method="GET",route="\/api\/games\/",status="200"[^}]*\} 1$/m,
    )
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{[^}]*method="GET",route="\/api\/games\/:id\/",status="200"[^}]*\} 1$/m,
    )
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{[^}]*method="POST",route="\/api\/orders\/standoff\/",status="201"/m,
    )
    expect(text).toMatch(/^shop_orders\{[^}]*status="created"[^}]*\} [1-9]/m)
    expect(text).toMatch(/^shop_jobs\{[^}]*status="[a-z]+"[^}]*\} \d/m)
    expect(text).toMatch(/^# TYPE shop_job_failures_total counter/m)
  })

  it('only on their own port, not on the public one', async () => {
    expect((await fetch(`${shop.url}/metrics`)).status).toBe(404)
  })

  it('the metrics listener is bound to the loopback only: another address of the host is refused', async () => {
    // 127.0.0.2 reaches a listener bound to every interface, never one bound to 127.0.0.1
    const other = (url: string) => url.replace('127.0.0.1', '127.0.0.2').replace('localhost', '127.0.0.2')
    expect((await fetch(other(`${shop.url}/api/health/`))).status).toBe(200)
    const refused = await fetch(other(metricsUrl)).then(
      () => 'answered',
      (err: Error & { cause?: { code?: string } }) => err.cause?.code ?? err.message,
    )
    expect(refused).toBe('ECONNREFUSED')
  })
})
