// Issue 47: the order card names a payment's method as the buyer saw it (its title), not by the
// method's address; a payment whose method was deleted since still shows, by its address.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { paymentMethods } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import type { makeUser } from './orders-fixtures'
import { createPubgOrder, makePubgStock, makeSandboxMethod, pay } from './payments-fixtures'

type Card = { payments: Array<{ method: string; method_title?: string | null; provider: string }> }

let api: TestApi
let support: Awaited<ReturnType<typeof makeUser>>

beforeAll(async () => {
  api = await createTestApi()
  support = await makeStaff(api, 'support')
})
afterAll(() => api?.close())

describe('the order card’s payments', () => {
  it('names the method by its title while it exists, by its address once deleted', async () => {
    const { product } = await makePubgStock(api, { codes: 1 })
    const { method } = await makeSandboxMethod(api, 'external', { title: 'Card of the test shop' })
    const orderId = await createPubgOrder(api, product.id)
    expect((await pay(api, method.name, orderId)).status).toBe(200)

    const card = await api.call<Card>('GET', `/api/admin/orders/${orderId}/`, { token: support.token })
    expect(card.status).toBe(200)
    expect(card.body.payments).toHaveLength(1)
    expect(card.body.payments[0]).toMatchObject({
      method: method.name,
      method_title: 'Card of the test shop',
      provider: 'sandbox',
    })

    await api.db.delete(paymentMethods).where(eq(paymentMethods.id, method.id))
    const after = await api.call<Card>('GET', `/api/admin/orders/${orderId}/`, { token: support.token })
    expect(after.body.payments[0]).toMatchObject({ method: method.name, method_title: null })
  })
})
