// The E2E-only seam of the refund clock (services/delivery/handover.ts): an order at
// @refund-soon.test gets its refund deadline a minute or so after the hand-over on Playwright's
// server (E2E=1) and nowhere else, where the game's hours hold like for any order.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { jobs, orders, payments } from '#api/db/schema'
import { E2E_REFUND_SOON_DOMAIN, E2E_REFUND_SOON_SECONDS } from '#api/services/delivery/handover'
import { settlePaymentSucceeded } from '#api/services/payments/settle'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { ensureSettings, makeGame, makeProduct } from './orders-fixtures'

let api: TestApi
let deps: ApiDeps
let productId: number
const before = process.env.E2E

beforeAll(async () => {
  api = await createTestApi({ env: { PUBLIC_URL: 'https://shop.example', SANDBOX_PAYMENTS: '0' } })
  deps = api.deps
  await ensureSettings(api)
  const game = await makeGame(api, 'StandoffGame', { supplier: 'manual' })
  productId = (await makeProduct(api, game.id, 'StandoffProduct', { price: 10000, gold: 100 })).id
})
afterEach(() => {
  if (before === undefined) delete process.env.E2E
  else process.env.E2E = before
})
afterAll(() => api?.close())

let surplus = 0
/** A manual order of `email`, paid: handed to a person, its refund deadline set. */
async function paidManualOrder(email: string) {
  surplus = (surplus + 1) % 23
  const r = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
    body: {
      products: [{ quantity: 1, product_id: productId }],
      email,
      game_account_id: '51234567',
      surplus: `0.${String(surplus).padStart(2, '0')}`,
    },
  })
  expect(r.status).toBe(201)
  const orderId = r.body.id
  const [o] = await api.db.select().from(orders).where(eq(orders.id, orderId))
  const paymentId = randomUUID()
  await api.db.insert(payments).values({
    id: paymentId,
    orderId,
    methodName: 'card',
    provider: 'payselection',
    amount: o!.totalToPay,
    currency: 'RUB',
  })
  const paid = await settlePaymentSucceeded(deps, {
    paymentId,
    provider: 'payselection',
    eventKey: `test-${paymentId}`,
    amount: o!.totalToPay,
    currency: 'RUB',
  })
  expect(paid.outcome).toBe('applied')
  const [row] = await api.db.select().from(orders).where(eq(orders.id, orderId))
  const [job] = await api.db
    .select()
    .from(jobs)
    .where(eq(jobs.dedupeKey, `delivery_refund:${orderId}`))
  return { due: row!.refundDueAt!, job: job!.runAt, status: row!.status }
}

const secondsFromNow = (d: Date) => (d.getTime() - Date.now()) / 1000

describe('the E2E refund-soon seam', () => {
  it('is off without E2E=1: the refund is due at DELIVERY_REFUND_HOURS', async () => {
    delete process.env.E2E
    const o = await paidManualOrder(`ar-${randomUUID().slice(0, 6)}${E2E_REFUND_SOON_DOMAIN}`)
    expect(o.status).toBe('sent')
    expect(Math.round(secondsFromNow(o.due) / 3600)).toBe(24)
    expect(o.job).toEqual(o.due)
  })

  it('with E2E=1 brings near only the deadline of an order at the marked domain', async () => {
    process.env.E2E = '1'
    const marked = await paidManualOrder(
      `AR-${randomUUID().slice(0, 6)}${E2E_REFUND_SOON_DOMAIN.toUpperCase()}`,
    )
    expect(marked.status).toBe('sent')
    const left = secondsFromNow(marked.due)
    expect(left).toBeGreaterThan(E2E_REFUND_SOON_SECONDS - 30)
    expect(left).toBeLessThanOrEqual(E2E_REFUND_SOON_SECONDS)
    expect(marked.job).toEqual(marked.due)
    const other = await paidManualOrder(`ar-${randomUUID().slice(0, 6)}@example.com`)
    expect(Math.round(secondsFromNow(other.due) / 3600)).toBe(24)
  })
})
