// One storefront request's in-process reads (server/read-reuse.ts): a whole render that follows a
// personal fill gets the answers the fill read, and nothing else.
import { describe, expect, it } from 'vitest'
import { createReadReuse } from '../../server/read-reuse'

function api() {
  const calls: string[] = []
  const call = async (req: Request) => {
    calls.push(`${req.method} ${new URL(req.url).pathname} ${req.headers.get('authorization') ?? '-'}`)
    const status = req.url.includes('missing') ? 404 : 200
    return Response.json({ n: calls.length }, { status })
  }
  return { call, calls }
}

const get = (path: string, token = 'a') =>
  new Request(`http://shop.internal${path}`, { headers: { authorization: `Bearer ${token}` } })

describe('read reuse', () => {
  it('answers a kept read again without calling the API, as often as asked', async () => {
    const { call, calls } = api()
    const reads = createReadReuse(call)
    expect(await (await reads.keep(get('/api/orders/steam/last_order_data/'))).json()).toEqual({ n: 1 })
    for (let i = 0; i < 2; i++) {
      const again = await reads.fetch(get('/api/orders/steam/last_order_data/'))
      expect(again.status).toBe(200)
      expect(await again.json()).toEqual({ n: 1 })
    }
    expect(calls).toHaveLength(1)
  })

  it('asks the API for another token, another URL, an answer that was not 200, and after a write', async () => {
    const { call, calls } = api()
    const reads = createReadReuse(call)
    await reads.keep(get('/api/x/'))
    await reads.keep(get('/missing/'))
    await reads.fetch(get('/api/x/', 'b'))
    await reads.fetch(get('/api/y/'))
    await reads.fetch(get('/missing/'))
    expect(calls).toHaveLength(5)
    await reads.fetch(
      new Request('http://shop.internal/api/z/', { method: 'POST', headers: { authorization: 'Bearer a' } }),
    )
    expect(await (await reads.fetch(get('/api/x/'))).json()).toEqual({ n: 7 })
  })
})
