// Issue 48: TLS in front. Debian's haproxy runs the committed deploy/haproxy-tls.cfg with a
// self-signed certificate made here by openssl, in front of two instances on PostgreSQL. Buyers
// connect from their own loopback addresses (127.0.0.0/8 is all this machine's): their orders, the
// per-address order limit and a YooKassa notification's address check all see the buyer's address,
// not the balancer's, whatever X-Forwarded-For a client forges; http:// redirects to https://; HSTS.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureSystemPackages, HAPROXY } from '../../scripts/system-packages'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'
import { nodeEndOfLife } from '../../shared/node-support'
import { freePort, logLines, type ShopProcess, startShopProcess, waitFor } from '#tests/helpers/shop-process'

const root = fileURLToPath(new URL('../..', import.meta.url))
const HOST = 'shop.test'
const ORDER_LIMIT = 3
const BUYER = '127.0.0.2'
const OTHER_BUYER = '127.0.0.5'
const YOOKASSA = '127.0.0.3'
const STRANGER = '127.0.0.4'

let db: PgTestDatabase
let yookassa: FakeYookassa
const shops: ShopProcess[] = []
let haproxy: ChildProcess
let haproxyOut = ''
let cert: string
let httpsPort: number
let httpPort: number

interface Answer {
  status: number
  headers: http.IncomingHttpHeaders
  body: string
}

/** One request from a given local address (a buyer's own), over https to the balancer or plain http. */
function request(
  from: string,
  scheme: 'https' | 'http',
  pathname: string,
  opts: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body)
  const options: https.RequestOptions = {
    host: '127.0.0.1',
    port: scheme === 'https' ? httpsPort : httpPort,
    localAddress: from,
    method: opts.method ?? 'GET',
    path: pathname,
    headers: {
      host: HOST,
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...opts.headers,
    },
    ...(scheme === 'https' ? { ca: cert, servername: HOST, agent: false } : { agent: false }),
  }
  return new Promise((resolve, reject) => {
    const req = (scheme === 'https' ? https : http).request(options, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d) => {
        text += d
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }))
    })
    req.on('error', reject)
    req.setTimeout(30_000, () => req.destroy(new Error('timed out')))
    req.end(body)
  })
}

/** The access line (of whichever instance answered) for a request id. */
function accessLine(reqId: string) {
  return shops.flatMap((s) => logLines(s)).find((l) => l.msg === 'request' && l.reqId === reqId)
}

let productId: number
const order = (from: string, email: string, headers: Record<string, string> = {}) =>
  request(from, 'https', '/api/orders/pubg/', {
    method: 'POST',
    body: { products: [{ product_id: productId, quantity: 1 }], email },
    headers: { 'idempotency-key': randomUUID(), ...headers },
  })

beforeAll(async () => {
  ensureSystemPackages([HAPROXY])
  const dir = mkdtempSync(path.join(tmpdir(), 'tls-'))
  // a self-signed certificate for shop.test, made now (nothing secret is committed)
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    path.join(dir, 'key.pem'),
    '-out',
    path.join(dir, 'cert.pem'),
    '-days',
    '1',
    '-subj',
    `/CN=${HOST}`,
    '-addext',
    `subjectAltName=DNS:${HOST}`,
  ])
  cert = readFileSync(path.join(dir, 'cert.pem'), 'utf8')
  writeFileSync(path.join(dir, 'shop.pem'), cert + readFileSync(path.join(dir, 'key.pem'), 'utf8'))

  db = await createPgDatabase('shop_tls')
  yookassa = await startFakeYookassa()
  const ports = [await freePort(), await freePort()]
  const start = (port: number) =>
    startShopProcess({
      env: {
        ...yookassa.env,
        SHOP_ROLE: 'api',
        DATABASE_URL: db.url,
        PUBLIC_URL: `https://${HOST}`,
        SEED_DEMO: '1',
        PORT: String(port),
        TRUST_PROXY: '127.0.0.1', // haproxy, on this machine, reaches the instances from 127.0.0.1
        ORDER_LIMIT_PER_ADDRESS: String(ORDER_LIMIT),
        YOOKASSA_NOTIFY_FROM: `${YOOKASSA}/32`,
      },
      readyTimeoutMs: 120_000,
    })
  shops.push(...(await Promise.all(ports.map(start))))
  httpsPort = await freePort()
  httpPort = await freePort()
  haproxy = spawn(HAPROXY.binary, ['-f', 'deploy/haproxy-tls.cfg', '-db'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      HTTP_BIND: `127.0.0.1:${httpPort}`,
      HTTPS_BIND: `127.0.0.1:${httpsPort}`,
      CERT: path.join(dir, 'shop.pem'),
      SHOP1: `127.0.0.1:${ports[0]}`,
      SHOP2: `127.0.0.1:${ports[1]}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const s of [haproxy.stdout, haproxy.stderr])
    s?.on('data', (d) => {
      haproxyOut += d
    })
  // both instances answer through the balancer (round robin: two health answers from two pids)
  await waitFor(
    'haproxy serving https',
    async () => (await request(BUYER, 'https', '/api/health/').catch(() => null))?.status === 200,
  )
  const games = JSON.parse((await request(BUYER, 'https', '/api/games/?limit=100')).body) as {
    results: Array<{ id: number; resourcetype: string; is_auth_required: boolean }>
  }
  const pubg = games.results.find((g) => g.resourcetype === 'PUBGGame' && !g.is_auth_required)!
  const game = JSON.parse((await request(BUYER, 'https', `/api/games/${pubg.id}/`)).body) as {
    products: Array<{ id: number }>
  }
  productId = game.products[0]!.id
}, 240_000)

afterAll(async () => {
  haproxy?.kill('SIGKILL')
  await Promise.all(shops.map((s) => s.stop('SIGKILL')))
  await yookassa?.close()
  await db?.drop()
})

describe('haproxy terminating TLS in front of two instances (deploy/haproxy-tls.cfg)', () => {
  it('http:// answers with a redirect to the same address over https://', async () => {
    const r = await request(BUYER, 'http', '/games/pubg-mobile?x=1')
    expect(r.status).toBe(301)
    expect(r.headers.location).toBe(`https://${HOST}/games/pubg-mobile?x=1`)
  })

  it('https answers carry HSTS', async () => {
    const r = await request(BUYER, 'https', '/api/health/')
    expect(r.status).toBe(200)
    expect(r.headers['strict-transport-security']).toBe('max-age=63072000; includeSubDomains')
  })

  it("a buyer's order is the buyer's address, a forged X-Forwarded-For changes nothing", async () => {
    const r = await order(BUYER, `tls-${randomUUID().slice(0, 8)}@example.com`, {
      'x-forwarded-for': '203.0.113.9',
    })
    expect(r.status, r.body).toBe(201)
    const line = await waitFor('its access line', () => accessLine(String(r.headers['x-request-id'])))
    expect(line.client).toBe(BUYER)
  })

  it('the per-address order limit counts each buyer on their own, across both instances', async () => {
    const email = () => `tls-${randomUUID().slice(0, 8)}@example.com`
    // the first order of the previous test counts too: ORDER_LIMIT - 1 more are allowed
    const answers: Answer[] = []
    for (let i = 1; i < ORDER_LIMIT; i++) answers.push(await order(BUYER, email()))
    expect(answers.map((a) => a.status)).toEqual(Array(ORDER_LIMIT - 1).fill(201))
    // both instances answered some of them (round robin): the limit is the database's, not one process's
    const instance = (a: Answer) =>
      shops.findIndex((s) => logLines(s).some((l) => l.reqId === a.headers['x-request-id']))
    await waitFor('their access lines', () => answers.every((a) => instance(a) >= 0))
    expect(new Set(answers.map(instance)).size).toBe(2)
    const over = await order(BUYER, email(), { 'x-forwarded-for': '198.51.100.7' })
    expect(over.status, over.body).toBe(429)
    expect(over.headers['retry-after']).toBeTruthy()
    // another buyer behind the same balancer is not limited by the first one's orders
    const other = await order(OTHER_BUYER, email())
    expect(other.status, other.body).toBe(201)
    const line = await waitFor('its access line', () => accessLine(String(other.headers['x-request-id'])))
    expect(line.client).toBe(OTHER_BUYER)
  })

  it("a YooKassa notification is accepted from YooKassa's address only", async () => {
    const payment = yookassa.plant({ value: '100.00', currency: 'RUB' }, {})
    const notice = yookassa.notification('payment.succeeded', payment)
    const fetchedBefore = yookassa.log.length
    const allowed = await request(YOOKASSA, 'https', '/api/payments/yookassa/notify/', {
      method: 'POST',
      body: notice,
    })
    expect(allowed.status, allowed.body).toBe(200)
    expect(JSON.parse(allowed.body)).toEqual({ status: 'ok' })
    // the shop asked YooKassa about the payment: the notification was let through, then checked
    expect(yookassa.log.slice(fetchedBefore).some((r) => r.path.endsWith(`/payments/${payment.id}`))).toBe(
      true,
    )
    // the same notification from anyone else, even claiming YooKassa's address in the header
    const forged = await request(STRANGER, 'https', '/api/payments/yookassa/notify/', {
      method: 'POST',
      body: notice,
      headers: { 'x-forwarded-for': YOOKASSA },
    })
    expect(forged.status, forged.body).toBe(403)
    expect(JSON.parse(forged.body)).toMatchObject({ code: 'yookassa_notify_forbidden' })
    expect(haproxy.exitCode, haproxyOut).toBeNull()
  })

  it('an instance started on a Node.js past its end of life says so in its log (Node 20: yes)', () => {
    const warned = logLines(shops[0]!).find((l) => String(l.msg).includes('past its end of life'))
    expect(Boolean(warned)).toBe(nodeEndOfLife() !== null)
    if (process.versions.node.startsWith('20.')) {
      expect(warned).toMatchObject({ level: 'warn', node: process.versions.node, endedOn: '2026-04-30' })
      expect(String(warned?.msg)).toContain('docs/operations.md, section «Node.js»')
    }
  })
})
