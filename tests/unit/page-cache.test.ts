// The page cache (server/page-cache.ts) with a render that behaves like the storefront's: what a
// visitor gets back on a miss and on a hit, and what is never kept or never shared.
import { randomBytes } from 'node:crypto'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { PAGE_CACHE_STATUS_HEADER as STATUS, createPageCache, type PageRender } from '../../server/page-cache'
import { SHARED_PAGE_HEADER } from '#app/lib/shared-page.server'

const NONCE_A = 'bm9uY2UtQS0xMjM0NTY3OA=='
const NONCE_B = 'bm9uY2UtQi0xMjM0NTY3OA=='
const NONCE_C = 'bm9uY2UtQy0xMjM0NTY3OA=='

interface RenderOptions {
  shared?: boolean
  status?: number
  setCookie?: string[]
  body?: (r: PageRender) => string
}

/** A render that counts its calls and builds a page with the nonce and one form key used twice. */
function renderer(options: RenderOptions = {}) {
  const calls: PageRender[] = []
  const render = async (r: PageRender) => {
    calls.push(r)
    const key = r.formKey()
    const body =
      options.body?.(r) ??
      `<script nonce="${r.nonce}">go()</script><input name="key" value="${key}"><p>Цена 89 ₽</p>` +
        `<script nonce="${r.nonce}">data({"key":"${key}"})</script>`
    const headers = new Headers({ 'content-type': 'text/html; charset=utf-8' })
    if (options.shared !== false) headers.set(SHARED_PAGE_HEADER, '1')
    for (const c of options.setCookie ?? []) headers.append('set-cookie', c)
    return new Response(body, { status: options.status ?? 200, headers })
  }
  return { render, calls }
}

/** `render` held until `release()`: a render waiting on a slow API or a stalled database. */
function held(render: (r: PageRender) => Promise<Response>) {
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  return {
    render: async (r: PageRender) => {
      await gate
      return render(r)
    },
    release: () => release(),
  }
}

function get(path = '/products/1', headers: Record<string, string> = {}) {
  return new Request(`http://shop.test${path}`, { headers })
}

/** Lets the copy of a miss's body be read and kept. */
const settle = () => new Promise((r) => setTimeout(r, 10))

/** Waits for work done off the event loop (a page's gzip template), at most 5 s. */
async function until(condition: () => boolean | Promise<boolean>) {
  for (let waited = 0; !(await condition()); waited += 10) {
    if (waited > 5000) throw new Error('condition not met in 5 s')
    await settle()
  }
}

function clock(start = 1000) {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

const uuidsIn = (html: string) => [...html.matchAll(/[0-9a-f]{8}-[0-9a-f-]{27}/g)].map((m) => m[0])
const valueKeys = (html: string) => [...html.matchAll(/value="([0-9a-f-]{36})"/g)].map((m) => m[1])

describe('page cache', () => {
  it('serves a shared page again with a fresh nonce and fresh form keys, the rest unchanged', async () => {
    const cache = createPageCache({ ttlMs: 2000 })
    const { render, calls } = renderer()
    const first = await cache.serve(get(), NONCE_A, render)
    expect(first.headers.get(STATUS)).toBe('miss')
    expect(first.headers.has(SHARED_PAGE_HEADER)).toBe(false)
    const firstHtml = await first.text()
    await settle()
    const second = await cache.serve(get(), NONCE_B, render)
    expect(second.headers.get(STATUS)).toBe('hit')
    expect(second.headers.has(SHARED_PAGE_HEADER)).toBe(false)
    expect(second.headers.get('content-type')).toBe('text/html; charset=utf-8')
    const secondHtml = await second.text()
    expect(calls).toHaveLength(1)

    expect(secondHtml).not.toContain(NONCE_A)
    expect(secondHtml.match(new RegExp(`nonce="${NONCE_B}"`, 'g'))).toHaveLength(2)
    // the form key is new, and the same wherever the page carries it
    const [k1] = valueKeys(firstHtml)
    const [k2] = valueKeys(secondHtml)
    expect(k2).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(k2).not.toBe(k1)
    expect(uuidsIn(secondHtml)).toEqual([k2, k2])
    expect(secondHtml.replaceAll(NONCE_B, 'N').replaceAll(k2!, 'K')).toBe(
      firstHtml.replaceAll(NONCE_A, 'N').replaceAll(k1!, 'K'),
    )
    // two hits never share a key either
    const third = await (await cache.serve(get(), NONCE_A, render)).text()
    expect(valueKeys(third)[0]).not.toBe(k2)
  })

  it('keeps an answer for its time only, then renders again', async () => {
    const t = clock()
    const cache = createPageCache({ ttlMs: 2000, now: t.now })
    const { render, calls } = renderer()
    await (await cache.serve(get(), NONCE_A, render)).text()
    await settle()
    t.advance(1999)
    expect((await cache.serve(get(), NONCE_B, render)).headers.get(STATUS)).toBe('hit')
    t.advance(1)
    expect((await cache.serve(get(), NONCE_B, render)).headers.get(STATUS)).toBe('miss')
    expect(calls).toHaveLength(2)
  })

  it('keys by path and query, locale cookie and bot or browser', async () => {
    const cache = createPageCache({ ttlMs: 2000 })
    const { render, calls } = renderer()
    const requests = [
      get('/products/1'),
      get('/products/2'),
      get('/products/1?tab=new'),
      get('/products/1', { cookie: 'i18n_redirected=ru' }),
      get('/products/1', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' }),
    ]
    for (const req of requests) await (await cache.serve(req, NONCE_A, render)).text()
    await settle()
    expect(calls).toHaveLength(5)
    expect(cache.size).toBe(5)
    for (const req of requests)
      expect((await cache.serve(req, NONCE_B, render)).headers.get(STATUS)).toBe('hit')
    expect(calls).toHaveLength(5)
  })

  it('never answers a visitor with a cookie or a token from the cache, nor keeps their page', async () => {
    const cache = createPageCache({ ttlMs: 2000 })
    const { render, calls } = renderer()
    await (await cache.serve(get(), NONCE_A, render)).text()
    await settle()
    const visitors: Array<Record<string, string>> = [
      { cookie: 'access=eyJ; i18n_redirected=ru' },
      { cookie: 'refresh=abc' },
      { authorization: 'Bearer eyJ' },
    ]
    for (const headers of visitors) {
      const res = await cache.serve(get('/products/1', headers), NONCE_B, render)
      expect(res.headers.has(STATUS)).toBe(false)
      expect(res.headers.has(SHARED_PAGE_HEADER)).toBe(false)
      expect(await res.text()).toContain(NONCE_B)
    }
    expect(calls).toHaveLength(4)
    expect(cache.size).toBe(1)
    // a form post is never served from the cache
    const post = new Request('http://shop.test/products/1', { method: 'POST', body: 'x=1' })
    expect((await cache.serve(post, NONCE_B, render)).headers.has(STATUS)).toBe(false)
  })

  it('does not keep what its route did not call shared, an error, a cookie or an oversized page', async () => {
    const cases: Array<[string, RenderOptions, number?]> = [
      ['not shared', { shared: false }],
      ['not found', { status: 404 }],
      ['a session cookie', { setCookie: ['refresh=new; Path=/; HttpOnly'] }],
      ['locale and session', { setCookie: ['i18n_redirected=ru; Path=/', 'access=x; Path=/; HttpOnly'] }],
      ['too large', { body: () => 'x'.repeat(2000) }, 1000],
    ]
    for (const [name, options, maxBodyBytes] of cases) {
      const cache = createPageCache({ ttlMs: 2000, maxBodyBytes })
      const { render, calls } = renderer(options)
      const first = await cache.serve(get(), NONCE_A, render)
      expect(first.headers.has(SHARED_PAGE_HEADER), name).toBe(false)
      await first.text()
      await settle()
      await (await cache.serve(get(), NONCE_B, render)).text()
      expect(calls, name).toHaveLength(2)
      expect(cache.size, name).toBe(0)
    }
  })

  it('keeps the locale cookie a first visit gets, and replays it', async () => {
    const cache = createPageCache({ ttlMs: 2000 })
    const { render } = renderer({ setCookie: ['i18n_redirected=ru; Max-Age=31536000; Path=/; SameSite=Lax'] })
    await (await cache.serve(get(), NONCE_A, render)).text()
    await settle()
    const hit = await cache.serve(get(), NONCE_B, render)
    expect(hit.headers.get(STATUS)).toBe('hit')
    expect(hit.headers.getSetCookie()).toEqual(['i18n_redirected=ru; Max-Age=31536000; Path=/; SameSite=Lax'])
  })

  it('holds at most maxEntries answers, dropping the oldest', async () => {
    const cache = createPageCache({ ttlMs: 60_000, maxEntries: 2 })
    const { render } = renderer()
    for (const id of [1, 2, 3]) await (await cache.serve(get(`/products/${id}`), NONCE_A, render)).text()
    await settle()
    expect(cache.size).toBe(2)
    expect((await cache.serve(get('/products/1'), NONCE_B, render)).headers.get(STATUS)).toBe('miss')
    await settle()
    expect((await cache.serve(get('/products/3'), NONCE_B, render)).headers.get(STATUS)).toBe('hit')
  })

  it('drops pages never served from the cache before those visitors read', async () => {
    const cache = createPageCache({ ttlMs: 60_000, maxEntries: 2 })
    const { render } = renderer()
    await (await cache.serve(get('/products/1'), NONCE_A, render)).text()
    await settle()
    expect((await cache.serve(get('/products/1'), NONCE_B, render)).headers.get(STATUS)).toBe('hit')
    // one-off query strings push out one another, not the page visitors read
    for (const q of ['?a=1', '?a=2', '?a=3']) {
      await (await cache.serve(get(`/products/2${q}`), NONCE_A, render)).text()
      await settle()
    }
    expect(cache.size).toBe(2)
    expect((await cache.serve(get('/products/1'), NONCE_B, render)).headers.get(STATUS)).toBe('hit')
    expect((await cache.serve(get('/products/2?a=3'), NONCE_B, render)).headers.get(STATUS)).toBe('hit')
  })

  it('among pages visitors read, drops the one read least recently', async () => {
    const cache = createPageCache({ ttlMs: 60_000, maxEntries: 2 })
    const { render } = renderer()
    const status = async (path: string) => {
      const res = await cache.serve(get(path), NONCE_B, render)
      await res.text()
      await settle()
      return res.headers.get(STATUS)
    }
    for (const path of ['/products/1', '/products/2']) await status(path)
    expect(await status('/products/2')).toBe('hit')
    expect(await status('/products/1')).toBe('hit') // page 1 is now the one read last
    await status('/products/3')
    expect(await status('/products/1')).toBe('hit')
    expect(await status('/products/2')).toBe('miss')
  })

  it('a hit for a client that takes gzip comes gzipped once for all hits, with its own nonce and keys', async () => {
    const cache = createPageCache({ ttlMs: 2000 })
    const { render } = renderer()
    const browser = { 'accept-encoding': 'gzip, deflate, br, zstd' }
    const firstHtml = await (await cache.serve(get('/products/1', browser), NONCE_A, render)).text()
    let hit = new Response()
    await until(async () => {
      hit = await cache.serve(get('/products/1', browser), NONCE_B, render)
      return hit.headers.has('content-encoding')
    })
    expect(hit.headers.get(STATUS)).toBe('hit')
    expect(hit.headers.get('content-encoding')).toBe('gzip')
    expect(hit.headers.get('vary')).toBe('Accept-Encoding')
    const bytes = Buffer.from(await hit.arrayBuffer())
    expect(hit.headers.get('content-length')).toBe(String(bytes.byteLength))
    const html = gunzipSync(bytes).toString()
    const [k1] = valueKeys(firstHtml)
    const [k2] = valueKeys(html)
    expect(k2).not.toBe(k1)
    expect(uuidsIn(html)).toEqual([k2, k2])
    expect(html.replaceAll(NONCE_B, 'N').replaceAll(k2!, 'K')).toBe(
      firstHtml.replaceAll(NONCE_A, 'N').replaceAll(k1!, 'K'),
    )
    // a client that refuses gzip gets the text (compressed later, by the compression middleware)
    const refusing: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'br' },
      { 'accept-encoding': 'gzip;q=0, br' },
    ]
    for (const refuses of refusing) {
      const plain = await cache.serve(get('/products/1', refuses), NONCE_B, render)
      expect(plain.headers.get(STATUS)).toBe('hit')
      expect(plain.headers.get('content-encoding')).toBeNull()
      expect(await plain.text()).toContain(`nonce="${NONCE_B}"`)
    }
  })

  it('does not keep a page that went wrong after its first bytes', async () => {
    const cache = createPageCache({ ttlMs: 2000 })
    const { render, calls } = renderer()
    const spoiling = async (r: PageRender) => {
      const res = await render(r)
      r.spoil()
      return res
    }
    await (await cache.serve(get(), NONCE_A, spoiling)).text()
    await settle()
    expect(cache.size).toBe(0)
    expect((await cache.serve(get(), NONCE_B, render)).headers.get(STATUS)).toBe('miss')
    expect(calls).toHaveLength(2)
  })

  it('renders an expired page once: meanwhile its last copy is served, for at most one more cache time', async () => {
    const t = clock()
    const cache = createPageCache({ ttlMs: 2000, now: t.now })
    const { render, calls } = renderer()
    await (await cache.serve(get(), NONCE_A, render)).text()
    await settle()
    t.advance(2000)
    const { render: slow, release } = held(render)
    const renderingAgain = cache.serve(get(), NONCE_A, slow)
    const meanwhile = await cache.serve(get(), NONCE_B, render)
    expect(meanwhile.headers.get(STATUS)).toBe('hit')
    expect(await meanwhile.text()).toContain(NONCE_B)
    t.advance(1999)
    expect((await cache.serve(get(), NONCE_B, render)).headers.get(STATUS)).toBe('hit')
    expect(calls).toHaveLength(1)
    t.advance(1)
    // the copy is two cache times old now (the API may have stalled): this visitor gets a new page
    const fresh = await cache.serve(get(), NONCE_C, render)
    expect(fresh.headers.get(STATUS)).toBe('miss')
    expect(await fresh.text()).toContain(NONCE_C)
    expect(calls).toHaveLength(2)
    release()
    expect((await renderingAgain).headers.get(STATUS)).toBe('miss')
    expect(calls).toHaveLength(3)
  })

  it('answers the requests that come while a page renders for the first time from that render', async () => {
    const cache = createPageCache({ ttlMs: 2000 })
    const { render, calls } = renderer()
    const { render: slow, release } = held(render)
    const first = cache.serve(get(), NONCE_A, slow)
    const others = [NONCE_B, NONCE_C].map((nonce) => cache.serve(get(), nonce, render))
    release()
    const firstHtml = await (await first).text()
    const answers = await Promise.all(others)
    expect(calls).toHaveLength(1)
    const keys = new Set(valueKeys(firstHtml))
    for (const [i, nonce] of [NONCE_B, NONCE_C].entries()) {
      expect(answers[i]!.headers.get(STATUS)).toBe('hit')
      const html = await answers[i]!.text()
      expect(html).toContain(`nonce="${nonce}"`)
      for (const k of valueKeys(html)) {
        expect(keys.has(k!)).toBe(false)
        keys.add(k!)
      }
    }
  })

  it('a request waits for another’s first render of its page at most one cache time', async () => {
    const cache = createPageCache({ ttlMs: 50 })
    const { render, calls } = renderer()
    const { render: stalled, release } = held(render)
    const first = cache.serve(get(), NONCE_A, stalled)
    const started = Date.now()
    const second = await cache.serve(get(), NONCE_B, render)
    expect(second.headers.get(STATUS)).toBe('miss')
    expect(Date.now() - started).toBeLessThan(2000)
    expect(calls).toHaveLength(1)
    release()
    await (await first).text()
  })

  it('counts an answer’s age from before it was rendered', async () => {
    const t = clock()
    const cache = createPageCache({ ttlMs: 2000, now: t.now })
    const { render } = renderer()
    const slow = async (r: PageRender) => {
      t.advance(1500) // the render took 1.5 s
      return render(r)
    }
    await (await cache.serve(get(), NONCE_A, slow)).text()
    await settle()
    t.advance(499)
    expect((await cache.serve(get(), NONCE_B, render)).headers.get(STATUS)).toBe('hit')
    t.advance(1)
    expect((await cache.serve(get(), NONCE_B, render)).headers.get(STATUS)).toBe('miss')
  })

  it('holds at most maxTotalBytes, and keys an unknown locale value like none', async () => {
    const cache = createPageCache({ ttlMs: 60_000, maxTotalBytes: 2500 })
    const { render } = renderer({ body: () => 'x'.repeat(1000) })
    for (const id of [1, 2, 3]) await (await cache.serve(get(`/products/${id}`), NONCE_A, render)).text()
    await settle()
    expect(cache.size).toBe(2)
    expect((await cache.serve(get('/products/3'), NONCE_B, render)).headers.get(STATUS)).toBe('hit')
    const odd = await cache.serve(get('/products/3', { cookie: 'i18n_redirected=xx' }), NONCE_B, render)
    expect(odd.headers.get(STATUS)).toBe('hit')
  })

  it('counts a page’s gzipped copy towards maxTotalBytes', async () => {
    const cache = createPageCache({ ttlMs: 60_000, maxTotalBytes: 2500 })
    // text that barely compresses: its gzipped copy is nearly as big as the text
    const { render } = renderer({ body: () => randomBytes(750).toString('base64') })
    await (await cache.serve(get('/products/1'), NONCE_A, render)).text()
    // page 1 kept with its gzipped copy: about 2000 bytes
    const gzipped = async () => {
      const res = await cache.serve(get('/products/1', { 'accept-encoding': 'gzip' }), NONCE_B, render)
      return res.headers.get('content-encoding') === 'gzip'
    }
    await until(gzipped)
    await (await cache.serve(get('/products/2'), NONCE_A, render)).text()
    await settle()
    expect(cache.size).toBe(1)
    expect((await cache.serve(get('/products/2'), NONCE_B, render)).headers.get(STATUS)).toBe('hit')
  })

  it('is off with a time of 0', async () => {
    const cache = createPageCache({ ttlMs: 0 })
    const { render, calls } = renderer()
    for (let i = 0; i < 2; i++) {
      const res = await cache.serve(get(), NONCE_A, render)
      expect(res.headers.has(STATUS)).toBe(false)
      expect(res.headers.has(SHARED_PAGE_HEADER)).toBe(false)
      await res.text()
    }
    expect(calls).toHaveLength(2)
  })
})
