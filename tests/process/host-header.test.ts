// Issue 20 item 9, over HTTP against the whole shop (storefront and API in one process): without
// PUBLIC_URL, a forged `Host` or `X-Forwarded-Host` must not reach canonical links, Open Graph
// URLs, JSON-LD, sitemap.xml, robots.txt or any redirect. The peer (127.0.0.1) is a trusted proxy
// here, so forwarded headers are believed as far as the shop believes them at all: the strongest
// case. The links point at localhost on the shop's own port (tests/unit/site-origin.test.ts has
// the rule itself).
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'

let shop: ShopProcess

beforeAll(async () => {
  shop = await startShopProcess({ env: { SEED_DEMO: '1', TRUST_PROXY: '127.0.0.1' } })
}, 120_000)

afterAll(async () => {
  await shop?.stop()
})

/** A GET with headers `fetch` would not send as given (Host); status, headers and body. */
function get(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = request(`${shop.url}${path}`, { headers }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d) => {
          body += d
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      })
      req.on('error', reject)
      req.end()
    },
  )
}

const forgeries: Array<[string, Record<string, string>]> = [
  ['Host', { host: 'evil.example' }],
  ['Host with a port', { host: 'evil.example:443' }],
  ['X-Forwarded-Host', { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }],
  ['both', { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }],
]

/** Pages whose answers carry the public origin. */
const paths = ['/sitemap.xml', '/robots.txt', '/', '/products/1', '/gifts', '/info']

describe('a forged Host never reaches public links', () => {
  it('the pages carry the origin at all (control): localhost on the shop’s port', async () => {
    const own = `http://localhost:${shop.port}`
    const sitemap = await get('/sitemap.xml', {})
    expect(sitemap.status).toBe(200)
    expect(sitemap.body).toContain(`<loc>${own}/`)
    const robots = await get('/robots.txt', {})
    expect(robots.body).toContain(`Sitemap: ${own}/sitemap.xml`)
    const page = await get('/products/1', {})
    expect(page.status).toBe(200)
    expect(page.body.match(/<link rel="canonical" href="([^"]*)"/)?.[1]).toBe(`${own}/products/1`)
  })

  for (const [name, headers] of forgeries) {
    it(`${name}: no answer names evil.example, in its body or its headers`, async () => {
      for (const path of paths) {
        const r = await get(path, headers)
        expect(r.status, `${path}: ${r.body.slice(0, 200)}`).toBe(200)
        // booleans, so a failure names the path instead of printing the whole page
        expect(r.body.includes('evil.example'), `${path}: body`).toBe(false)
        expect(JSON.stringify(r.headers).includes('evil.example'), `${path}: headers`).toBe(false)
      }
      const page = await get('/products/1', headers)
      const canonical = page.body.match(/<link rel="canonical" href="([^"]*)"/)?.[1]
      expect(canonical).toBe(`http://localhost:${shop.port}/products/1`)
      const sitemap = await get('/sitemap.xml', headers)
      expect(sitemap.body).toContain(`<loc>http://localhost:${shop.port}/`)
    })

    it(`${name}: redirects stay on our origin`, async () => {
      // a trailing slash, sign-in with returnTo and a product that needs a redirect
      for (const path of ['/products/1/', '/auth?returnTo=/orders', '/account']) {
        const r = await get(path, headers)
        const location = String(r.headers.location ?? '')
        expect(location.includes('evil.example'), `${path}: Location ${location}`).toBe(false)
        expect(r.body.includes('evil.example'), `${path}: body`).toBe(false)
      }
    })
  }
})
