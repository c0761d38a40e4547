// Conditional catalogue reads: a client holding the same answer gets a bodiless 304.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeGame, makeProduct } from './orders-fixtures'

let api: TestApi
let gameId: number

beforeAll(async () => {
  api = await createTestApi()
  gameId = (await makeGame(api, 'PUBGGame')).id
  await makeProduct(api, gameId, 'PUBGProduct', { price: 9900, amountUc: 60 })
})
afterAll(() => api?.close())

describe('ETag and 304 on catalogue reads', () => {
  it.each([
    ['a game', () => `/api/games/${gameId}/`],
    ['the games', () => '/api/games/'],
    ['the products of a game', () => `/api/products/?game=${gameId}`],
    ['the gifts', () => '/api/gifts/'],
    ['the contacts', () => '/api/contacts/'],
  ])('%s: same answer → 304 without a body; another tag → the full answer', async (_what, url) => {
    const first = await api.call('GET', url())
    expect(first.status).toBe(200)
    const tag = first.headers.get('etag')
    expect(tag).toMatch(/^W\/".+"$/)

    const again = await api.app.request(url(), { headers: { 'if-none-match': tag! } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    expect(again.headers.get('etag')).toBe(tag)

    const stale = await api.call('GET', url(), { headers: { 'if-none-match': 'W/"not-this-one"' } })
    expect(stale.status).toBe(200)
    expect(stale.body).toEqual(first.body)
  })

  it('a changed answer has another tag', async () => {
    const before = await api.call('GET', '/api/games/')
    await makeGame(api, 'PUBGGame')
    // the catalogue's read cache lives 2 s at most (decision 009)
    await new Promise((r) => setTimeout(r, 2100))
    const after = await api.app.request('/api/games/', {
      headers: { 'if-none-match': before.headers.get('etag')! },
    })
    expect(after.status).toBe(200)
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'))
  })

  it('orders and accounts are not tagged', async () => {
    const r = await api.call('GET', '/api/orders/standoff/settings/')
    expect(r.headers.get('etag')).toBeNull()
  })
})
