// Issue 43, finding 2 (decision 112): «Проверить оплату» asks the provider at most once per payment
// per 5 s across every instance (the claim lives in the database); other presses answer from the
// shop's record. 100 concurrent presses on two instances make one GET /v3/payments/{id}.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '#api/app'
import { paymentMethods, rateLimits } from '#api/db/schema'
import { ensureYookassaMethods } from '#api/services/payments/yookassa-setup'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock } from './payments-fixtures'

let api: TestApi
let yk: FakeYookassa
let productId: number

beforeAll(async () => {
  yk = await startFakeYookassa()
  api = await createTestApi({ env: yk.env })
  await ensureYookassaMethods(api.db)
  await api.db.update(paymentMethods).set({ isActive: true }).where(eq(paymentMethods.name, 'yookassa_sbp'))
  productId = (await makePubgStock(api, { codes: 10 })).product.id
}, 180_000)
afterAll(async () => {
  await api?.close()
  await yk?.close()
})

describe('«Проверить оплату» costs the provider one call per 5 s', { timeout: 120_000 }, () => {
  it('100 concurrent presses on two instances: one GET to YooKassa, every answer from the shop’s record', async () => {
    const orderId = await createPubgOrder(api, productId)
    const r = await api.call<{ payment_id: string }>('POST', '/api/payments/yookassa_sbp/', {
      body: { order_id: orderId, currency: 'RUB', email: 'buyer@example.com', phone: null },
    })
    expect(r.status).toBe(200)
    const remote = yk.paymentOf(r.body.payment_id)!
    const gets = () => yk.log.filter((l) => l.method === 'GET' && l.path === `/payments/${remote.id}`).length
    // two instances over the same database (no memory shared between them); outside the contract
    // recorder, which knows no 503 on this route (the pool's answer to 100 requests at once)
    const instances = [1, 2].map(() => createApi(api.deps))
    const press = (i: number) =>
      instances[i % 2]!.request(`/api/orders/status/${orderId}/check/`, { method: 'POST' })
    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => press(i)))
    // 100 requests at once on the test's small pool: on a loaded machine a few may wait too long for
    // a connection and get the shop's 503 «ненадолго недоступен» (never a 500, never a provider call)
    expect(answers.map((a) => a.status).filter((s) => s !== 200 && s !== 503)).toEqual([])
    const ok = answers.filter((a) => a.status === 200)
    expect(ok.length).toBeGreaterThan(50)
    const bodies = await Promise.all(ok.map((a) => a.json() as Promise<{ payment_status: string }>))
    expect(new Set(bodies.map((b) => b.payment_status))).toEqual(new Set(['pending']))
    expect(gets()).toBe(1)

    // paid meanwhile: a press within the 5 s answers from the record (still pending) …
    yk.succeed(remote.id)
    // (the last question was just now: a slow machine may have spent seconds on the 100 presses)
    await api.db
      .update(rateLimits)
      .set({ windowStart: sql`now()` })
      .where(eq(rateLimits.key, `provider-check:${r.body.payment_id}`))
    const early = await api.call<{ status: string }>('POST', `/api/orders/status/${orderId}/check/`)
    expect(early.body.status).toBe('waiting_for_payment')
    expect(gets()).toBe(1)
    // … and once the 5 s have passed, the next press asks and settles
    await api.db
      .update(rateLimits)
      .set({ windowStart: sql`now() - interval '6 seconds'` })
      .where(eq(rateLimits.key, `provider-check:${r.body.payment_id}`))
    const later = await api.call<{ status: string; payment_status: string }>(
      'POST',
      `/api/orders/status/${orderId}/check/`,
    )
    expect(later.body).toMatchObject({ status: 'done', payment_status: 'succeeded' })
    expect(gets()).toBe(2)
    // a settled payment is never asked about again
    await api.call('POST', `/api/orders/status/${orderId}/check/`)
    expect(gets()).toBe(2)
  })
})
