// Issue 19: every kind of process has a health route a balancer can poll, and it turns 503 the
// moment a SIGTERM arrives, while the process keeps serving for SHUTDOWN_DELAY_MS.
import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import { afterAll, describe, expect, it } from 'vitest'
import { logLines, type ShopProcess, startStorefrontProcess } from '#tests/helpers/shop-process'

const procs: ShopProcess[] = []
const apis: Server[] = []
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop('SIGKILL')))
  for (const api of apis) api.close()
})

/** A storefront-only shop process; the API it points at only needs to exist (it answers 404). */
async function startStorefrontOnly(env: Record<string, string> = {}): Promise<ShopProcess> {
  const api = createServer((_req, res) => res.writeHead(404).end())
  apis.push(api)
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', () => r()))
  const apiPort = (api.address() as { port: number }).port
  const shop = await startStorefrontProcess(`http://127.0.0.1:${apiPort}`, env)
  procs.push(shop)
  return shop
}

describe('health and draining of a storefront-only process', () => {
  it('SHOP_ROLE=storefront answers /api/health/ 200, then 503 while draining, then exits 0', async () => {
    const shop = await startStorefrontOnly({ SHUTDOWN_DELAY_MS: '2000' })
    const ok = await fetch(`${shop.url}/api/health/`)
    expect(ok.status).toBe(200)
    expect(ok.headers.get('cache-control')).toBe('no-store')
    expect(await ok.json()).toEqual({ status: 'ok' })

    shop.child.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 200))
    const draining = await fetch(`${shop.url}/api/health/`)
    expect(draining.status).toBe(503)
    expect(await draining.json()).toEqual({ status: 'unavailable' })
    // still serving pages during the delay
    const page = await fetch(`${shop.url}/version.json`)
    expect(page.status).toBe(200)

    expect(await shop.exited).toEqual({ code: 0, signal: null })
    expect(logLines(shop).map((l) => l.msg)).toEqual(
      expect.arrayContaining(['shutting down: draining', 'shut down']),
    )
  }, 120_000)
})

describe('idle keep-alive connections', () => {
  it('stay open past Node’s 5 s, so a client reusing one after a pause is answered', async () => {
    const shop = await startStorefrontOnly()
    // one raw connection, two requests on it with a 6 s pause between them
    const socket = connect(shop.port, '127.0.0.1')
    let received = ''
    let closed = false
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => {
      received += d
    })
    socket.on('close', () => {
      closed = true
    })
    socket.on('error', () => {})
    const ask = () => socket.write('GET /api/health/ HTTP/1.1\r\nHost: localhost\r\n\r\n')
    const answers = () => received.match(/HTTP\/1\.1 200 /g)?.length ?? 0

    ask()
    await expect.poll(answers, { timeout: 10_000 }).toBe(1)
    expect(received.toLowerCase()).toContain('keep-alive: timeout=65')
    await new Promise((r) => setTimeout(r, 6000))
    expect(closed).toBe(false)
    ask()
    await expect.poll(answers, { timeout: 10_000 }).toBe(2)
    socket.destroy()
  }, 120_000)
})
