// The storefront's repeat-order helper (app/lib/repeat-order.server.ts) against the real API in
// process, as the game page's loader calls it.
import type { AppLoadContext } from '@remix-run/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiFor } from '#app/lib/api/client.server'
import { loadRepeatOrder } from '#app/lib/repeat-order.server'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock } from './payments-fixtures'

let api: TestApi
let context: AppLoadContext
beforeAll(async () => {
  api = await createTestApi()
  context = {
    api: { baseUrl: 'http://shop.internal', fetch: async (req: Request) => api.app.fetch(req) },
    clientAddress: '127.0.0.1',
  } as AppLoadContext
})
afterAll(() => api.close())

const signUp = async (email: string) =>
  (
    await api.call<{ access: string }>('POST', '/api/auth/jwt/create/', {
      body: { email, password: 'password 123' },
    })
  ).body.access

/** A storefront request carrying the shopper's access cookie (or none). */
const requestAs = (access?: string) =>
  new Request('http://localhost:3000/products/1?repeat=x', {
    headers: access ? { cookie: `access=${access}` } : {},
  })

describe('loadRepeatOrder', () => {
  it('gives the game, the quantities and the account data of the caller’s own order', async () => {
    const token = await signUp('repeat@example.com')
    const { game, product } = await makePubgStock(api, { codes: 5 })
    const orderId = await createPubgOrder(api, product.id, { token, quantity: 3 })
    const r = await loadRepeatOrder(apiFor(requestAs(token), context), orderId)
    expect(r).toMatchObject({
      orderId,
      gameId: game.id,
      quantities: { [product.id]: 3 },
      email: 'repeat@example.com',
      gameAccountId: null,
      steamAccountId: null,
    })
  })

  it('gives nothing for another user’s order, a guest, or a malformed id', async () => {
    const owner = await signUp('owner-repeat@example.com')
    const other = await signUp('other-repeat@example.com')
    const { product } = await makePubgStock(api, { codes: 5 })
    const orderId = await createPubgOrder(api, product.id, { token: owner })
    expect(await loadRepeatOrder(apiFor(requestAs(other), context), orderId)).toBeNull()
    expect(await loadRepeatOrder(apiFor(requestAs(), context), orderId)).toBeNull()
    expect(await loadRepeatOrder(apiFor(requestAs(owner), context), 'not-a-uuid')).toBeNull()
    expect(await loadRepeatOrder(apiFor(requestAs(owner), context), null)).toBeNull()
  })
})
