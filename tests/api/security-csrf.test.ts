// Cross-site request forgery (server/csrf.ts) and the flags of the session cookies.
// The rule is tested as a unit, then through the real shop server (API role: the storefront's own
// forms are covered by e2e/security.spec.ts against the built app).
import { parse as parseSetCookie } from 'cookie'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { clearTokenCookies, tokenCookies } from '#app/lib/session.server'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { isForgedRequest } from '../../server/csrf'
import { createShopServer, type ShopServer } from '../../server/create-server'
import { loadServerEnv } from '../../server/env'

const req = (url: string, init: { method?: string; headers?: Record<string, string> } = {}) =>
  new Request(url, { method: init.method ?? 'POST', headers: init.headers })

describe('the origin rule', () => {
  const shop = 'http://localhost:3000'

  it('lets safe methods through whatever their origin', () => {
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      expect(isForgedRequest(req(`${shop}/`, { method, headers: { origin: 'http://evil.example' } }))).toBe(
        false,
      )
    }
  })

  it('refuses a storefront post from another origin, or with the opaque "null" origin', () => {
    for (const origin of [
      'http://evil.example',
      'http://localhost:3001',
      'https://localhost.evil.example',
      'null',
    ]) {
      expect(
        isForgedRequest(req(`${shop}/products/1`, { headers: { origin, host: 'localhost:3000' } })),
      ).toBe(true)
    }
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expect(
        isForgedRequest(req(`${shop}/auth`, { method, headers: { origin: 'http://evil.example' } })),
      ).toBe(true)
    }
  })

  it('accepts the shop’s own origin: the Host it was reached at, or PUBLIC_URL', () => {
    expect(isForgedRequest(req(`${shop}/auth`, { headers: { origin: shop, host: 'localhost:3000' } }))).toBe(
      false,
    )
    // behind a TLS-terminating proxy: the browser saw https, the app sees http on the same host
    expect(
      isForgedRequest(
        req('http://shop.example/auth', {
          headers: { origin: 'https://shop.example', host: 'shop.example' },
        }),
      ),
    ).toBe(false)
    // reached through an internal address while PUBLIC_URL names the public one
    const internal = req('http://10.0.0.5:3000/auth', {
      headers: { origin: 'https://shop.example', host: '10.0.0.5:3000' },
    })
    expect(isForgedRequest(internal, { publicUrl: 'https://shop.example' })).toBe(false)
    expect(isForgedRequest(internal, { publicUrl: 'https://other.example' })).toBe(true)
  })

  it('without Origin: refuses only what the browser marks cross-site', () => {
    expect(isForgedRequest(req(`${shop}/auth`, { headers: { 'sec-fetch-site': 'cross-site' } }))).toBe(true)
    expect(isForgedRequest(req(`${shop}/auth`, { headers: { 'sec-fetch-site': 'same-origin' } }))).toBe(false)
    expect(isForgedRequest(req(`${shop}/auth`, { headers: { 'sec-fetch-site': 'none' } }))).toBe(false)
    // server-to-server callers (curl, the payment providers) send neither
    expect(isForgedRequest(req(`${shop}/auth`))).toBe(false)
  })

  it('checks /api only for cookie-bearing calls without a bearer token', () => {
    const evil = { origin: 'http://evil.example' }
    const url = `${shop}/api/payments/countries/active/select/`
    expect(isForgedRequest(req(url, { headers: { ...evil, cookie: 'country_id=2' } }))).toBe(true)
    expect(isForgedRequest(req(url, { headers: { 'sec-fetch-site': 'cross-site', cookie: 'a=1' } }))).toBe(
      true,
    )
    // bearer tokens cannot be forged by a foreign page; cookie-less calls carry nothing to abuse
    expect(
      isForgedRequest(req(url, { headers: { ...evil, cookie: 'a=1', authorization: 'Bearer x' } })),
    ).toBe(false)
    expect(isForgedRequest(req(url, { headers: evil }))).toBe(false)
    // the provider's page sending the browser back (Payselection term): open to its origin
    expect(
      isForgedRequest(
        req(`${shop}/api/payments/payselection/term/00000000-0000-4000-8000-000000000000/`, {
          headers: { origin: 'https://webform.payselection.com', cookie: 'x=1' },
        }),
      ),
    ).toBe(false)
    // a payment provider's callback (no Origin, no Sec-Fetch-Site)
    expect(isForgedRequest(req(`${shop}/api/payments/getpay/notify/`, { headers: { cookie: 'x=1' } }))).toBe(
      false,
    )
  })
})

describe('through the shop server (API role)', () => {
  let api: TestApi
  let server: ShopServer
  beforeAll(async () => {
    api = await createTestApi()
    const env = loadServerEnv({
      NODE_ENV: 'test',
      SHOP_ROLE: 'api',
      PORT: '3000',
      DATA_DIR: api.config.uploadDir,
    })
    server = await createShopServer(env, api.database)
  })
  afterAll(() => api?.close())

  const select = (headers: Record<string, string>) =>
    server.fetch(
      new Request('http://localhost:3000/api/payments/countries/active/select/', {
        method: 'POST',
        headers: { 'content-type': 'application/json', host: 'localhost:3000', ...headers },
        body: JSON.stringify({ country_id: 1 }),
      }),
    )

  it('refuses a cross-site, cookie-bearing country switch with 403 in Russian and sets no cookie', async () => {
    const res = await select({ origin: 'http://evil.example', cookie: 'country_id=2' })
    expect(res.status).toBe(403)
    expect(res.headers.get('set-cookie')).toBeNull()
    const body = (await res.json()) as { detail: string; code: string }
    expect(body.code).toBe('csrf_origin_mismatch')
    expect(body.detail).toMatch(/другого сайта/)
  })

  it('lets the same switch through from the shop itself, and cookie-less calls from anywhere', async () => {
    const own = await select({ origin: 'http://localhost:3000', cookie: 'country_id=2' })
    expect(own.status).not.toBe(403)
    const anonymous = await select({ origin: 'http://evil.example' })
    expect(anonymous.status).not.toBe(403)
  })
})

describe('session cookie flags', () => {
  const tokens = { access: 'a.b.c', refresh: 'd.e.f' }
  const flags = (setCookie: string) => {
    const attrs = setCookie.split(';').map((p) => p.trim().toLowerCase())
    return {
      httpOnly: attrs.includes('httponly'),
      secure: attrs.includes('secure'),
      sameSite: attrs.find((a) => a.startsWith('samesite='))?.split('=')[1],
      path: attrs.find((a) => a.startsWith('path='))?.split('=')[1],
      maxAge: Number(attrs.find((a) => a.startsWith('max-age='))?.split('=')[1]),
    }
  }

  it('access and refresh: HttpOnly, SameSite=Lax, path /, 30 days; Secure outside plain-http localhost', () => {
    const cases: Array<[string, boolean]> = [
      ['http://localhost:3000/auth', false],
      ['http://127.0.0.1:3000/auth', false],
      ['https://localhost:3000/auth', true],
      ['http://shop.example/auth', true],
      ['https://shop.example/auth', true],
    ]
    for (const [url, secure] of cases) {
      const set = tokenCookies(tokens, new Request(url))
      expect(set.map((c) => Object.keys(parseSetCookie(c))[0])).toEqual(['access', 'refresh'])
      for (const c of set) {
        expect(flags(c), `${url}: ${c}`).toEqual({
          httpOnly: true,
          secure,
          sameSite: 'lax',
          path: '/',
          maxAge: 30 * 24 * 60 * 60,
        })
      }
    }
  })

  it('logout expires both with the same flags', () => {
    for (const c of clearTokenCookies(new Request('https://shop.example/'))) {
      expect(flags(c)).toMatchObject({ httpOnly: true, secure: true, sameSite: 'lax', maxAge: 0 })
    }
  })

  it("the API's country cookie: HttpOnly, SameSite=Lax, and Secure when the shop is public over https", async () => {
    const https = await createTestApi({ seed: true, env: { PUBLIC_URL: 'https://shop.example' } })
    try {
      const r = await https.call('POST', '/api/payments/countries/active/select/', {
        body: { country_id: 1 },
      })
      expect(r.status).toBe(200)
      expect(flags(r.headers.get('set-cookie') ?? '')).toMatchObject({
        httpOnly: true,
        secure: true,
        sameSite: 'lax',
      })
    } finally {
      await https.close()
    }
  })
})
