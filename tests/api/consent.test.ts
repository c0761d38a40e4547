// Consent to personal data processing (issue 33, 152-ФЗ): the storefront sends the optional
// `personal_data_consent`; each new order records it (email, time, address, user agent). A client of
// the spec that does not send the field still creates orders, recorded as "no consent given".
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { consents } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makePubgStock } from './payments-fixtures'

let api: TestApi
let productId: number
beforeAll(async () => {
  api = await createTestApi()
  productId = (await makePubgStock(api, { codes: 5 })).product.id
})
afterAll(async () => {
  await api?.close()
})

const order = (extra: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.call<{ id: string; detail?: string }>('POST', '/api/orders/pubg/', {
    body: { products: [{ product_id: productId, quantity: 1 }], email: 'guest@example.com', ...extra },
    headers,
  })

it('a spec client without the field still creates the order, recorded as no consent given', async () => {
  const r = await order({})
  expect(r.status).toBe(201)
  const [row] = await api.db.select().from(consents).where(eq(consents.orderId, r.body.id))
  expect(row).toMatchObject({ given: false, email: 'guest@example.com', context: 'order' })
})

it('the storefront’s consent is recorded with the email, time, address and user agent; once per order', async () => {
  const headers = { 'user-agent': 'TestBrowser/1.0', 'idempotency-key': 'consent-key-1' }
  const r = await order({ personal_data_consent: true }, headers)
  expect(r.status).toBe(201)
  expect((await order({ personal_data_consent: true }, headers)).status).toBe(200)
  const rows = await api.db.select().from(consents).where(eq(consents.orderId, r.body.id))
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ given: true, email: 'guest@example.com', userAgent: 'TestBrowser/1.0' })
  expect(rows[0]?.ip).toBeTruthy()
  expect(rows[0]?.created).toBeInstanceOf(Date)
})

it('a consent that is not a boolean is a Russian 400', async () => {
  const r = await order({ personal_data_consent: 'yes' })
  expect(r.status).toBe(400)
  expect(r.body.detail).toMatch(/[а-я]/)
})
