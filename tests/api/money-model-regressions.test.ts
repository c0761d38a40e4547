// Issue 43: the counterexamples the money model (money-model.test.ts) found, each replayed as a
// named example against the real API, the job worker and the YooKassa fake.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { jobs, orders, paymentMethods, payments, refunds } from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { ensureYookassaMethods } from '#api/services/payments/yookassa-setup'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock } from './payments-fixtures'

let api: TestApi
let yk: FakeYookassa
const deps = (): ApiDeps => api.deps

beforeAll(async () => {
  yk = await startFakeYookassa()
  api = await createTestApi({ env: { ...yk.env, YOOKASSA_NOTIFY_FROM: '127.0.0.1/32, ::1' } })
  await ensureYookassaMethods(api.db)
  await api.db
    .update(paymentMethods)
    .set({ isActive: true })
    .where(inArray(paymentMethods.name, ['yookassa_card', 'yookassa_sbp']))
}, 120_000)
afterAll(async () => {
  await api?.close()
  await yk?.close()
})

function notify(event: string, object: unknown) {
  return api.app.request('/api/payments/yookassa/notify/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shop-client-ip': '127.0.0.1' },
    body: JSON.stringify(yk.notification(event, object as never)),
  })
}

const start = (orderId: string, method: 'yookassa_card' | 'yookassa_sbp') =>
  api.call<{ payment_id: string }>('POST', `/api/payments/${method}/`, {
    body: { order_id: orderId, currency: 'RUB', email: 'model@example.com', phone: null },
  })

/** The background jobs due by now (re-queries, refunds), as the worker runs them. */
async function runJobs() {
  await api.db
    .update(jobs)
    .set({ runAt: sql`now()` })
    .where(and(inArray(jobs.kind, ['refund.provider', 'payments.requery']), eq(jobs.status, 'pending')))
  await createJobWorker(deps(), { handlers: JOB_HANDLERS, onError: () => {} }).runDue()
}

describe('counterexamples of the money model', () => {
  it('a replaced payment the buyer paid anyway, its notification lost, is found by the re-query: it pays the order; the newer one is refunded', async () => {
    // found by the model (seed 1160993517 on PGlite, 2068611069 on PostgreSQL): StartPayment,
    // StartPayment again (the first one is replaced), YooKassa takes the first (notification lost)
    const { product } = await makePubgStock(api, { codes: 2, price: 8900 })
    const orderId = await createPubgOrder(api, product.id)
    const first = await start(orderId, 'yookassa_card')
    expect(first.status).toBe(200)
    const second = await start(orderId, 'yookassa_sbp')
    expect(second.status).toBe(200)
    const [replaced] = await api.db.select().from(payments).where(eq(payments.id, first.body.payment_id))
    expect(replaced!.status).toBe('failed')
    // the buyer pays on the first page, still open; YooKassa's notification never reaches the shop
    yk.succeed(yk.paymentOf(first.body.payment_id)!.id)

    await runJobs()
    const [order] = await api.db.select().from(orders).where(eq(orders.id, orderId))
    expect(order!.status, 'the money YooKassa took pays the order').toBe('done')
    const [paid] = await api.db.select().from(payments).where(eq(payments.id, first.body.payment_id))
    expect(paid!.status).toBe('succeeded')

    // the newer payment succeeds as well: refused and refunded through YooKassa, once
    const p2 = yk.succeed(yk.paymentOf(second.body.payment_id)!.id)
    expect((await notify('payment.succeeded', p2)).status).toBe(200)
    await runJobs()
    const back = await api.db.select().from(refunds).where(eq(refunds.orderId, orderId))
    expect(back).toEqual([
      expect.objectContaining({ kind: 'payment', method: 'provider', paymentId: second.body.payment_id }),
    ])
    const atYk = [...yk.refunds.values()].filter((r) => r.payment_id === p2.id && r.status === 'succeeded')
    expect(atYk.map((r) => r.amount.value)).toEqual([p2.amount.value])
    // nothing of the first payment goes back: it paid the order
    expect([...yk.refunds.values()].filter((r) => r.payment_id === paid!.externalId)).toEqual([])
  })
})
