// The answer cache (server/answer-cache.ts) in front of a real node HTTP server whose "API" counts
// its calls: which requests it answers, what a client gets back on a hit (the same headers and
// bytes, its own request id, compressed as asked, 304 for a held copy), and when it lets through.
import { createServer, get as httpGet, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { SHARED_ANSWER_HEADER } from '#api/lib/shared-answer'
import type { AccessLine } from '../../server/access-log'
import {
  ANSWER_CACHE_HEADER as STATUS,
  type AnswerCacheOptions,
  createAnswerCache,
  matchesEtag,
} from '../../server/answer-cache'

const GAME = JSON.stringify({ id: 1, title: 'PUBG Mobile', products: 'x'.repeat(3000) })

interface ApiAnswer {
  status?: number
  body?: string
  shared?: boolean | string
  type?: string
  setCookie?: string
}

let servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))))
  servers = []
})

function clock(start = 1_000_000) {
  let t = start
  return { now: () => t, advance: (ms: number) => (t += ms) }
}

/**
 * A node server answering from the cache when it can, else from `api` (what the shop's Hono path
 * does: the API's answer goes through `store`).
 */
async function shop(options: Partial<AnswerCacheOptions> = {}, api: () => ApiAnswer = () => ({})) {
  const served: AccessLine[] = []
  const cache = createAnswerCache({ ttlMs: 2000, onServed: (l) => served.push(l), ...options })
  let calls = 0
  const server = createServer(async (req, res) => {
    if (cache.serve(req, res)) return
    calls++
    const a = api()
    const headers = new Headers({ 'content-type': a.type ?? 'application/json', etag: 'W/"v1"' })
    if (a.shared !== false) headers.set(SHARED_ANSWER_HEADER, String(a.shared ?? Date.now()))
    if (a.setCookie) headers.append('set-cookie', a.setCookie)
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`)
    const key = cache.keyOf(req.method ?? '', req.url ?? '', (n) => req.headers[n] as string | undefined)
    const answer = await cache.store(
      key,
      req.method ?? '',
      new Response(a.body ?? GAME, { status: a.status ?? 200, headers }),
      url,
    )
    res.writeHead(answer.status, Object.fromEntries(answer.headers))
    res.end(req.method === 'HEAD' ? undefined : Buffer.from(await answer.arrayBuffer()))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  servers.push(server)
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const get = async (path = '/api/games/1/', init: RequestInit = {}) => {
    // fetch asks for compressed answers unless told otherwise
    const headers = { 'accept-encoding': 'identity', ...(init.headers as Record<string, string>) }
    const res = await fetch(`${base}${path}`, { ...init, headers })
    const body = Buffer.from(await res.arrayBuffer())
    return { res, body, status: res.status, cache: res.headers.get(STATUS) }
  }
  return { cache, get, base, calls: () => calls, served }
}

describe('answer cache', () => {
  it('answers a shared GET again without the API: same bytes and headers, its own request id', async () => {
    const s = await shop()
    const miss = await s.get()
    const hit = await s.get()
    expect(miss.cache).toBe('miss')
    expect(hit.cache).toBe('hit')
    expect(s.calls()).toBe(1)
    expect(hit.body.toString()).toBe(GAME)
    expect(miss.res.headers.has(SHARED_ANSWER_HEADER)).toBe(false)
    expect(hit.res.headers.has(SHARED_ANSWER_HEADER)).toBe(false)
    // the security headers the shop's outer middleware adds to every answer
    expect(hit.res.headers.get('content-security-policy')).toContain("default-src 'none'")
    expect(hit.res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(hit.res.headers.get('vary')).toBe('Accept-Encoding')
    expect(hit.res.headers.get('etag')).toBe('W/"v1"')
    expect(hit.res.headers.get('content-length')).toBe(String(GAME.length))
    expect(hit.res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const again = await s.get('/api/games/1/', { headers: { 'x-request-id': 'balancer-id-123' } })
    expect(again.res.headers.get('x-request-id')).toBe('balancer-id-123')
    // one access line per answer from the cache, as the access log writes them
    expect(s.served.map((l) => [l.method, l.path, l.status, l.client])).toEqual([
      ['GET', '/api/games/1/', 200, '127.0.0.1'],
      ['GET', '/api/games/1/', 200, '127.0.0.1'],
    ])
    expect(s.served[1]!.reqId).toBe('balancer-id-123')
  })

  it('compresses a hit as the client asks, once per encoding, and the bytes decode to the answer', async () => {
    const s = await shop()
    await s.get()
    const br = await s.get('/api/games/1/', { headers: { 'accept-encoding': 'gzip, br' } })
    const gz = await s.get('/api/games/1/', { headers: { 'accept-encoding': 'gzip' } })
    const none = await s.get('/api/games/1/', { headers: { 'accept-encoding': 'identity' } })
    expect([br.cache, gz.cache, none.cache]).toEqual(['hit', 'hit', 'hit'])
    // fetch decodes on its own: the body is the answer, the header says how it travelled
    expect(br.res.headers.get('content-encoding')).toBe('br')
    expect(gz.res.headers.get('content-encoding')).toBe('gzip')
    expect(none.res.headers.get('content-encoding')).toBeNull()
    for (const r of [br, gz, none]) expect(r.body.toString()).toBe(GAME)
    // the stored compressed copies count toward the byte cap
    expect(s.cache.bytes()).toBeGreaterThan(GAME.length)
    expect(s.cache.bytes()).toBeLessThan(GAME.length * 2)
  })

  it('sends the raw compressed bytes a client without decoding support would get', async () => {
    const s = await shop()
    await s.get()
    const port = new URL((await s.get()).res.url).port
    const rawGet = (enc: string) =>
      new Promise<Buffer>((resolve, reject) => {
        const req = httpGet(
          { host: '127.0.0.1', port, path: '/api/games/1/', headers: { 'accept-encoding': enc } },
          (res: IncomingMessage) => {
            const chunks: Buffer[] = []
            res.on('data', (c: Buffer) => chunks.push(c))
            res.on('end', () => resolve(Buffer.concat(chunks)))
          },
        )
        req.on('error', reject)
      })
    expect(gunzipSync(await rawGet('gzip')).toString()).toBe(GAME)
    expect(brotliDecompressSync(await rawGet('br')).toString()).toBe(GAME)
  })

  it('answers 304 to a client holding the same copy, and HEAD without a body', async () => {
    const s = await shop()
    await s.get()
    const held = await s.get('/api/games/1/', { headers: { 'if-none-match': 'W/"v1"' } })
    expect(held.status).toBe(304)
    expect(held.cache).toBe('hit')
    expect(held.body.length).toBe(0)
    expect(held.res.headers.get('etag')).toBe('W/"v1"')
    const other = await s.get('/api/games/1/', { headers: { 'if-none-match': 'W/"v0"' } })
    expect(other.status).toBe(200)
    const head = await s.get('/api/games/1/', { method: 'HEAD' })
    expect(head.cache).toBe('hit')
    expect(head.body.length).toBe(0)
    expect(head.res.headers.get('content-length')).toBe(String(GAME.length))
    expect(s.calls()).toBe(1)
  })

  it('never answers or keeps a request with Authorization or cookies, or anything but GET/HEAD of /api/', async () => {
    const s = await shop()
    await s.get()
    const signedIn = await s.get('/api/games/1/', { headers: { authorization: 'Bearer abc' } })
    const cookie = await s.get('/api/games/1/', { headers: { cookie: 'country_id=2' } })
    expect([signedIn.cache, cookie.cache]).toEqual([null, null])
    expect(s.cache.keyOf('POST', '/api/games/1/', () => null)).toBeNull()
    expect(s.cache.keyOf('GET', '/products/1', () => null)).toBeNull()
    expect(s.cache.keyOf('GET', 'http://shop/api/games/1/', () => null)).toBeNull()
    expect(s.calls()).toBe(3)
  })

  it('keeps answers apart by Host and by query, since answers link to both', async () => {
    const s = await shop()
    const key = (host: string, target: string) =>
      s.cache.keyOf('GET', target, (n) => (n === 'host' ? host : null))
    expect(key('a.test', '/api/games/')).not.toBe(key('b.test', '/api/games/'))
    expect(key('a.test', '/api/games/?limit=1')).not.toBe(key('a.test', '/api/games/?limit=2'))
    await s.get('/api/games/?limit=1')
    expect((await s.get('/api/games/?limit=2')).cache).toBe('miss')
    expect((await s.get('/api/games/?limit=1')).cache).toBe('hit')
  })

  it('keeps only marked 200 JSON answers; an unmarked or failed answer replaces the kept one', async () => {
    let answer: ApiAnswer = { shared: false }
    const s = await shop({}, () => answer)
    await s.get()
    expect((await s.get()).cache).toBeNull()
    answer = { type: 'text/html' }
    await s.get()
    expect((await s.get()).cache).toBeNull()
    // a cookie is one client's: an answer setting one goes to that client only
    answer = { setCookie: 'sid=abc; HttpOnly' }
    expect((await s.get()).res.headers.get('set-cookie')).toBe('sid=abc; HttpOnly')
    const next = await s.get()
    expect(next.cache).toBeNull()
    expect(next.res.headers.get('set-cookie')).toBe('sid=abc; HttpOnly')
    answer = {}
    await s.get()
    expect((await s.get()).cache).toBe('hit')
    expect(s.cache.size()).toBe(1)
    // the API now says 404 (the game was hidden): a request that gets through drops the copy
    answer = { status: 404, body: '{"detail":"нет"}' }
    await s.get('/api/games/1/', { headers: { authorization: 'Bearer x' } }) // not a keyed request
    expect(s.cache.size()).toBe(1)
    const c = clock()
    const t = await shop({ now: c.now }, () => answer)
    answer = {}
    await t.get()
    c.advance(2500)
    answer = { status: 404, body: '{"detail":"нет"}' }
    expect((await t.get()).status).toBe(404)
    expect(t.cache.size()).toBe(0)
    expect((await t.get()).status).toBe(404)
  })

  it('keeps an answer the TTL from when its data was read, then refreshes it with one request', async () => {
    const c = clock()
    let version = 1
    const s = await shop({ now: c.now }, () => ({
      body: JSON.stringify({ version }),
      shared: String(c.now()),
    }))
    expect((await s.get()).cache).toBe('miss')
    c.advance(1999)
    version = 2
    expect(JSON.parse((await s.get()).body.toString())).toEqual({ version: 1 })
    c.advance(2)
    // expired: this request refreshes it...
    const refresh = await s.get()
    expect(refresh.cache).toBe('miss')
    expect(JSON.parse(refresh.body.toString())).toEqual({ version: 2 })
    expect(s.calls()).toBe(2)
    expect((await s.get()).cache).toBe('hit')
  })

  it('lets one request refresh an expired answer while the others still get it, for at most one more TTL', async () => {
    const c = clock()
    const s = await shop({ now: c.now })
    await s.get()
    c.advance(2100)
    // a HEAD stores nothing, so it does not take the refresh: it is let through, and so is the next GET
    const head = { method: 'HEAD', url: '/api/games/1/', headers: { host: new URL(s.base).host } }
    expect(s.cache.serve(head as never, {} as never)).toBe(false)
    // the first GET after expiry is let through to refresh it (its answer never comes here)
    const refreshing = { method: 'GET', url: '/api/games/1/', headers: { host: new URL(s.base).host } }
    expect(s.cache.serve(refreshing as never, {} as never)).toBe(false)
    expect((await s.get()).cache).toBe('hit') // meanwhile the others get the kept answer
    c.advance(2000) // expired a whole TTL ago: no longer served
    expect((await s.get()).cache).toBe('miss')
  })

  it('expires sooner an answer whose data was read earlier (the API read cache), and keeps none already stale', async () => {
    const c = clock()
    let readAt = c.now() - 1500
    const s = await shop({ now: c.now }, () => ({ shared: String(readAt) }))
    await s.get()
    c.advance(600)
    expect((await s.get()).cache).toBe('miss') // 1.5 s + 0.6 s > 2 s
    readAt = c.now() - 5000
    await s.get()
    expect(s.cache.size()).toBe(0)
  })

  it('holds at most maxEntries answers and maxBytes bytes, dropping unread then the oldest; big bodies are not kept', async () => {
    const s = await shop({ maxEntries: 2, maxBodyBytes: 4000 })
    for (const id of [1, 2, 3]) await s.get(`/api/games/${id}/`)
    expect(s.cache.size()).toBe(2)
    expect((await s.get('/api/games/1/')).cache).toBe('miss') // the oldest went first
    // a hit keeps an answer in: 3 was read last, so 2 goes when 4 comes
    expect((await s.get('/api/games/3/')).cache).toBe('hit')
    await s.get('/api/games/4/')
    expect((await s.get('/api/games/3/')).cache).toBe('hit')
    // answers never read from the cache go first: a client cycling query strings displaces its
    // own one-off answers, not the two that clients read (plain LRU would have dropped both)
    const read = await shop({ maxEntries: 3 })
    for (const path of ['/api/games/1/', '/api/games/1/', '/api/games/2/', '/api/games/2/'])
      await read.get(path)
    for (const n of [1, 2, 3, 4, 5]) expect((await read.get(`/api/games/?junk=${n}`)).cache).toBe('miss')
    expect(read.cache.size()).toBe(3)
    expect((await read.get('/api/games/1/')).cache).toBe('hit')
    expect((await read.get('/api/games/2/')).cache).toBe('hit')
    expect((await read.get('/api/games/?junk=5')).cache).toBe('hit') // the newest is kept too
    const big = await shop({ maxBodyBytes: 100 })
    await big.get()
    expect((await big.get()).cache).toBe('miss')
    expect(big.cache.size()).toBe(0)
    const bytes = await shop({ maxBytes: GAME.length * 2 + 100 })
    for (const id of [1, 2, 3]) await bytes.get(`/api/games/${id}/`)
    expect(bytes.cache.size()).toBe(2)
    expect(bytes.cache.bytes()).toBeLessThanOrEqual(GAME.length * 2 + 100)
  })

  it('never lets a failure escape the node listener: before the answer starts it lets the request through', async () => {
    const errors: unknown[] = []
    let broken = false
    const s = await shop({
      onError: (e) => errors.push(e),
      clientOf: () => {
        if (broken) throw new Error('address rule failed')
        return '127.0.0.1'
      },
    })
    await s.get()
    broken = true
    // the answer had gone out whole when its access line failed: the client still has it
    const after = await s.get()
    expect(errors).toHaveLength(1)
    expect([after.cache, after.body.toString()]).toEqual(['hit', GAME])
    broken = false
    // a failure before any byte: the request goes through to the API instead
    const bad = {
      method: 'GET',
      url: '/api/games/1/',
      get headers(): never {
        throw new Error('bad request')
      },
    }
    const res = { headersSent: false, destroy: () => {} }
    expect(s.cache.serve(bad as never, res as never)).toBe(false)
    expect(errors).toHaveLength(2)
    expect((await s.get()).cache).toBe('hit')
  })

  it('is off with a TTL of 0', async () => {
    const s = await shop({ ttlMs: 0 })
    await s.get()
    expect((await s.get()).cache).toBeNull()
    expect(s.calls()).toBe(2)
  })

  it('compares If-None-Match weakly, with lists and *', () => {
    expect(matchesEtag('W/"a"', '"a"')).toBe(true)
    expect(matchesEtag('"b", W/"a"', 'W/"a"')).toBe(true)
    expect(matchesEtag('*', 'W/"a"')).toBe(true)
    expect(matchesEtag('"b"', 'W/"a"')).toBe(false)
    expect(matchesEtag(null, 'W/"a"')).toBe(false)
  })
})
