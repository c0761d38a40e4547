// The page cache of the whole shop (server/page-cache.ts) over HTTP, on the demo catalogue: a
// signed-out visitor's second look at a game page is served from memory, yet every answer carries
// its own CSP nonce (matching its header) and its own order key; signed-in visitors and pages with
// a per-visitor value are never served from it; an answer lives CATALOGUE_CACHE_SECONDS; a page
// rendered without a part whose API read failed is never kept.
import { createServer, request as httpRequest, type Server } from 'node:http'
import { gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type ShopProcess,
  startShopProcess,
  startStorefrontProcess,
  waitFor,
} from '#tests/helpers/shop-process'

let shop: ShopProcess
let games: Array<{ id: number; resourcetype: string }>

beforeAll(async () => {
  shop = await startShopProcess({ env: { SEED_DEMO: '1', CATALOGUE_CACHE_SECONDS: '1' } })
  const res = await fetch(`${shop.url}/api/games/?limit=100`)
  games = ((await res.json()) as { results: typeof games }).results
}, 120_000)

const extra: ShopProcess[] = []
const proxies: Server[] = []

afterAll(async () => {
  for (const p of proxies) p.close()
  await Promise.all([...extra.map((p) => p.stop()), shop?.stop()])
})

const gameOf = (kind: string) => games.find((g) => g.resourcetype === kind)!.id

async function page(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${shop.url}${path}`, { headers })
  const body = await res.text()
  const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1]
  return { status: res.status, cache: res.headers.get('x-page-cache'), headers: res.headers, body, nonce }
}

/** The answer's bytes as they came on the wire (fetch would decode them). */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const req = httpRequest(`${shop.url}${path}`, { headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end()
    },
  )
}

const orderKey = (html: string) => /name="idempotency_key" value="([^"]+)"/.exec(html)?.[1]
const nonceAttrs = (html: string) => [...html.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1])

/** Loads `path` until an answer comes from the cache (a miss may race the first copy). */
async function hit(path: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 20; i++) {
    const p = await page(path, headers)
    if (p.cache === 'hit') return p
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`${path} never came from the cache`)
}

describe('whole pages of signed-out visitors from memory', () => {
  it('serves a game page again with its own nonce and order key, the rest unchanged', async () => {
    const path = `/products/${gameOf('PUBGGame')}`
    const a = await hit(path)
    const b = await hit(path)
    for (const p of [a, b]) {
      expect(p.status).toBe(200)
      expect(p.nonce).toBeTruthy()
      // every script the page carries runs under this answer's policy
      expect(nonceAttrs(p.body).length).toBeGreaterThan(0)
      expect(new Set(nonceAttrs(p.body))).toEqual(new Set([p.nonce]))
      expect(p.body).toContain('Оформление заказа')
    }
    expect(b.nonce).not.toBe(a.nonce)
    const [ka, kb] = [orderKey(a.body)!, orderKey(b.body)!]
    expect(ka).toMatch(/^[0-9a-f-]{36}$/)
    expect(kb).not.toBe(ka)
    const plain = (p: typeof a, key: string) => p.body.replaceAll(p.nonce!, 'N').replaceAll(key, 'K')
    expect(plain(b, kb)).toBe(plain(a, ka))
  })

  it('a browser asking for br gets a hit gzipped from the page compressed once: it decodes to the page, nonce and key its own', async () => {
    const path = `/products/${gameOf('PUBGGame')}`
    await hit(path)
    const wire = async () => {
      // the template is made off the event loop after the page is kept: up to 5 s on a busy machine
      for (let i = 0; i < 250; i++) {
        const r = await rawGet(path, { 'accept-encoding': 'gzip, deflate, br, zstd' })
        if (r.headers['x-page-cache'] === 'hit' && r.headers['content-encoding'] === 'gzip') return r
        await new Promise((done) => setTimeout(done, 20))
      }
      throw new Error('no gzipped hit')
    }
    const [a, b] = [await wire(), await wire()]
    for (const r of [a, b]) {
      expect(r.headers['content-length']).toBe(String(r.body.byteLength))
      expect(r.headers.vary).toMatch(/Accept-Encoding/)
      const html = gunzipSync(r.body).toString()
      const nonce = /'nonce-([^']+)'/.exec(String(r.headers['content-security-policy']))?.[1]
      expect(new Set(nonceAttrs(html))).toEqual(new Set([nonce]))
      expect(html).toContain('Оформление заказа')
      // the whole page: its streamed part too
      expect(html).toContain('streamController.close()')
    }
    expect(orderKey(gunzipSync(a.body).toString())).not.toBe(orderKey(gunzipSync(b.body).toString()))
    // no bigger than the page gzipped whole
    const plain = await page(path)
    expect(b.body.byteLength).toBeLessThan(gzipSync(plain.body, { level: 9 }).byteLength * 1.05)
  })

  it('serves the client navigation data (.data) of a page the same way', async () => {
    const path = `/products/${gameOf('PUBGGame')}.data`
    const a = await hit(path)
    const b = await hit(path)
    expect(a.headers.get('content-type')).toMatch(/text\/x-script/)
    const key = (body: string) => /"idempotencyKey",(?:\d+,)?"([0-9a-f-]{36})"/.exec(body)?.[1]
    expect(key(a.body)).toBeTruthy()
    expect(key(b.body)).not.toBe(key(a.body))
  })

  it('sends navigation data (.data) as private, shared or not: no proxy or CDN keeps any of it', async () => {
    const path = `/products/${gameOf('PUBGGame')}.data`
    const shared = await hit(path)
    const own = await page(path, { cookie: 'refresh=not-a-token' })
    const root = await page('/_root.data', { cookie: 'refresh=not-a-token' })
    expect(own.cache).toBeNull()
    for (const p of [shared, own, root]) {
      expect(p.status).toBe(200)
      expect(p.headers.get('cache-control')).toBe('private, no-cache')
    }
  })

  it('also serves the catalogue, the gift pages and the articles from it', async () => {
    for (const path of ['/', '/gifts', '/info/contacts']) expect((await hit(path)).status).toBe(200)
  })

  it('never for a visitor with a session cookie, nor a Standoff page (its surplus is per form)', async () => {
    const path = `/products/${gameOf('PUBGGame')}`
    await hit(path)
    const withCookie = await page(path, { cookie: 'refresh=not-a-token; i18n_redirected=ru' })
    expect(withCookie.status).toBe(200)
    expect(withCookie.cache).toBeNull()
    expect(nonceAttrs(withCookie.body)[0]).toBe(withCookie.nonce)

    const standoff = `/products/${gameOf('StandoffGame')}`
    for (let i = 0; i < 3; i++) expect((await page(standoff)).cache).toBeNull()
  })

  it('keeps an answer CATALOGUE_CACHE_SECONDS (1 s here), then renders again', async () => {
    const path = '/gifts?search=%D0%BA%D0%B0%D1%80%D1%82%D0%B0'
    await hit(path)
    await new Promise((r) => setTimeout(r, 1100))
    expect((await page(path)).cache).toBe('miss')
  })
})

describe('a page made without a part that failed to load', () => {
  /**
   * A storefront-only process whose API is the test shop behind a proxy that answers 503 to the
   * paths in `failing` (the way a struggling API would), and passes everything else through.
   */
  async function storefrontBehindFlakyApi(failing: Set<string>) {
    const proxy = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!
      if ([...failing].some((f) => path.startsWith(f))) {
        res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"unavailable"}')
        return
      }
      const target = new URL(shop.url)
      const forward = httpRequest(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(res)
        },
      )
      forward.on('error', () => res.writeHead(502).end())
      req.pipe(forward)
    })
    proxies.push(proxy)
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()))
    const port = (proxy.address() as { port: number }).port
    const storefront = await startStorefrontProcess(`http://127.0.0.1:${port}`, {
      CATALOGUE_CACHE_SECONDS: '60',
    })
    extra.push(storefront)
    return storefront
  }

  const load = async (base: string, path: string) => {
    const res = await fetch(`${base}${path}`)
    return { status: res.status, cache: res.headers.get('x-page-cache'), body: await res.text() }
  }

  it('is shown but never kept (a game page without its FAQ, a Steam page without its settings); once the part loads again it is', async () => {
    const failing = new Set(['/api/faq/'])
    const storefront = await storefrontBehindFlakyApi(failing)
    const pubg = `/products/${gameOf('PUBGGame')}`
    const steam = `/products/${gameOf('Steam')}`
    const hitOn = (path: string) =>
      waitFor(`${path} from the cache`, async () => {
        const p = await load(storefront.url, path)
        return p.cache === 'hit' ? p : null
      })

    // the FAQ fails: the page still works (the order form is there, the FAQ is not), nothing keeps it
    for (let i = 0; i < 3; i++) {
      const p = await load(storefront.url, pubg)
      expect(p.status).toBe(200)
      expect(p.body).toContain('Оформление заказа')
      expect(p.body).not.toContain('id="faq-heading"')
      expect(p.cache).toBeNull()
    }

    // the FAQ is back, Steam's settings fail: the game page is kept, the Steam page is not
    failing.clear()
    failing.add('/api/orders/steam/settings/')
    const first = await load(storefront.url, pubg)
    expect(first.cache).toBe('miss')
    expect(first.body).toContain('id="faq-heading"')
    expect((await hitOn(pubg)).body).toContain('id="faq-heading"')
    for (let i = 0; i < 3; i++) {
      const s = await load(storefront.url, steam)
      expect(s.status).toBe(200)
      expect(s.body).toContain('Оформление заказа')
      expect(s.cache).toBeNull()
    }

    failing.clear()
    expect((await load(storefront.url, steam)).cache).toBe('miss')
    expect((await hitOn(steam)).status).toBe(200)
  }, 120_000)
})
