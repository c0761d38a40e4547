// The order clock (issue 12): unpaid orders expire and give back their held codes, MooGold orders
// left `sent` are asked again with backoff until final, payments without a callback are re-queried
// and settled once; each job survives a worker that dies in the middle. And the back-office's
// «Повторить выдачу», which never delivers twice.
import { randomUUID } from 'node:crypto'
import { createHmac } from 'node:crypto'
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import {
  auditLog,
  games,
  jobs,
  orderEvents,
  orderProducts,
  orders,
  payments,
  products,
  refunds,
  voucherCodes,
} from '#api/db/schema'
import { JOB_HANDLERS, RECURRING_JOBS } from '#api/jobs/handlers'
import { claimJobs, enqueue } from '#api/jobs/queue'
import { createJobWorker } from '#api/jobs/worker'
import { message } from '#api/lib/errors'
import { fulfilOrder } from '#api/services/fulfilment'
import { RECHECK_MAX_CHECKS } from '#api/services/fulfilment/recheck'
import { RECHECK_JOB } from '#api/services/fulfilment/recheck-queue'
import { EXPIRE_JOB } from '#api/services/orders/expiry'
import { REQUERY_JOB, REQUERY_MAX_CHECKS } from '#api/services/payments/requery'
import { type FakeMoogold, startFakeMoogold } from '#tests/fakes/moogold'
import { type FakePayselection, PS_SECRET, startFakePayselection } from '#tests/fakes/payselection'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'
import {
  createPubgOrder,
  type Err,
  hex,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  pay,
  pressOnCheckout,
  status,
} from './payments-fixtures'

let api: TestApi
let mg: FakeMoogold
let ps: FakePayselection
let sandboxMethod: string
let psMethod: string

beforeAll(async () => {
  mg = await startFakeMoogold()
  ps = await startFakePayselection()
  api = await createTestApi({ env: { ...mg.env, ...ps.env } })
  sandboxMethod = (await makeSandboxMethod(api, 'redirect')).method.name
  psMethod = (await makeSandboxMethod(api, 'redirect', { provider: 'payselection', scenario: null })).method
    .name
})
afterAll(async () => {
  await api?.close()
  await mg?.close()
  await ps?.close()
})

/** A worker of a new process: its own deps, nothing in memory from the one before. */
const freshWorker = () => createJobWorker(api.deps, { handlers: JOB_HANDLERS, onError: () => {} })
const deps = (): ApiDeps => api.deps

async function jobRow(id: number) {
  const [j] = await api.db.select().from(jobs).where(eq(jobs.id, id))
  return j!
}
async function jobFor(kind: string, key: 'orderId' | 'paymentId', value: string) {
  const rows = await api.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, kind), sql`${jobs.payload}->>${key} = ${value}`))
  expect(rows).toHaveLength(1)
  return rows[0]!
}
const makeDue = (id: number) => api.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, id))

/**
 * A restart in the middle: a worker claims the job and its process dies (kill -9: the job stays
 * `running`); once its lease has run out, a worker of a new process takes the job over.
 */
async function dieWhileRunning(id: number) {
  const [claimed] = await claimJobs(api.db, { workerId: 'killed-9', limit: 1, leaseSeconds: 600, only: [id] })
  expect(claimed?.id).toBe(id)
  // still leased to the dead worker: nobody else runs it
  expect(await freshWorker().runDue({ only: [id] })).toBe(0)
  // the lease runs out (as 600 s later)
  await api.db.update(jobs).set({ lockedUntil: sql`now() - interval '1 second'` }).where(eq(jobs.id, id))
}

async function statusEvents(orderId: string, to: string) {
  const rows = await api.db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'status')))
  return rows.filter((r) => r.data.to === to)
}

async function freeCodes(productId: number) {
  const [r] = await api.db
    .select({ n: sql<number>`count(*)::int` })
    .from(voucherCodes)
    .where(
      and(
        eq(voucherCodes.productId, productId),
        sql`${voucherCodes.soldAt} is null and (${voucherCodes.heldUntil} is null or ${voucherCodes.heldUntil} <= now())`,
      ),
    )
  return Number(r?.n)
}

async function soldTo(orderId: string) {
  const lines = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId))
  if (lines.length === 0) return []
  return api.db
    .select()
    .from(voucherCodes)
    .where(
      and(
        inArray(
          voucherCodes.orderProductId,
          lines.map((l) => l.id),
        ),
        isNotNull(voucherCodes.soldAt),
      ),
    )
}

const age = (ids: string[], hours: number) =>
  api.db
    .update(orders)
    .set({ created: sql`now() - make_interval(hours => ${hours})` })
    .where(inArray(orders.id, ids))

describe('unpaid orders expire after ORDER_TTL_HOURS', () => {
  it('is a recurring job of the queue, with the 24 h default', () => {
    expect(RECURRING_JOBS.map((r) => r.kind)).toContain(EXPIRE_JOB)
    expect(api.config.orderClock.orderTtlHours).toBe(24)
  })

  it('fails them with a reason and returns their held codes, once, across a restart in the middle', async () => {
    const { product } = await makePubgStock(api, { codes: 3 })
    const waiting = await createPubgOrder(api, product.id, { quantity: 2 })
    const cart = await createPubgOrder(api, product.id, { quantity: 1 })
    const young = await createPubgOrder(api, product.id, { quantity: 1 })
    const paying = await createPubgOrder(api, product.id, { quantity: 1 })
    expect((await pay(api, sandboxMethod, waiting)).status).toBe(200)
    const started = await pay(api, sandboxMethod, paying)
    expect(started.status).toBe(200)
    expect(await freeCodes(product.id)).toBe(0)
    await age([waiting, cart], 25)
    // `paying` is past its 24 hours too, but by less than one hold time (decision 046)
    await api.db
      .update(orders)
      .set({ created: sql`now() - interval '24 hours 10 minutes'` })
      .where(eq(orders.id, paying))
    // the payment of `waiting` was started long ago; `paying`'s shopper is paying right now
    await api.db
      .update(payments)
      .set({ created: sql`now() - interval '2 hours'` })
      .where(eq(payments.orderId, waiting))

    await enqueue(api.db, { kind: EXPIRE_JOB, key: `expire-test-${hex()}` })
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, EXPIRE_JOB), eq(jobs.status, 'pending')))
    await dieWhileRunning(job!.id)
    expect(await freshWorker().runDue({ only: [job!.id] })).toBe(1)
    expect((await jobRow(job!.id)).status).toBe('done')

    for (const id of [waiting, cart]) {
      const s = await status(api, id)
      expect(s.body).toMatchObject({
        status: 'failed',
        is_payment_active: false,
        reject_reason: message('order_expired'),
      })
      expect(await statusEvents(id, 'failed')).toHaveLength(1)
    }
    expect((await orderRow(api, young)).status).toBe('created')
    expect((await orderRow(api, paying)).status).toBe('waiting_for_payment')
    // the two codes held by the expired order are free again; the one of the paying shopper is not
    expect(await freeCodes(product.id)).toBe(2)

    // a late confirmation of the expired order's payment delivers nothing
    const [late] = await api.db.select().from(payments).where(eq(payments.orderId, waiting))
    await pressOnCheckout(api, late!.id, 'confirm').catch(() => {})
    expect((await orderRow(api, waiting)).status).toBe('failed')
    expect(await soldTo(waiting)).toHaveLength(0)
    // and the paying shopper still pays and gets the held code
    await pressOnCheckout(api, started.body.payment_id, 'confirm')
    expect((await orderRow(api, paying)).status).toBe('done')
    expect(await soldTo(paying)).toHaveLength(1)
  })

  it('fails each order once when several workers sweep at the same time', async () => {
    const { product } = await makePubgStock(api, { codes: 10 })
    const ids: string[] = []
    for (let i = 0; i < 6; i++) ids.push(await createPubgOrder(api, product.id))
    for (const id of ids.slice(0, 3)) expect((await pay(api, sandboxMethod, id)).status).toBe(200)
    await api.db
      .update(payments)
      .set({ created: sql`now() - interval '2 hours'` })
      .where(inArray(payments.orderId, ids))
    await age(ids, 30)
    const keys = [1, 2, 3].map((n) => `expire-race-${n}-${hex()}`)
    for (const key of keys) await enqueue(api.db, { kind: EXPIRE_JOB, key })
    const workers = [1, 2, 3].map(() => freshWorker())
    await Promise.all(workers.map((w) => w.runDue()))
    for (const id of ids) {
      expect((await orderRow(api, id)).status).toBe('failed')
      expect(await statusEvents(id, 'failed')).toHaveLength(1)
    }
    expect(await freeCodes(product.id)).toBe(10)
  })

  it('sweeps past one batch: 250 expired orders in one run, young ones kept', async () => {
    const rows = Array.from({ length: 260 }, (_, i) => ({
      id: randomUUID(),
      kind: 'StandoffOrder' as const,
      status: (i % 2 ? 'created' : 'waiting_for_payment') as 'created' | 'waiting_for_payment',
      total: 100,
      totalToPay: 100,
      created: new Date(Date.now() - (i < 250 ? 48 : 1) * 3600_000),
    }))
    await api.db.insert(orders).values(rows)
    await enqueue(api.db, { kind: EXPIRE_JOB, key: `expire-bulk-${hex()}` })
    const started = Date.now()
    await freshWorker().runDue()
    const elapsed = Date.now() - started
    const after = await api.db
      .select({ id: orders.id, status: orders.status })
      .from(orders)
      .where(
        inArray(
          orders.id,
          rows.map((r) => r.id),
        ),
      )
    const byId = new Map(after.map((r) => [r.id, r.status]))
    expect(rows.slice(0, 250).every((r) => byId.get(r.id) === 'failed')).toBe(true)
    expect(rows.slice(250).every((r) => byId.get(r.id) === r.status)).toBe(true)
    console.info(`[order-clock] 250 expired orders swept on ${api.database.kind}: ${elapsed} ms`)
  }, 120_000)

  it('asks the provider once more first: a payment that went through without its callback pays the order', async () => {
    const { product } = await makePubgStock(api, { codes: 2 })
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, psMethod, orderId, { email: 'late@example.com' })
    expect(r.status).toBe(200)
    await age([orderId], 25)
    await api.db
      .update(payments)
      .set({ created: sql`now() - interval '2 hours'` })
      .where(eq(payments.orderId, orderId))
    ps.states.set(r.body.payment_id, [
      { TransactionId: `late-${hex()}`, TransactionState: 'success', Amount: r.body.amount, Currency: 'RUB' },
    ])
    await enqueue(api.db, { kind: EXPIRE_JOB, key: `expire-look-${hex()}` })
    await freshWorker().runDue()
    expect((await orderRow(api, orderId)).status).toBe('done')
    expect(await soldTo(orderId)).toHaveLength(1)
  })
})

describe('MooGold orders left sent are re-checked in the background', () => {
  async function moogoldOrder(ref = 'mg-slow') {
    const [g] = await api.db
      .insert(games)
      .values({ kind: 'SupplyGame', title: `Supply ${hex()}`, supplier: 'moogold', supplierRef: 'mg-1' })
      .returning()
    const [p] = await api.db
      .insert(products)
      .values({ gameId: g!.id, kind: 'SupplyProduct', title: `P ${ref}`, price: 1000, supplierRef: ref })
      .returning()
    const id = randomUUID()
    await api.db.insert(orders).values({
      id,
      kind: 'MooGoldOrder',
      status: 'paid',
      paidAt: new Date(),
      total: 1000,
      totalToPay: 1000,
      gameId: g!.id,
      moogoldUserId: '12345678',
      moogoldServerCustomId: 'eu',
    })
    await api.db.insert(orderProducts).values({ orderId: id, productId: p!.id, quantity: 1, price: 1000 })
    expect(await fulfilOrder(deps(), id)).toBe('sent')
    return { id, supplierId: (await orderRow(api, id)).supplierOrderId! }
  }

  it('with growing backoff until done, across a restart in the middle', async () => {
    const { id, supplierId } = await moogoldOrder()
    const job = await jobFor(RECHECK_JOB, 'orderId', id)
    expect(job.status).toBe('pending')
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + 25_000)

    // first check: the supplier is still working — asked once, then again later
    await makeDue(job.id)
    const before = mg.seen.length
    expect(await freshWorker().runDue({ only: [job.id] })).toBe(1)
    expect(mg.seen.slice(before)).toEqual([
      { path: 'order/order_detail', body: expect.objectContaining({ data: { order_id: supplierId } }) },
    ])
    let row = await jobRow(job.id)
    expect(row).toMatchObject({ status: 'pending', payload: { orderId: id, checks: 1 } })
    const firstWait = row.runAt.getTime() - Date.now()
    expect(firstWait).toBeGreaterThan(50_000)
    expect((await orderRow(api, id)).status).toBe('sent')

    // second check, still working: the wait grows
    await makeDue(job.id)
    expect(await freshWorker().runDue({ only: [job.id] })).toBe(1)
    row = await jobRow(job.id)
    expect(row.payload.checks).toBe(2)
    expect(row.runAt.getTime() - Date.now()).toBeGreaterThan(100_000)

    // third check: the worker dies in the middle; the supplier finishes meanwhile
    await makeDue(job.id)
    await dieWhileRunning(job.id)
    mg.details.set(supplierId, 'completed')
    expect(await freshWorker().runDue({ only: [job.id] })).toBe(1)
    expect((await orderRow(api, id)).status).toBe('done')
    expect((await jobRow(job.id)).status).toBe('done')
    expect(await statusEvents(id, 'done')).toHaveLength(1)
  })

  it('ends failed with the reason when the supplier refunds', async () => {
    const { id, supplierId } = await moogoldOrder()
    mg.details.set(supplierId, 'refunded')
    const job = await jobFor(RECHECK_JOB, 'orderId', id)
    await makeDue(job.id)
    await freshWorker().runDue({ only: [job.id] })
    const s = await status(api, id)
    expect(s.body.status).toBe('failed')
    expect(s.body.reject_reason).toBe(message('supplier_failed', { reason: 'refunded' }))
    expect((await jobRow(job.id)).status).toBe('done')
  })

  it('stops after its bounded checks and flags the order for the back-office', async () => {
    const { id } = await moogoldOrder()
    const job = await jobFor(RECHECK_JOB, 'orderId', id)
    await api.db
      .update(jobs)
      .set({ runAt: sql`now()`, payload: { orderId: id, checks: RECHECK_MAX_CHECKS - 1 } })
      .where(eq(jobs.id, job.id))
    await freshWorker().runDue({ only: [job.id] })
    expect((await jobRow(job.id)).status).toBe('done')
    expect((await orderRow(api, id)).status).toBe('sent')
    const flags = await api.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, id), eq(orderEvents.kind, 'attention')))
    expect(flags.map((f) => f.data.reason)).toEqual([
      message('supplier_recheck_exhausted', { checks: RECHECK_MAX_CHECKS }),
    ])
  })
})

describe('payments without a callback are re-queried through Payselection', () => {
  async function startPs() {
    const { product } = await makePubgStock(api, { codes: 3 })
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, psMethod, orderId, { email: 'buyer@example.com' })
    expect(r.status).toBe(200)
    const job = await jobFor(REQUERY_JOB, 'paymentId', r.body.payment_id)
    return { orderId, paymentId: r.body.payment_id, amount: r.body.amount as string, job }
  }
  const asked = (paymentId: string) =>
    ps.log.filter((l) => l.method === 'GET' && l.path === `/orders/${paymentId}`).length

  function webhook(body: unknown) {
    const raw = JSON.stringify(body)
    return api.app.request('/api/payments/payselection/webhook/', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-webhook-signature': createHmac('sha256', PS_SECRET).update(raw).digest('hex'),
      },
      body: raw,
    })
  }

  it('with backoff, settled once across a restart; a late callback changes nothing', async () => {
    const { orderId, paymentId, amount, job } = await startPs()
    expect(job.runAt.getTime()).toBeGreaterThan(Date.now() + 45_000)
    ps.states.set(paymentId, [
      { TransactionId: 'rq-1', TransactionState: 'wait_for_3ds', Amount: amount, Currency: 'RUB' },
    ])
    await makeDue(job.id)
    expect(await freshWorker().runDue({ only: [job.id] })).toBe(1)
    expect(asked(paymentId)).toBe(1)
    const row = await jobRow(job.id)
    expect(row).toMatchObject({ status: 'pending', payload: { paymentId, checks: 1 } })
    expect(row.runAt.getTime() - Date.now()).toBeGreaterThan(60_000)
    expect((await status(api, orderId)).body.status).toBe('waiting_for_payment')

    // the next check is taken by a worker that dies; the payment went through meanwhile
    await makeDue(job.id)
    await dieWhileRunning(job.id)
    ps.states.set(paymentId, [
      { TransactionId: 'rq-1', TransactionState: 'success', Amount: amount, Currency: 'RUB' },
    ])
    expect(await freshWorker().runDue({ only: [job.id] })).toBe(1)
    expect((await jobRow(job.id)).status).toBe('done')
    expect((await status(api, orderId)).body).toMatchObject({ status: 'done', payment_status: 'succeeded' })
    expect(await soldTo(orderId)).toHaveLength(1)

    // the provider's callback arrives late: accepted, settles nothing again
    const r = await webhook({ Event: 'Payment', TransactionId: 'rq-1', OrderId: paymentId, Amount: amount })
    expect(r.status).toBe(200)
    expect(await soldTo(orderId)).toHaveLength(1)
    expect(await statusEvents(orderId, 'paid')).toHaveLength(1)
  })

  it('a callback first: the re-query finds the payment settled and asks nothing', async () => {
    const { orderId, paymentId, amount, job } = await startPs()
    expect(
      (await webhook({ Event: 'Payment', TransactionId: 'cb-1', OrderId: paymentId, Amount: amount })).status,
    ).toBe(200)
    expect((await orderRow(api, orderId)).status).toBe('done')
    await makeDue(job.id)
    expect(await freshWorker().runDue({ only: [job.id] })).toBe(1)
    expect((await jobRow(job.id)).status).toBe('done')
    expect(asked(paymentId)).toBe(0)
    expect(await soldTo(orderId)).toHaveLength(1)
  })

  it('a refused answer is not asked again; a silent provider is asked a bounded number of times', async () => {
    const refused = await startPs()
    ps.states.set(refused.paymentId, [
      { TransactionId: 'bad-1', TransactionState: 'success', Amount: '1.00', Currency: 'RUB' },
    ])
    await makeDue(refused.job.id)
    await freshWorker().runDue({ only: [refused.job.id] })
    expect((await jobRow(refused.job.id)).status).toBe('done')
    expect((await orderRow(api, refused.orderId)).status).toBe('waiting_for_payment')

    const silent = await startPs()
    await api.db
      .update(jobs)
      .set({ runAt: sql`now()`, payload: { paymentId: silent.paymentId, checks: REQUERY_MAX_CHECKS - 1 } })
      .where(eq(jobs.id, silent.job.id))
    await freshWorker().runDue({ only: [silent.job.id] })
    expect((await jobRow(silent.job.id)).status).toBe('done')
    const [p] = await api.db.select().from(payments).where(eq(payments.id, silent.paymentId))
    expect(p!.status).toBe('pending')
  })

  it('is not queued for the sandbox, which has no status call', async () => {
    const { product } = await makePubgStock(api, { codes: 1 })
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, sandboxMethod, orderId)
    const rows = await api.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, REQUERY_JOB), sql`${jobs.payload}->>'paymentId' = ${r.body.payment_id}`))
    expect(rows).toHaveLength(0)
  })
})

describe('«Повторить выдачу» in the back-office', () => {
  let support: Awaited<ReturnType<typeof makeUser>>
  let shopper: Awaited<ReturnType<typeof makeUser>>
  beforeAll(async () => {
    support = await makeStaff(api, 'support')
    shopper = await makeUser(api)
  })

  /** A paid PUBG order whose delivery failed (its codes were gone), as the state machine leaves it. */
  async function failedPaidOrder(productId: number, quantity: number) {
    const id = randomUUID()
    await api.db.insert(orders).values({
      id,
      kind: 'PUBGOrder',
      status: 'failed',
      paidAt: new Date(),
      email: 'buyer@example.com',
      total: 9900 * quantity,
      totalToPay: 9900 * quantity,
      rejectReason: 'Коды закончились',
    })
    await api.db.insert(orderProducts).values({ orderId: id, productId, quantity, price: 9900 })
    return id
  }
  const retry = (id: string, token?: string, requestId = `req-${hex(6)}`) =>
    api.call<Err & { order: { status: string }; can_retry_fulfilment: boolean }>(
      'POST',
      `/api/admin/orders/${id}/retry_fulfilment/`,
      { token, body: { request_id: requestId } },
    )

  it('delivers a paid order again once, audited; only staff may', async () => {
    const { product } = await makePubgStock(api, { codes: 0 })
    const id = await failedPaidOrder(product.id, 2)
    const detail = await api.call<{ can_retry_fulfilment: boolean }>('GET', `/api/admin/orders/${id}/`, {
      token: support.token,
    })
    expect(detail.body.can_retry_fulfilment).toBe(true)
    // the back-office does not exist for guests and shoppers
    expect((await retry(id)).status).toBe(404)
    expect((await retry(id, shopper.token)).status).toBe(404)

    // still no codes: tried, and it fails again with the reason, nothing half-delivered
    const again = await retry(id, support.token)
    expect(again.status).toBe(200)
    expect(again.body.order.status).toBe('failed')
    expect((await orderRow(api, id)).rejectReason).toBe(
      message('voucher_codes_out_of_stock', { title: product.title }),
    )

    // stock came back: five staff clicks at once deliver the two codes once
    await api.db.insert(voucherCodes).values(
      Array.from({ length: 4 }, (_, i) => ({
        productId: product.id,
        code: `R-${hex(6)}-${i}`,
        amountUc: 60,
      })),
    )
    const clicks = await Promise.all([1, 2, 3, 4, 5].map(() => retry(id, support.token)))
    expect(clicks.filter((c) => c.status === 200).length).toBeGreaterThanOrEqual(1)
    for (const c of clicks) expect([200, 409]).toContain(c.status)
    expect((await orderRow(api, id)).status).toBe('done')
    expect(await soldTo(id)).toHaveLength(2)
    expect(await freeCodes(product.id)).toBe(2)
    expect(await statusEvents(id, 'done')).toHaveLength(1)

    // delivered: no more retries (a double submit of one request is answered as done)
    const late = await retry(id, support.token)
    expect([late.status, late.body.code]).toEqual([409, 'admin_order_not_retryable'])
    expect(late.body.detail).toBe(message('admin_order_not_retryable'))
    const audits = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'order.retry_fulfilment')))
    expect(audits.length).toBeGreaterThanOrEqual(2)
    expect(audits[0]!.actorEmail).toBe(support.email)
  })

  it('answers a repeated request id as done', async () => {
    const { product } = await makePubgStock(api, { codes: 1 })
    const id = await failedPaidOrder(product.id, 1)
    expect((await retry(id, support.token, 'same-request-1')).status).toBe(200)
    expect((await orderRow(api, id)).status).toBe('done')
    expect((await retry(id, support.token, 'same-request-1')).status).toBe(200)
    expect(await soldTo(id)).toHaveLength(1)
  })

  it('refuses orders never paid, refunded, or delivered', async () => {
    const { product } = await makePubgStock(api, { codes: 3 })
    const unpaid = await createPubgOrder(api, product.id)
    await api.db
      .update(orders)
      .set({ status: 'failed', rejectReason: message('order_expired') })
      .where(eq(orders.id, unpaid))
    const refunded = await failedPaidOrder(product.id, 1)
    await api.db
      .insert(refunds)
      .values({ orderId: refunded, method: 'manual', status: 'manual', amount: 9900, reason: 'тест' })
    for (const id of [unpaid, refunded]) {
      const r = await retry(id, support.token)
      expect([r.status, r.body.code]).toEqual([409, 'admin_order_not_retryable'])
      const d = await api.call<{ can_retry_fulfilment: boolean }>('GET', `/api/admin/orders/${id}/`, {
        token: support.token,
      })
      expect(d.body.can_retry_fulfilment).toBe(false)
    }
    expect(await soldTo(refunded)).toHaveLength(0)
    expect((await retry(randomUUID(), support.token)).status).toBe(404)
  })
})
