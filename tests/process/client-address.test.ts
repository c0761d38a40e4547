// The client's address behind proxies (issue 19), on a real process: X-Forwarded-For is believed
// only from TRUST_PROXY peers; anyone else is keyed by the socket address whatever they send. The
// visible effect is the sign-in limit per address (3 here). Loopback has a whole /8, so requests
// come from 127.0.0.2, 127.0.0.3 … as different clients would.
import { randomUUID } from 'node:crypto'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logLines, type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'

let shop: ShopProcess

/** One request from the loopback address `from`: its status and X-Request-Id. */
function send(
  from: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${shop.url}${path}`,
      { method: opts.method ?? 'GET', localAddress: from, headers: opts.headers },
      (res) => {
        res.resume()
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, requestId: String(res.headers['x-request-id'] ?? '') }),
        )
      },
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}

/** One sign-up attempt (a new email each time) from `from`, with extra headers; the status. */
async function signIn(from: string, headers: Record<string, string> = {}): Promise<number> {
  const body = JSON.stringify({ email: `c-${randomUUID()}@example.com`, password: 'long-enough-1' })
  const res = await send(from, '/api/auth/jwt/create/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  })
  return res.status
}

beforeAll(async () => {
  shop = await startShopProcess({
    env: {
      SHOP_ROLE: 'api',
      TRUST_PROXY: '127.0.0.1',
      SIGNIN_LIMIT_PER_ADDRESS: '3',
      SIGNIN_LIMIT_PER_ACCOUNT: '100',
    },
  })
}, 180_000)
afterAll(async () => {
  await shop?.stop('SIGKILL')
})

describe('TRUST_PROXY', () => {
  it('believes X-Forwarded-For from a trusted proxy: each shopper behind it has their own limit', async () => {
    const viaProxy = (client: string) => signIn('127.0.0.1', { 'x-forwarded-for': client })
    for (let i = 0; i < 3; i++) expect(await viaProxy('203.0.113.10')).toBe(200)
    expect(await viaProxy('203.0.113.10')).toBe(429)
    // the client's own left-hand entries prove nothing: the rightmost untrusted hop is the key
    expect(await viaProxy('198.51.100.1, 203.0.113.10')).toBe(429)
    // another shopper behind the same proxy is not locked out
    expect(await viaProxy('203.0.113.11')).toBe(200)
  })

  it('ignores X-Forwarded-For (and forged signed addresses) from anyone else', async () => {
    for (let i = 0; i < 3; i++)
      expect(
        await signIn('127.0.0.2', {
          'x-forwarded-for': `198.51.100.${i + 20}`,
          'x-shop-client-ip': `198.51.100.${i + 40}`,
          'x-shop-client-sig': `${Math.floor(Date.now() / 1000)}.${'A'.repeat(43)}`,
        }),
      ).toBe(200)
    expect(await signIn('127.0.0.2', { 'x-forwarded-for': '198.51.100.99' })).toBe(429)
    // a different socket address is a different client
    expect(await signIn('127.0.0.3')).toBe(200)
  })
})

describe('the access log', () => {
  it('one JSON line per request: request id (also X-Request-Id), method, path, status, duration, the believed address', async () => {
    const res = await send('127.0.0.1', '/api/games/?limit=2&email=someone%40mail.example', {
      headers: { 'x-forwarded-for': '203.0.113.77' },
    })
    expect(res.status).toBe(200)
    expect(res.requestId).toMatch(/^[0-9a-f-]{36}$/)
    const spoofed = await send('127.0.0.4', '/api/games/', { headers: { 'x-forwarded-for': '203.0.113.78' } })
    let lines: Array<Record<string, unknown>> = []
    for (let i = 0; i < 50 && lines.length < 2; i++) {
      lines = logLines(shop).filter(
        (l) => l.msg === 'request' && (l.reqId === res.requestId || l.reqId === spoofed.requestId),
      )
      await new Promise((r) => setTimeout(r, 100))
    }
    const [trusted, untrusted] = [res, spoofed].map((r) => lines.find((l) => l.reqId === r.requestId))
    expect(trusted).toMatchObject({
      level: 'info',
      method: 'GET',
      path: '/api/games/?limit=2&email=[redacted]',
      status: 200,
      client: '203.0.113.77',
    })
    expect(typeof trusted?.durationMs).toBe('number')
    expect(typeof trusted?.time).toBe('string')
    expect(untrusted).toMatchObject({ client: '127.0.0.4' })
    // no email of this run in the whole output (sign-ups above included)
    expect(shop.output()).not.toMatch(/@example\.com|mail\.example/)
  })
})
