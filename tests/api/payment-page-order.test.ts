// What the payment page reads from GET /api/orders/{id}/ once an order is paid: a PUBG order's
// lines carry their delivered voucher codes (and none before delivery), other kinds none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock, makeSandboxMethod, pay, pressOnCheckout } from './payments-fixtures'

type Line = { id: number; quantity: number; codes: Array<{ code: string; amount_uc: number }> }
type Recalculated = { status: string; products: Line[]; code: string | null }

let api: TestApi

beforeAll(async () => {
  api = await createTestApi()
})
afterAll(async () => {
  await api.close()
})

describe('GET /api/orders/{id}/ delivered codes', () => {
  it('lists no codes while unpaid, and each line’s own codes once done', async () => {
    const { product } = await makePubgStock(api, { codes: 5 })
    const { method } = await makeSandboxMethod(api, 'redirect')
    const orderId = await createPubgOrder(api, product.id, { quantity: 3 })

    const before = await api.call<Recalculated>('GET', `/api/orders/${orderId}/`)
    expect(before.status).toBe(200)
    expect(before.body.products).toHaveLength(1)
    expect(before.body.products[0]!.codes).toEqual([])

    const started = await pay(api, method.name, orderId)
    expect(started.status).toBe(200)
    const confirmed = await pressOnCheckout(api, started.body.payment_id, 'confirm')
    expect(confirmed.status).toBe(303)

    const after = await api.call<Recalculated>('GET', `/api/orders/${orderId}/`)
    expect(after.body.status).toBe('done')
    const codes = after.body.products[0]!.codes
    expect(codes).toHaveLength(3)
    expect(new Set(codes.map((c) => c.code)).size).toBe(3)
    for (const c of codes) expect(c).toEqual({ code: expect.stringMatching(/^T-/), amount_uc: 60 })
    expect(after.body.code).toBeNull()

    // another order of the same product gets the other codes, never these
    const second = await createPubgOrder(api, product.id, { quantity: 2 })
    const p2 = await pay(api, method.name, second)
    await pressOnCheckout(api, p2.body.payment_id, 'confirm')
    const other = await api.call<Recalculated>('GET', `/api/orders/${second}/`)
    const otherCodes = other.body.products[0]!.codes.map((c) => c.code)
    expect(otherCodes).toHaveLength(2)
    for (const code of otherCodes) expect(codes.map((c) => c.code)).not.toContain(code)
  })
})
