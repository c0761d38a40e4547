// Refused payments (issue 12, decision 037): money a provider reports as taken that the shop cannot
// accept — another amount or currency, an order no longer payable — is recorded (the payment
// `refused`, `payment_refused` on the timeline) and given back once: through the provider when it
// can refund (sandbox, Payselection), else to a signed-in buyer's balance, else by a person. The
// provider is answered as it wants to stop its retries; the order keeps its state.
import { createHash, createHmac } from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import {
  balanceEntries,
  jobs,
  orderEvents,
  payments,
  products,
  refunds,
  users,
  voucherCodes,
} from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import type { MailDataMap } from '#api/services/mail/outbox'
import { renderMail } from '#api/services/mail/render'
import { transitionOrder } from '#api/services/orders/state-machine'
import { refundRefusedPayment } from '#api/services/refunds/refused'
import { type FakePayselection, PS_SECRET, PS_SITE, startFakePayselection } from '#tests/fakes/payselection'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'
import {
  checkoutPost,
  createPubgOrder,
  type Err,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  type PayAnswer,
  type StatusAnswer,
  signedFields,
} from './payments-fixtures'

const WALLET = 'W-3003'
const GP_SECRET = 'getpay-refund-secret'

type Returned = { amount: string; currency: string; status: string; method: string }
type Status = StatusAnswer & { returned_payments?: Returned[]; refund?: unknown }

let api: TestApi
let deps: ApiDeps
let fake: FakePayselection
let productId: number
let sandboxMethod: string
let psMethod: string
let gpMethod: string
let owner: Awaited<ReturnType<typeof makeUser>>

beforeAll(async () => {
  fake = await startFakePayselection()
  api = await createTestApi({
    env: {
      ...fake.env,
      GETPAY_WALLET_ID: WALLET,
      GETPAY_SECRET: GP_SECRET,
      GETPAY_PAY_URL: 'https://getpay.test/pay',
    },
  })
  deps = api.deps
  productId = (await makePubgStock(api, { codes: 60, price: 9900 })).product.id
  sandboxMethod = (await makeSandboxMethod(api, 'redirect')).method.name
  psMethod = (await makeSandboxMethod(api, 'redirect', { provider: 'payselection', scenario: null })).method
    .name
  gpMethod = (await makeSandboxMethod(api, 'redirect', { provider: 'getpay', scenario: null })).method.name
  owner = await makeStaff(api, 'owner')
})
afterAll(async () => {
  await api?.close()
  await fake?.close()
})

const payAs = async (method: string, orderId: string, token?: string) => {
  const r = await api.call<PayAnswer & Err>('POST', `/api/payments/${method}/`, {
    body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
    token,
  })
  expect(r.status).toBe(200)
  return r.body
}

const statusOf = async (orderId: string, token?: string) =>
  (await api.call<Status>('GET', `/api/orders/status/${orderId}/`, { token })).body

async function paymentOf(id: string) {
  return (await api.db.select().from(payments).where(eq(payments.id, id)))[0]!
}

const refundsOf = (orderId: string) => api.db.select().from(refunds).where(eq(refunds.orderId, orderId))

async function timeline(orderId: string, kind: string) {
  return api.db
    .select()
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, kind)))
}

async function refundJobs(orderId: string) {
  const rows = await api.db.select().from(jobs).where(eq(jobs.kind, 'refund.provider'))
  return rows.filter((j) => (j.payload as { orderId?: string }).orderId === orderId)
}

async function refundMails(orderId: string) {
  const rows = await api.db.select().from(jobs).where(eq(jobs.kind, 'mail.send'))
  return rows
    .map((j) => j.payload as { template?: string; data?: Record<string, unknown> })
    .filter((p) => p.template === 'order_refunded' && p.data?.orderId === orderId)
}

/** Runs the due refund jobs, as the worker would. */
async function runRefundJobs() {
  const due = await api.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.kind, 'refund.provider'), inArray(jobs.status, ['pending', 'running'])))
  if (due.length === 0) return 0
  return createJobWorker(deps, { handlers: JOB_HANDLERS, onError: () => {} }).runDue({
    only: due.map((d) => d.id),
  })
}

function webhook(body: Record<string, unknown>, signature?: string) {
  const raw = JSON.stringify(body)
  return api.app.request('/api/payments/payselection/webhook/', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-site-id': PS_SITE,
      'x-webhook-signature': signature ?? createHmac('sha256', PS_SECRET).update(raw).digest('hex'),
    },
    body: raw,
  })
}

const psPaid = (paymentId: string, amount: string, tx = `PS-${paymentId}`) => ({
  Event: 'Payment',
  TransactionId: tx,
  OrderId: paymentId,
  Amount: amount,
  Currency: 'RUB',
})

function getpaySign(f: Record<string, string>) {
  const order = ['WALLET_ID', 'WALLET_TYPE', 'SUM', 'ORDER_ID', 'P_TYPE', 'P_WALLET', 'PAYMENT_ID']
  return createHash('sha256')
    .update([...order.map((k) => f[k]), GP_SECRET].join(':'))
    .digest('hex')
}

function getpayNotice(orderId: string, sum: string, sign?: string, paymentId = `GP-${orderId}`) {
  const f: Record<string, string> = {
    WALLET_ID: WALLET,
    WALLET_TYPE: 'card',
    SUM: sum,
    ORDER_ID: orderId,
    P_TYPE: 'visa',
    P_WALLET: '4111****1111',
    PAYMENT_ID: paymentId,
  }
  f.SIGN = sign ?? getpaySign(f)
  return api.app.request('/api/payments/getpay/notify/', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(f).toString(),
  })
}

describe('amount mismatch', () => {
  it('sandbox: another amount is refused, refunded once through the provider, order untouched', async () => {
    const orderId = await createPubgOrder(api, productId, { email: 'guest-sb@example.com' })
    const started = await payAs(sandboxMethod, orderId)
    const p = await paymentOf(started.payment_id)
    const cheap = signedFields(api, { ...p, amount: 100 })

    const first = await checkoutPost(api, p.id, 'confirm', cheap)
    expect(first.status).toBe(303)
    expect(first.location).toContain(`/orders/${orderId}/pay`)
    expect((await paymentOf(p.id)).status).toBe('refused')
    const order = await orderRow(api, orderId)
    expect([order.status, order.paidAt]).toEqual(['waiting_for_payment', null])
    expect(await statusOf(orderId)).toMatchObject({
      status: 'waiting_for_payment',
      payment_status: 'failed',
      payment_message: null,
      is_payment_active: true,
      returned_payments: [{ amount: '1.00', currency: 'RUB', status: 'pending', method: 'provider' }],
    })
    const [refused] = await timeline(orderId, 'payment_refused')
    expect(refused?.data).toMatchObject({
      amount: 100,
      expected_amount: 9900,
      reason: 'payment_amount_mismatch',
    })
    expect((await timeline(orderId, 'refund')).map((e) => e.data)).toEqual([
      expect.objectContaining({ payment_id: p.id, method: 'provider', status: 'pending', amount: 100 }),
    ])

    // the provider tries again: nothing new
    expect((await checkoutPost(api, p.id, 'confirm', cheap)).status).toBe(303)
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({
        kind: 'payment',
        paymentId: p.id,
        amount: 100,
        method: 'provider',
        completedAt: null,
        reason: 'Платёж не засчитан: сумма или валюта не совпали с суммой заказа',
      }),
    ])
    expect(await refundJobs(orderId)).toHaveLength(1)
    expect(await timeline(orderId, 'payment_refused')).toHaveLength(1)

    expect(await runRefundJobs()).toBeGreaterThan(0)
    expect(await runRefundJobs()).toBe(0)
    const [done] = await refundsOf(orderId)
    expect(done).toMatchObject({ status: 'done', externalId: `sandbox-refund-${p.id}` })
    expect((await statusOf(orderId)).returned_payments).toEqual([
      { amount: '1.00', currency: 'RUB', status: 'done', method: 'provider' },
    ])
    const mails = await refundMails(orderId)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.data).toMatchObject({ destination: 'payment', amount: 100, refusedPayment: true })
    const mail = await renderMail('order_refunded', mails[0]!.data as MailDataMap['order_refunded'], {
      db: api.db,
      config: api.config,
      to: 'guest-sb@example.com',
      now: new Date(),
    })
    expect(mail!.text).toContain('не засчитан, и мы возвращаем деньги')
    expect(mail!.text).toContain('1,00')
    expect(mail!.text).toContain('сумма или валюта не совпали')

    // the order can still be paid, by a new payment for the right amount
    const again = await payAs(sandboxMethod, orderId)
    const right = signedFields(api, await paymentOf(again.payment_id))
    expect((await checkoutPost(api, again.payment_id, 'confirm', right)).status).toBe(303)
    expect(await statusOf(orderId)).toMatchObject({ status: 'done', payment_status: 'succeeded' })
    expect(await refundsOf(orderId)).toHaveLength(1)
  })

  it('Payselection webhook: answered 200 ok, replays refund once, the gateway refunds what it took', async () => {
    const orderId = await createPubgOrder(api, productId)
    const { payment_id: paymentId } = await payAs(psMethod, orderId)
    const event = psPaid(paymentId, '5.00')
    for (let i = 0; i < 3; i++) {
      const r = await webhook(event)
      expect(r.status).toBe(200)
      expect(await r.json()).toEqual({ status: 'ok' })
    }
    // the gateway's status call reports the same transaction under another key: still one refund
    fake.states.set(paymentId, [
      { TransactionId: `PS-${paymentId}`, TransactionState: 'success', Amount: '5.00', Currency: 'RUB' },
    ])
    const asked = await api.call<Status>('POST', '/api/payments/payselection/status/', {
      body: { order_id: orderId },
    })
    expect(asked.status).toBe(200)
    expect(asked.body.returned_payments).toHaveLength(1)

    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')
    expect(await refundsOf(orderId)).toHaveLength(1)
    expect(await refundJobs(orderId)).toHaveLength(1)
    await runRefundJobs()
    const asks = fake.log.filter((l) => l.path === '/payments/refund' && l.body.includes(`PS-${paymentId}`))
    expect(asks).toHaveLength(1)
    expect(JSON.parse(asks[0]!.body)).toMatchObject({ Amount: '5.00', Currency: 'RUB' })
    expect((await statusOf(orderId)).returned_payments).toEqual([
      { amount: '5.00', currency: 'RUB', status: 'done', method: 'provider' },
    ])
  })

  it('another currency than the payment’s is refused too', async () => {
    const orderId = await createPubgOrder(api, productId)
    const { payment_id: paymentId } = await payAs(psMethod, orderId)
    const r = await webhook({ ...psPaid(paymentId, '99.00'), Currency: 'USD' })
    expect(r.status).toBe(200)
    expect((await paymentOf(paymentId)).status).toBe('refused')
    expect((await statusOf(orderId)).returned_payments).toEqual([
      { amount: '99.00', currency: 'USD', status: 'pending', method: 'provider' },
    ])
  })
})

describe('order no longer payable', () => {
  it('paid by another payment: the late one is refunded, the order stays paid by the first', async () => {
    const orderId = await createPubgOrder(api, productId)
    const first = await payAs(psMethod, orderId)
    const second = await payAs(psMethod, orderId)
    expect((await webhook(psPaid(second.payment_id, '99.00'))).status).toBe(200)
    expect((await statusOf(orderId)).status).toBe('done')

    // the shopper had paid the first page too
    expect((await webhook(psPaid(first.payment_id, '99.00'))).status).toBe(200)
    expect((await paymentOf(first.payment_id)).status).toBe('refused')
    expect((await paymentOf(second.payment_id)).status).toBe('succeeded')
    const s = await statusOf(orderId)
    expect(s).toMatchObject({ status: 'done', payment_id: second.payment_id, payment_status: 'succeeded' })
    expect(s.returned_payments).toEqual([
      { amount: '99.00', currency: 'RUB', status: 'pending', method: 'provider' },
    ])
    const [refused] = await timeline(orderId, 'payment_refused')
    expect(refused?.data).toMatchObject({ payment_id: first.payment_id, reason: 'order_already_paid' })
    expect((await refundsOf(orderId))[0]!.reason).toBe('Платёж не засчитан: заказ уже оплачен или закрыт')
  })

  it('expired: the order stays failed with its reason, the money goes back', async () => {
    const orderId = await createPubgOrder(api, productId)
    const { payment_id: paymentId } = await payAs(psMethod, orderId)
    await transitionOrder(api.db, orderId, 'failed', { rejectReason: 'Заказ не был оплачен вовремя' })
    expect((await webhook(psPaid(paymentId, '99.00'))).status).toBe(200)
    const order = await orderRow(api, orderId)
    expect([order.status, order.rejectReason, order.paidAt]).toEqual([
      'failed',
      'Заказ не был оплачен вовремя',
      null,
    ])
    const s = await statusOf(orderId)
    expect(s).toMatchObject({ status: 'failed', refund: null })
    expect(s.returned_payments).toEqual([
      { amount: '99.00', currency: 'RUB', status: 'pending', method: 'provider' },
    ])
  })
})

describe('a refused payment and the order’s own refund', () => {
  it('are two refunds of one order, each given back and mailed once', async () => {
    const { product } = await makePubgStock(api, { codes: 1, price: 9900 })
    const orderId = await createPubgOrder(api, product.id, { email: 'both@example.com' })
    const first = await paymentOf((await payAs(sandboxMethod, orderId)).payment_id)
    const cheap = signedFields(api, { ...first, amount: 500 })
    expect((await checkoutPost(api, first.id, 'confirm', cheap)).status).toBe(303)
    const second = await paymentOf((await payAs(sandboxMethod, orderId)).payment_id)
    // the codes held for the order are sold elsewhere before the money arrives: the order fails
    await api.db
      .update(voucherCodes)
      .set({ soldAt: new Date(), heldBy: null, heldUntil: null })
      .where(eq(voucherCodes.productId, product.id))
    expect((await checkoutPost(api, second.id, 'confirm', signedFields(api, second))).status).toBe(303)
    expect((await orderRow(api, orderId)).status).toBe('failed')
    expect((await refundsOf(orderId)).map((r) => [r.kind, r.amount, r.paymentId]).sort()).toEqual([
      ['order', 9900, second.id],
      ['payment', 500, first.id],
    ])
    expect(await refundJobs(orderId)).toHaveLength(2)
    await runRefundJobs()
    expect((await refundsOf(orderId)).map((r) => r.status)).toEqual(['done', 'done'])
    const mails = await refundMails(orderId)
    expect(mails.map((m) => [m.data?.amount, m.data?.refusedPayment ?? false]).sort()).toEqual([
      [500, true],
      [9900, false],
    ])
    const s = await statusOf(orderId)
    expect(s.refund).toMatchObject({ status: 'done', method: 'provider', amount: '99.00' })
    expect(s.returned_payments).toEqual([
      { amount: '5.00', currency: 'RUB', status: 'done', method: 'provider' },
    ])
  })
})

describe('repriced since the payment started', () => {
  it('the money for the old total is refused and given back; the order waits for the new total', async () => {
    const own = await makePubgStock(api, { codes: 3, price: 10000 })
    const orderId = await createPubgOrder(api, own.product.id)
    const p = await paymentOf((await payAs(sandboxMethod, orderId)).payment_id)
    await api.db.update(products).set({ price: 12000 }).where(eq(products.id, own.product.id))
    // reading the order recalculates it
    expect((await api.call<{ total: string }>('GET', `/api/orders/${orderId}/`)).body.total).toBe('120.00')
    expect((await checkoutPost(api, p.id, 'confirm', signedFields(api, p))).status).toBe(303)
    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({
        amount: 10000,
        reason: 'Платёж не засчитан: сумма заказа изменилась после начала оплаты',
      }),
    ])
    const [refused] = await timeline(orderId, 'payment_refused')
    expect(refused?.data).toMatchObject({ reason: 'order_total_changed' })
  })
})

describe('where the money goes', () => {
  async function balanceOf(userId: number) {
    return (await api.db.select({ b: users.balance }).from(users).where(eq(users.id, userId)))[0]!.b
  }

  it('signed in, provider that cannot refund (GetPay): the balance is credited once', async () => {
    const u = await makeUser(api)
    const orderId = await createPubgOrder(api, productId, { token: u.token })
    await payAs(gpMethod, orderId, u.token)
    for (let i = 0; i < 2; i++) {
      const r = await getpayNotice(orderId, '98.00')
      expect(r.status).toBe(200)
      expect(await r.text()).toBe('OK')
    }
    expect(await balanceOf(u.id)).toBe(9800)
    const entries = await api.db.select().from(balanceEntries).where(eq(balanceEntries.userId, u.id))
    expect(entries).toEqual([expect.objectContaining({ kind: 'refund', amount: 9800, orderId })])
    const [row] = await refundsOf(orderId)
    expect(row!.completedAt).toBeInstanceOf(Date)
    // the refund itself, asked again (a retry of the service, whatever the path): nothing new
    const payment = await paymentOf(row!.paymentId!)
    const again = await api.db.transaction((tx) =>
      refundRefusedPayment(tx, payment, { amount: 9800, currency: 'RUB' }, 'payment_amount_mismatch'),
    )
    expect(again).toBeNull()
    expect(await balanceOf(u.id)).toBe(9800)
    expect(await refundsOf(orderId)).toHaveLength(1)
    expect((await statusOf(orderId, u.token)).returned_payments).toEqual([
      { amount: '98.00', currency: 'RUB', status: 'done', method: 'balance' },
    ])
    expect(await refundJobs(orderId)).toHaveLength(0)
    const mails = await refundMails(orderId)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.data).toMatchObject({ destination: 'balance', amount: 9800 })
    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')
  })

  it('signed in, provider that can refund: back through the provider, the balance untouched', async () => {
    const u = await makeUser(api)
    const orderId = await createPubgOrder(api, productId, { token: u.token })
    const { payment_id: paymentId } = await payAs(psMethod, orderId, u.token)
    expect((await webhook(psPaid(paymentId, '2.00'))).status).toBe(200)
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({ method: 'provider', status: 'pending', toBalance: 0 }),
    ])
    expect(await balanceOf(u.id)).toBe(0)
    expect(await api.db.select().from(balanceEntries).where(eq(balanceEntries.userId, u.id))).toEqual([])
    // queued for the gateway; the mail waits for its answer
    expect(await refundJobs(orderId)).toHaveLength(1)
    expect(await refundMails(orderId)).toHaveLength(0)
  })

  it('two refused payments of one order to the balance: two credits, two mails', async () => {
    const u = await makeUser(api)
    const orderId = await createPubgOrder(api, productId, { token: u.token })
    await payAs(gpMethod, orderId, u.token)
    expect((await getpayNotice(orderId, '10.00')).status).toBe(200)
    await payAs(gpMethod, orderId, u.token)
    expect((await getpayNotice(orderId, '20.00', undefined, 'GP-second')).status).toBe(200)
    expect(await balanceOf(u.id)).toBe(3000)
    expect((await statusOf(orderId, u.token)).returned_payments).toEqual([
      { amount: '10.00', currency: 'RUB', status: 'done', method: 'balance' },
      { amount: '20.00', currency: 'RUB', status: 'done', method: 'balance' },
    ])
    expect((await refundMails(orderId)).map((m) => m.data?.amount)).toEqual([1000, 2000])
  })

  it('nothing taken (a zero sum): refused, nothing to give back', async () => {
    const u = await makeUser(api)
    const orderId = await createPubgOrder(api, productId, { token: u.token })
    const { payment_id: paymentId } = await payAs(gpMethod, orderId, u.token)
    expect((await getpayNotice(orderId, '0.00')).status).toBe(200)
    expect((await paymentOf(paymentId)).status).toBe('refused')
    expect(await refundsOf(orderId)).toEqual([])
    expect((await statusOf(orderId, u.token)).returned_payments).toBeUndefined()
    expect((await timeline(orderId, 'payment_refused')).map((e) => e.data.amount)).toEqual([0])
  })

  it('another currency cannot go to the balance: left to support when the gateway will not refund', async () => {
    const u = await makeUser(api)
    const orderId = await createPubgOrder(api, productId, { token: u.token })
    const { payment_id: paymentId } = await payAs(psMethod, orderId, u.token)
    // the gateway reports no successful transaction to refund: every attempt fails
    expect((await webhook({ ...psPaid(paymentId, '3.00'), Currency: 'EUR' })).status).toBe(200)
    const [refund] = await refundsOf(orderId)
    await api.db
      .update(jobs)
      .set({ runAt: new Date(), attempts: 9, maxAttempts: 10 })
      .where(eq(jobs.dedupeKey, `refund:payment:${paymentId}`))
    await runRefundJobs()
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({ id: refund!.id, status: 'manual', method: 'manual', currency: 'EUR' }),
    ])
    expect(await balanceOf(u.id)).toBe(0)
  })

  it('a guest through a provider that can refund: back through the provider, no balance', async () => {
    const orderId = await createPubgOrder(api, productId)
    const { payment_id: paymentId } = await payAs(psMethod, orderId)
    expect((await webhook(psPaid(paymentId, '1.00'))).status).toBe(200)
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({ method: 'provider', status: 'pending', toBalance: 0 }),
    ])
  })

  it('a guest through a provider that cannot refund: left to support, who records it once', async () => {
    const orderId = await createPubgOrder(api, productId, { email: 'guest-gp@example.com' })
    await payAs(gpMethod, orderId)
    expect((await getpayNotice(orderId, '1.00')).status).toBe(200)
    expect((await statusOf(orderId)).returned_payments).toEqual([
      { amount: '1.00', currency: 'RUB', status: 'manual', method: 'manual' },
    ])
    expect(await refundMails(orderId)).toHaveLength(0)
    const listed = await api.call<{ results: Array<{ id: string }> }>(
      'GET',
      '/api/admin/orders/?refund=manual',
      { token: owner.token },
    )
    expect(listed.body.results.map((o) => o.id)).toContain(orderId)

    // the owner gave the money back by hand and says so: once
    const refundPath = `/api/admin/orders/${orderId}/refund/`
    expect((await api.call('POST', refundPath, { token: owner.token, body: {} })).status).toBe(200)
    expect((await statusOf(orderId)).returned_payments).toEqual([
      { amount: '1.00', currency: 'RUB', status: 'done', method: 'manual' },
    ])
    expect(await refundMails(orderId)).toHaveLength(1)
    const again = await api.call<Err>('POST', refundPath, { token: owner.token, body: {} })
    expect([again.status, again.body.code]).toEqual([409, 'refund_nothing_paid'])
    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')
  })
})

describe('bad signatures are still refused before anything', () => {
  it('Payselection, GetPay and the sandbox: 403, no refund, no payment change', async () => {
    const orderId = await createPubgOrder(api, productId)
    const { payment_id: psId } = await payAs(psMethod, orderId)
    const forged = await webhook(psPaid(psId, '1.00'), 'f'.repeat(64))
    expect(forged.status).toBe(403)
    expect(((await forged.json()) as Err).code).toBe('payment_signature_invalid')
    expect((await paymentOf(psId)).status).toBe('pending')

    const gpOrder = await createPubgOrder(api, productId)
    await payAs(gpMethod, gpOrder)
    expect((await getpayNotice(gpOrder, '1.00', 'a'.repeat(64))).status).toBe(403)

    const sbOrder = await createPubgOrder(api, productId)
    const sb = await paymentOf((await payAs(sandboxMethod, sbOrder)).payment_id)
    const cheap = { ...signedFields(api, sb), amount: '100' }
    expect((await checkoutPost(api, sb.id, 'confirm', cheap)).status).toBe(403)
    expect((await paymentOf(sb.id)).status).toBe('pending')

    for (const id of [orderId, gpOrder, sbOrder]) {
      expect(await refundsOf(id)).toHaveLength(0)
      expect((await statusOf(id)).returned_payments).toBeUndefined()
    }
  })
})
