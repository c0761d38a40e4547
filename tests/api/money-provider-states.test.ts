// Issue 43, finding 1 (decision 110, 111): a provider refund is what the provider says it is. A
// refund YooKassa answers `pending` stays pending in the shop however many times the job runs, and
// is settled by refund.succeeded; it is never credited to the balance (nor handed to a person) while
// YooKassa may still pay it. Only `canceled` (or a refusal proving no refund exists) lets it leave
// YooKassa's route, and then a person chooses. An event that does not fit the shop's record is an
// audit entry and a staff alert.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import {
  auditLog,
  balanceEntries,
  jobs,
  orders,
  paymentMethods,
  refunds,
  staffAlerts,
  users,
} from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { runAlerts } from '#api/services/alerts/run'
import { ensureYookassaMethods } from '#api/services/payments/yookassa-setup'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'
import { createPubgOrder, makePubgStock, orderRow } from './payments-fixtures'

let api: TestApi
let yk: FakeYookassa
let owner: Awaited<ReturnType<typeof makeUser>>
let productId: number
const deps = (): ApiDeps => api.deps
const worker = () => createJobWorker(deps(), { handlers: JOB_HANDLERS, onError: () => {} })

beforeAll(async () => {
  yk = await startFakeYookassa()
  api = await createTestApi({ env: { ...yk.env, YOOKASSA_NOTIFY_FROM: '127.0.0.1/32, ::1' } })
  owner = await makeStaff(api, 'owner')
  await ensureYookassaMethods(api.db)
  await api.db.update(paymentMethods).set({ isActive: true }).where(eq(paymentMethods.name, 'yookassa_card'))
  productId = (await makePubgStock(api, { codes: 100, price: 8900 })).product.id
}, 180_000)
afterAll(async () => {
  await api?.close()
  await yk?.close()
})

function notify(body: unknown) {
  return api.app.request('/api/payments/yookassa/notify/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shop-client-ip': '127.0.0.1' },
    body: JSON.stringify(body),
  })
}

/** A done order paid by card through YooKassa: a guest's, or a signed-in buyer's (`token`). */
async function doneCardOrder(token?: string) {
  const orderId = await createPubgOrder(api, productId, { token })
  const r = await api.call<{ payment_id: string }>('POST', '/api/payments/yookassa_card/', {
    body: { order_id: orderId, currency: 'RUB', email: token ? null : 'buyer@example.com', phone: null },
    token,
  })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  const remote = yk.paymentOf(r.body.payment_id)!
  expect((await notify(yk.notification('payment.succeeded', yk.succeed(remote.id)))).status).toBe(200)
  expect((await orderRow(api, orderId)).status).toBe('done')
  return { orderId, remote }
}

/** The owner refunds the done order (decision 063). */
async function ownerRefunds(
  orderId: string,
  body: Record<string, unknown> = { reason: 'Покупатель передумал' },
) {
  return api.call<Record<string, unknown>>('POST', `/api/admin/orders/${orderId}/refund/`, {
    token: owner.token,
    body,
  })
}

async function refundJob(orderId: string) {
  const [job] = await api.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'refund.provider'), eq(jobs.dedupeKey, `refund:${orderId}`)))
  return job!
}

/** Runs the order's refund job now, as often as `times`, as if each backoff had passed. */
async function runRefundJob(orderId: string, times = 1) {
  for (let i = 0; i < times; i++) {
    const job = await refundJob(orderId)
    if (!['pending', 'running'].includes(job.status)) return
    await api.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, job.id))
    await worker().runDue({ only: [job.id] })
  }
}

const refundOf = async (orderId: string) =>
  (
    await api.db
      .select()
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, 'order')))
  )[0]!

const ykRefundsOf = (paymentId: string) => [...yk.refunds.values()].filter((r) => r.payment_id === paymentId)

async function balanceOf(userId: number) {
  const [u] = await api.db.select({ balance: users.balance }).from(users).where(eq(users.id, userId))
  const entries = await api.db.select().from(balanceEntries).where(eq(balanceEntries.userId, userId))
  return { balance: u!.balance, entries }
}

async function mismatches(orderId: string) {
  return api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'provider_mismatch'), eq(auditLog.entityId, orderId)))
}

describe('a refund YooKassa answers pending (finding 1: the double refund)', { timeout: 120_000 }, () => {
  it('signed-in buyer: stays pending through every retry, never reaches the balance, and refund.succeeded completes it once', async () => {
    const buyer = await makeUser(api)
    const { orderId, remote } = await doneCardOrder(buyer.token)
    expect((await ownerRefunds(orderId)).status).toBe(200)
    yk.refundStatus = 'pending'
    try {
      // more runs than the job's attempts: the old job credited the balance once they ran out
      await runRefundJob(orderId, 14)
    } finally {
      yk.refundStatus = 'succeeded'
    }
    const sent = ykRefundsOf(remote.id)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.status).toBe('pending')
    expect(await refundOf(orderId)).toMatchObject({
      method: 'provider',
      status: 'pending',
      externalId: sent[0]!.id,
      toBalance: 0,
    })
    expect(await balanceOf(buyer.id)).toEqual({ balance: 0, entries: [] })
    // the job is still there, asking YooKassa (GET) and never posting a second refund
    expect((await refundJob(orderId)).status).toBe('pending')
    const gets = yk.log.filter((l) => l.method === 'GET' && l.path === `/refunds/${sent[0]!.id}`)
    expect(gets.length).toBeGreaterThanOrEqual(13)
    expect(
      yk.log.filter((l) => l.method === 'POST' && l.path === '/refunds' && l.body.includes(remote.id)),
    ).toHaveLength(1)

    // YooKassa pays it back, days later
    yk.finishRefund(sent[0]!.id, 'succeeded')
    expect((await notify(yk.notification('refund.succeeded', sent[0]!))).status).toBe(200)
    expect(await refundOf(orderId)).toMatchObject({
      method: 'provider',
      status: 'done',
      externalId: sent[0]!.id,
    })
    expect(await balanceOf(buyer.id)).toEqual({ balance: 0, entries: [] })
    // the same notification again changes nothing and is no mismatch
    expect((await notify(yk.notification('refund.succeeded', sent[0]!))).status).toBe(200)
    expect(await mismatches(orderId)).toHaveLength(0)
    await runRefundJob(orderId)
    expect(ykRefundsOf(remote.id)).toHaveLength(1)
  })

  it('guest: a pending refund is never handed to a person while YooKassa holds it; the requery job settles it', async () => {
    const { orderId, remote } = await doneCardOrder()
    expect((await ownerRefunds(orderId)).status).toBe(200)
    yk.refundStatus = 'pending'
    try {
      await runRefundJob(orderId, 12)
    } finally {
      yk.refundStatus = 'succeeded'
    }
    expect(await refundOf(orderId)).toMatchObject({ method: 'provider', status: 'pending' })
    // no notification at all (lost): the job's next question finds it succeeded
    yk.finishRefund(ykRefundsOf(remote.id)[0]!.id, 'succeeded')
    await runRefundJob(orderId)
    expect(await refundOf(orderId)).toMatchObject({ method: 'provider', status: 'done' })
    expect((await refundJob(orderId)).status).toBe('done')
  })

  it('an outage past every attempt keeps the refund on YooKassa’s route (outcome unknown), asking hourly', async () => {
    const buyer = await makeUser(api)
    const { orderId } = await doneCardOrder(buyer.token)
    expect((await ownerRefunds(orderId)).status).toBe(200)
    const realUrl = api.config.yookassa!.apiUrl
    ;(api.config.yookassa as { apiUrl: string }).apiUrl = 'http://127.0.0.1:9'
    try {
      await runRefundJob(orderId, 12)
    } finally {
      ;(api.config.yookassa as { apiUrl: string }).apiUrl = realUrl
    }
    const job = await refundJob(orderId)
    expect(job.status).toBe('pending')
    expect(job.runAt.getTime() - Date.now()).toBeGreaterThan(50 * 60_000)
    expect(await refundOf(orderId)).toMatchObject({ method: 'provider', status: 'pending' })
    expect((await balanceOf(buyer.id)).balance).toBe(0)
    await runRefundJob(orderId)
    expect(await refundOf(orderId)).toMatchObject({ method: 'provider', status: 'done' })
  })
})

describe('only canceled opens another route, and a person chooses it', { timeout: 120_000 }, () => {
  it('canceled: the refund waits for a person (alerted); the owner sends it to the balance; a late refund.succeeded is a mismatch, not a silent 200', async () => {
    const buyer = await makeUser(api)
    const { orderId, remote } = await doneCardOrder(buyer.token)
    expect((await ownerRefunds(orderId)).status).toBe(200)
    yk.refundStatus = 'pending'
    try {
      await runRefundJob(orderId)
    } finally {
      yk.refundStatus = 'succeeded'
    }
    const ykRefund = ykRefundsOf(remote.id)[0]!
    yk.finishRefund(ykRefund.id, 'canceled')
    await runRefundJob(orderId)
    expect(await refundOf(orderId)).toMatchObject({
      method: 'manual',
      status: 'manual',
      externalId: ykRefund.id,
    })
    expect((await balanceOf(buyer.id)).balance).toBe(0)
    const run = await runAlerts(deps())
    expect(run.opened).toContain(`refund_manual:${(await refundOf(orderId)).id}`)

    // the owner chooses the balance
    const chosen = await ownerRefunds(orderId, { route: 'balance' })
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200)
    expect(await refundOf(orderId)).toMatchObject({ method: 'balance', status: 'done', toBalance: 8900 })
    expect((await balanceOf(buyer.id)).balance).toBe(8900)
    // a second choice is refused: the refund is done
    expect((await ownerRefunds(orderId, { route: 'balance', reason: 'ещё раз' })).status).toBe(409)
    expect((await balanceOf(buyer.id)).balance).toBe(8900)

    // YooKassa (wrongly, or a race we cannot see) says the canceled refund succeeded
    ykRefund.status = 'succeeded'
    expect((await notify(yk.notification('refund.succeeded', ykRefund))).status).toBe(200)
    expect((await notify(yk.notification('refund.succeeded', ykRefund))).status).toBe(200)
    const found = await mismatches(orderId)
    expect(found).toHaveLength(1)
    expect(found[0]).toMatchObject({
      actorEmail: 'provider:yookassa',
      before: { method: 'balance', status: 'done' },
      after: { kind: 'refund_succeeded_elsewhere', external_id: ykRefund.id },
    })
    const alerts = await runAlerts(deps())
    expect(alerts.opened).toContain(`provider_mismatch:${found[0]!.id}`)
    const [row] = await api.db
      .select()
      .from(staffAlerts)
      .where(eq(staffAlerts.cause, `provider_mismatch:${found[0]!.id}`))
    // the order as people name it (decision 135), not a fragment of its UUID
    const [order] = await api.db.select().from(orders).where(eq(orders.id, orderId))
    expect(row!.detail).toContain(`(заказ № ${order!.number})`)
    expect(row!.detail).not.toContain(orderId.slice(0, 8))
    // and what happened in words, not the audit's code (the back-office text test found it)
    expect(row!.detail).toContain('она вернула деньги, которые магазин уже вернул на баланс или вручную')
    expect(row!.detail).not.toContain('refund_succeeded_elsewhere')
  })

  it('a guest’s canceled refund: the balance is refused (409, in Russian), by hand is recorded', async () => {
    const { orderId, remote } = await doneCardOrder()
    expect((await ownerRefunds(orderId)).status).toBe(200)
    yk.refundStatus = 'canceled'
    try {
      await runRefundJob(orderId)
    } finally {
      yk.refundStatus = 'succeeded'
    }
    expect(ykRefundsOf(remote.id)[0]!.status).toBe('canceled')
    expect(await refundOf(orderId)).toMatchObject({ method: 'manual', status: 'manual' })
    const refused = await ownerRefunds(orderId, { route: 'balance' })
    expect(refused.status).toBe(409)
    expect(refused.body).toMatchObject({ code: 'refund_route_not_allowed' })
    expect((await ownerRefunds(orderId, { route: 'manual' })).status).toBe(200)
    expect(await refundOf(orderId)).toMatchObject({ method: 'manual', status: 'done' })
  })

  it('the old route replayed: a refund.succeeded for a refund the shop already moved to the balance raises an alert', async () => {
    const buyer = await makeUser(api)
    const { orderId, remote } = await doneCardOrder(buyer.token)
    expect((await ownerRefunds(orderId)).status).toBe(200)
    yk.refundStatus = 'pending'
    try {
      await runRefundJob(orderId)
    } finally {
      yk.refundStatus = 'succeeded'
    }
    // what the old job did once its attempts ran out (the finding): moved to the balance
    await api.db
      .update(refunds)
      .set({ method: 'balance', status: 'done', toBalance: 8900 })
      .where(eq(refunds.orderId, orderId))
    const ykRefund = yk.finishRefund(ykRefundsOf(remote.id)[0]!.id, 'succeeded')
    expect((await notify(yk.notification('refund.succeeded', ykRefund))).status).toBe(200)
    expect(await mismatches(orderId)).toHaveLength(1)
  })
})

describe('a payment that succeeds for an order the shop closed', { timeout: 120_000 }, () => {
  it('is refused and refunded, with an audit entry and a staff alert', async () => {
    const orderId = await createPubgOrder(api, productId)
    const r = await api.call<{ payment_id: string }>('POST', '/api/payments/yookassa_card/', {
      body: { order_id: orderId, currency: 'RUB', email: 'late@example.com', phone: null },
    })
    const remote = yk.paymentOf(r.body.payment_id)!
    expect(
      (
        await api.call('POST', `/api/admin/orders/${orderId}/cancel/`, {
          token: owner.token,
          body: { reason: 'Отменён' },
        })
      ).status,
    ).toBe(200)
    expect((await notify(yk.notification('payment.succeeded', yk.succeed(remote.id)))).status).toBe(200)
    expect((await orderRow(api, orderId)).status).toBe('failed')
    const found = await mismatches(orderId)
    expect(found).toHaveLength(1)
    expect(found[0]!.after).toMatchObject({ kind: 'payment_refused' })
    expect((await runAlerts(deps())).opened).toContain(`provider_mismatch:${found[0]!.id}`)
    const [refund] = await api.db
      .select()
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), inArray(refunds.kind, ['payment'])))
    expect(refund).toMatchObject({ method: 'provider' })
    expect((await api.db.select().from(orders).where(eq(orders.id, orderId)))[0]!.paidAt).toBeNull()
  })
})
