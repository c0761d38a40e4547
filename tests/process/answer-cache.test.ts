// The answer cache (server/answer-cache.ts) in the real shop process on the demo catalogue: a
// second anonymous read of a catalogue answer comes from memory with exactly the headers and bytes
// of the answer it copies (security headers, Vary, ETag, compression), its own request id and its
// own access line; a request with cookies or Authorization, and per-account answers, never do;
// an answer lives CATALOGUE_CACHE_SECONDS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logLines, type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'

let shop: ShopProcess

beforeAll(async () => {
  shop = await startShopProcess({ env: { SEED_DEMO: '1', CATALOGUE_CACHE_SECONDS: '1' } })
}, 120_000)

afterAll(async () => {
  await shop?.stop()
})

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${shop.url}${path}`, {
    headers: { 'accept-encoding': 'identity', ...headers },
  })
  return { res, status: res.status, cache: res.headers.get('x-answer-cache'), body: await res.text() }
}

/** Reads `path` until an answer comes from the cache, returning the miss before it too. */
async function missThenHit(path: string, headers: Record<string, string> = {}) {
  for (let i = 0; i < 20; i++) {
    const miss = await get(path, headers)
    if (miss.cache !== 'miss') continue
    const hit = await get(path, headers)
    if (hit.cache === 'hit') return { miss, hit }
  }
  throw new Error(`${path}: no miss followed by a hit`)
}

/**
 * A response's headers but those that differ on every answer, and the framing of its bytes (a miss
 * streams a compressed answer in chunks; a hit sends it whole, with its length).
 */
function lasting(h: Headers) {
  const out = Object.fromEntries(h)
  for (const n of ['date', 'x-request-id', 'x-answer-cache', 'connection', 'keep-alive']) delete out[n]
  if (h.has('content-encoding')) for (const n of ['content-length', 'transfer-encoding']) delete out[n]
  return out
}

describe('catalogue answers of the API from memory', () => {
  it('sends a hit with the headers and bytes of the miss it copies, compressed or not', async () => {
    for (const encoding of ['identity', 'gzip', 'br']) {
      const path = `/api/games/1/?e=${encoding}`
      const { miss, hit } = await missThenHit(path, { 'accept-encoding': encoding })
      expect(hit.status).toBe(200)
      expect(lasting(hit.res.headers)).toEqual(lasting(miss.res.headers))
      expect(hit.body).toBe(miss.body)
      expect(JSON.parse(hit.body).title).toBe('PUBG Mobile')
      expect(hit.res.headers.get('x-request-id')).not.toBe(miss.res.headers.get('x-request-id'))
      expect(hit.res.headers.has('x-shared-answer')).toBe(false)
      expect(miss.res.headers.has('x-shared-answer')).toBe(false)
    }
    const gz = await get('/api/games/1/?e=gzip', { 'accept-encoding': 'gzip' })
    expect(gz.res.headers.get('content-encoding')).toBe('gzip')
  })

  it('covers the catalogue reads: games, products, gifts, FAQ, articles, contacts', async () => {
    for (const path of [
      '/api/games/?limit=3',
      '/api/products/?game=1',
      '/api/gifts/?limit=5',
      '/api/faq/1/',
      '/api/contacts/',
    ]) {
      const { hit } = await missThenHit(path)
      expect(hit.status).toBe(200)
    }
  })

  it('answers 304 from memory to a client holding the same copy', async () => {
    const { hit } = await missThenHit('/api/games/2/')
    const tag = hit.res.headers.get('etag')!
    const again = await get('/api/games/2/', { 'if-none-match': tag })
    expect(again.status).toBe(304)
    expect(again.body).toBe('')
  })

  it('writes an access line for every answer from memory, with its request id', async () => {
    const { hit } = await missThenHit('/api/games/3/', { 'x-request-id': 'answer-cache-test-1' })
    expect(hit.res.headers.get('x-request-id')).toBe('answer-cache-test-1')
    await new Promise((r) => setTimeout(r, 200))
    const lines = logLines(shop).filter((l) => l.reqId === 'answer-cache-test-1' && l.msg === 'request')
    // the miss and the hit both carried the id
    expect(lines.length).toBeGreaterThanOrEqual(2)
    expect(lines.at(-1)).toMatchObject({
      method: 'GET',
      path: '/api/games/3/',
      status: 200,
      client: '127.0.0.1',
    })
  })

  it('never for a request with cookies or Authorization, nor for an account answer', async () => {
    await missThenHit('/api/games/1/')
    for (let i = 0; i < 3; i++) {
      expect((await get('/api/games/1/', { cookie: 'country_id=1' })).cache).toBeNull()
      const bearer = await get('/api/games/1/', { authorization: 'Bearer not-a-token' })
      expect(bearer.cache).toBeNull()
      expect((await get('/api/profile/')).cache).toBeNull()
      expect((await get('/api/games/999999/')).cache).toBeNull()
    }
  })

  it('keeps an answer CATALOGUE_CACHE_SECONDS (1 s here), then asks the API again', async () => {
    await missThenHit('/api/games/?limit=2')
    await new Promise((r) => setTimeout(r, 1100))
    expect((await get('/api/games/?limit=2')).cache).toBe('miss')
  })
})
