// The order status answer's `charged`: what the buyer pays (payment under way) or paid, in
// roubles with the method's fee, by the same rule as the mails and the refund (issue 32).
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { payments } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import {
  createPubgOrder,
  makePubgStock,
  makeSandboxMethod,
  pay,
  pressOnCheckout,
  status,
} from './payments-fixtures'

type Charged = { amount: string; fee: string; paid: boolean }

let api: TestApi
let product: { id: number }
beforeAll(async () => {
  api = await createTestApi()
  product = (await makePubgStock(api, { codes: 20, price: 10000 })).product
})
afterAll(() => api.close())

const chargedOf = async (orderId: string) =>
  (await status(api, orderId)).body as unknown as { charged?: Charged }

describe('charged amount on the order status', () => {
  it('is absent before any payment', async () => {
    const orderId = await createPubgOrder(api, product.id)
    expect((await chargedOf(orderId)).charged).toBeUndefined()
  })

  it('shows what the payment under way will charge, then what was charged, fee included', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect', { fee: 300 })
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, method.name, orderId)
    expect(r.body.amount).toBe('103.00')
    expect((await chargedOf(orderId)).charged).toEqual({ amount: '103.00', fee: '3.00', paid: false })

    const done = await pressOnCheckout(api, r.body.payment_id, 'confirm')
    expect(done.status).toBe(303)
    expect((await chargedOf(orderId)).charged).toEqual({ amount: '103.00', fee: '3.00', paid: true })
  })

  it('says no fee for a method without one, and nothing for a declined payment', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect')
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, method.name, orderId)
    expect((await chargedOf(orderId)).charged).toEqual({ amount: '100.00', fee: '0.00', paid: false })
    await api.db.update(payments).set({ status: 'failed' }).where(eq(payments.id, r.body.payment_id))
    expect((await chargedOf(orderId)).charged).toBeUndefined()
  })

  it('counts a payment in another currency as the order total (the balance is kept in roubles)', async () => {
    const kz = await makeSandboxMethod(api, 'redirect', { fee: 250, currencies: ['KZT'] })
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, kz.method.name, orderId, { currency: 'KZT' })
    expect(r.status).toBe(200)
    expect((await chargedOf(orderId)).charged).toEqual({ amount: '100.00', fee: '0.00', paid: false })
  })
})
