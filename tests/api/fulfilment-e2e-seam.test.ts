// The E2E-only seam of fulfilment (services/fulfilment/index.ts): an order at @stays-sent.test stays
// `sent` on Playwright's server (E2E=1) and nowhere else, where it is delivered like any order.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { orderProducts, orders, voucherCodes } from '#api/db/schema'
import { E2E_STAYS_SENT_DOMAIN, fulfilOrder } from '#api/services/fulfilment'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makePubgStock } from './payments-fixtures'

let api: TestApi
let deps: ApiDeps
const before = process.env.E2E

beforeAll(async () => {
  api = await createTestApi({ seed: false })
  deps = api.deps
})
afterEach(() => {
  if (before === undefined) delete process.env.E2E
  else process.env.E2E = before
})
afterAll(() => api?.close())

async function paidPubgOrder(email: string) {
  const { game, product } = await makePubgStock(api, { codes: 1 })
  const id = randomUUID()
  await api.db
    .insert(orders)
    .values({ id, kind: 'PUBGOrder', status: 'paid', gameId: game.id, email, total: 9900, totalToPay: 9900 })
  await api.db.insert(orderProducts).values({ orderId: id, productId: product.id, quantity: 1, price: 9900 })
  return { id, productId: product.id }
}

const sold = async (productId: number) =>
  (await api.db.select().from(voucherCodes).where(eq(voucherCodes.productId, productId))).filter(
    (c) => c.soldAt !== null,
  ).length

describe('the E2E stays-sent seam', () => {
  it('is off without E2E=1: the order is delivered', async () => {
    delete process.env.E2E
    const { id, productId } = await paidPubgOrder(`buyer${E2E_STAYS_SENT_DOMAIN}`)
    expect(await fulfilOrder(deps, id)).toBe('done')
    expect(await sold(productId)).toBe(1)
  })

  it('with E2E=1 leaves only an order at the marked domain `sent`, with nothing sold', async () => {
    process.env.E2E = '1'
    const marked = await paidPubgOrder(`Buyer${E2E_STAYS_SENT_DOMAIN.toUpperCase()}`)
    expect(await fulfilOrder(deps, marked.id)).toBe('sent')
    expect(await sold(marked.productId)).toBe(0)
    const other = await paidPubgOrder('buyer@example.com')
    expect(await fulfilOrder(deps, other.id)).toBe('done')
  })
})
