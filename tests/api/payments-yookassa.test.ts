// YooKassa (issue 32) against a local fake of its API: the methods made at start, cards and
// SberPay/T-Pay by redirect, SBP by QR, notifications that are never believed and only come from
// YooKassa's addresses, refusals explained, the re-query job, and refunds once whatever retries.
import { and, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import {
  jobs,
  orderEvents,
  orderProducts,
  paymentEvents,
  paymentMethodGroups,
  paymentMethods,
  payments,
  rateLimits,
  refunds,
  voucherCodes,
} from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { type MessageCode, message } from '#api/lib/errors'
import { idempotenceKeyFor, yookassaProvider } from '#api/providers/yookassa'
import { REQUERY_JOB } from '#api/services/payments/requery'
import { ensureYookassaMethods } from '#api/services/payments/yookassa-setup'
import { type FakeYookassa, startFakeYookassa, YK_SECRET, YK_SHOP } from '#tests/fakes/yookassa'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import type { makeUser } from './orders-fixtures'
import {
  createPubgOrder,
  type Err,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  pay,
  status,
} from './payments-fixtures'

let api: TestApi
let yk: FakeYookassa
let owner: Awaited<ReturnType<typeof makeUser>>
let productId: number
const deps = (): ApiDeps => api.deps
const worker = () => createJobWorker(deps(), { handlers: JOB_HANDLERS, onError: () => {} })

const REASONS = [
  '3d_secure_failed',
  'call_issuer',
  'canceled_by_merchant',
  'card_expired',
  'country_forbidden',
  'expired_on_capture',
  'expired_on_confirmation',
  'fraud_suspected',
  'general_decline',
  'identification_required',
  'insufficient_funds',
  'internal_timeout',
  'invalid_card_number',
  'invalid_csc',
  'issuer_unavailable',
  'payment_method_limit_exceeded',
  'payment_method_restricted',
  'permission_revoked',
  'unsupported_mobile_operator',
] as const

beforeAll(async () => {
  yk = await startFakeYookassa()
  // notifications come from the loopback in tests (the published ranges are the default)
  api = await createTestApi({ env: { ...yk.env, YOOKASSA_NOTIFY_FROM: '127.0.0.1/32, ::1' } })
  owner = await makeStaff(api, 'owner')
  productId = (await makePubgStock(api, { codes: 100 })).product.id
})
afterAll(async () => {
  await api?.close()
  await yk?.close()
})

/** What YooKassa's servers would post; `from` is the client address the shop sees. */
function notify(body: unknown, from = '127.0.0.1') {
  return api.app.request('/api/payments/yookassa/notify/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shop-client-ip': from },
    body: JSON.stringify(body),
  })
}

async function methodRow(name: string) {
  const [m] = await api.db.select().from(paymentMethods).where(eq(paymentMethods.name, name))
  return m!
}

async function switchOn(name: string, extra: Record<string, unknown> = {}) {
  const m = await methodRow(name)
  const r = await api.call('PATCH', `/api/admin/payments/methods/${m.id}/`, {
    token: owner.token,
    body: { is_active: true, ...extra },
  })
  expect(r.status).toBe(200)
}

async function deliveredCodes(orderId: string) {
  const lines = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId))
  return api.db.select().from(voucherCodes).where(eq(voucherCodes.orderProductId, lines[0]!.id))
}

async function start(method: string, orderId?: string) {
  const id = orderId ?? (await createPubgOrder(api, productId))
  const r = await pay(api, method, id, { email: 'buyer@example.com' })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  const remote = yk.paymentOf(r.body.payment_id)!
  expect(remote).toBeTruthy()
  return { orderId: id, answer: r.body, remote }
}

describe('YooKassa methods made at start', () => {
  it('creates the four methods once, switched off, in the roubles country; the owner turns them on', async () => {
    const made = await ensureYookassaMethods(api.db)
    expect(made).toEqual(['yookassa_card', 'yookassa_sbp', 'yookassa_sberpay', 'yookassa_tpay'])
    // a restart, or a second instance, adds nothing
    expect(await Promise.all([ensureYookassaMethods(api.db), ensureYookassaMethods(api.db)])).toEqual([
      [],
      [],
    ])
    const rows = await api.db
      .select({ m: paymentMethods, g: paymentMethodGroups })
      .from(paymentMethods)
      .innerJoin(paymentMethodGroups, eq(paymentMethodGroups.id, paymentMethods.groupId))
      .where(eq(paymentMethods.provider, 'yookassa'))
    expect(rows).toHaveLength(4)
    expect(rows.map((r) => ({ active: r.m.isActive, group: r.g.id }))).toEqual(
      rows.map(() => ({ active: false, group: rows[0]!.g.id })),
    )

    // off: the buyer cannot start it
    const orderId = await createPubgOrder(api, productId)
    const off = await pay(api, 'yookassa_card', orderId)
    expect(off.status).toBe(400)
    expect(off.body.code).toBe('payment_method_inactive')

    await switchOn('yookassa_card', { fee_bp: 300 })
    await switchOn('yookassa_sbp')
    await switchOn('yookassa_sberpay')
    await switchOn('yookassa_tpay')
    const active = await api.call<{ method_groups: { methods: { name: string; is_active: boolean }[] }[] }>(
      'GET',
      '/api/payments/countries/active/',
    )
    const listed = active.body.method_groups
      .flatMap((g) => g.methods)
      .filter((m) => m.name.startsWith('yookassa_'))
    expect(listed.map((m) => [m.name, m.is_active])).toEqual([
      ['yookassa_card', true],
      ['yookassa_sbp', true],
      ['yookassa_sberpay', true],
      ['yookassa_tpay', true],
    ])
  })
})

describe('switching a method on', () => {
  it('is refused, with the reason, when its provider has no keys', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect', {
      provider: 'getpay',
      scenario: null,
      isActive: false,
    })
    const r = await api.call<Err>('PATCH', `/api/admin/payments/methods/${method.id}/`, {
      token: owner.token,
      body: { is_active: true },
    })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('payment_provider_not_configured')
    expect(r.body.fields?.is_active?.[0]).toMatch(/не заданы ключи/)
    expect((await methodRow(method.name)).isActive).toBe(false)
  })
})

describe('YooKassa payments', () => {
  it('card: a redirect, then a succeeded notification pays and delivers the order', async () => {
    const { orderId, answer, remote } = await start('yookassa_card')
    // 99.00 + 3 %
    expect(answer).toMatchObject({
      type: 'redirect',
      url: remote.confirmation.confirmation_url,
      amount: '101.97',
    })
    const req = yk.log.find(
      (l) => l.method === 'POST' && l.path === '/payments' && l.body.includes(answer.payment_id),
    )!
    expect(JSON.parse(req.body)).toMatchObject({
      amount: { value: '101.97', currency: 'RUB' },
      capture: true,
      payment_method_data: { type: 'bank_card' },
      confirmation: { type: 'redirect', return_url: `${api.config.publicUrl}/orders/${orderId}/pay` },
      metadata: { order_id: orderId, payment_id: answer.payment_id },
    })
    expect(req.idempotenceKey).toBe(idempotenceKeyFor(`payment:${answer.payment_id}`))
    expect((await status(api, orderId)).body).toMatchObject({
      status: 'waiting_for_payment',
      payment_status: 'pending',
    })

    yk.succeed(remote.id)
    const r = await notify(yk.notification('payment.succeeded', remote))
    expect(r.status).toBe(200)
    expect((await status(api, orderId)).body).toMatchObject({ status: 'done', payment_status: 'succeeded' })
    expect(await deliveredCodes(orderId)).toHaveLength(1)
    // the shop asked YooKassa itself, with its keys
    expect(yk.log).toContainEqual(expect.objectContaining({ method: 'GET', path: `/payments/${remote.id}` }))
  })

  it('SberPay and T-Pay: a redirect with their own payment method type', async () => {
    for (const [name, type] of [
      ['yookassa_sberpay', 'sberbank'],
      ['yookassa_tpay', 'tinkoff_bank'],
    ] as const) {
      const { answer, remote } = await start(name)
      expect(answer.type).toBe('redirect')
      expect(remote.payment_method.type).toBe(type)
    }
  })

  it('SBP: invoice_qr with the QR data, then succeeded', async () => {
    const { orderId, answer, remote } = await start('yookassa_sbp')
    expect(answer).toMatchObject({
      type: 'invoice_qr',
      qr_str: remote.confirmation.confirmation_data,
      amount: '99.00',
    })
    expect(remote.payment_method.type).toBe('sbp')
    expect(remote.confirmation.type).toBe('qr')
    expect(Date.parse(String(answer.expires_at))).toBeGreaterThan(Date.now())
    const data = await api.call<Record<string, unknown>>('GET', `/api/orders/payment_data/${orderId}/`)
    expect(data.body).toMatchObject({ type: 'invoice_qr', qr_str: remote.confirmation.confirmation_data })
    expect(await notify(yk.notification('payment.succeeded', yk.succeed(remote.id)))).toHaveProperty(
      'status',
      200,
    )
    expect((await status(api, orderId)).body).toMatchObject({ status: 'done', payment_status: 'succeeded' })
  })

  it('canceled with each reason: the Russian text, and the order stays payable', async () => {
    const orderId = await createPubgOrder(api, productId)
    const texts = new Set<string>()
    for (const reason of REASONS) {
      const { remote } = await start('yookassa_card', orderId)
      yk.cancel(remote.id, reason)
      expect((await notify(yk.notification('payment.canceled', remote))).status).toBe(200)
      const s = (await status(api, orderId)).body
      expect(s).toMatchObject({
        status: 'waiting_for_payment',
        payment_status: 'failed',
        is_payment_active: true,
        payment_message: message(`payment_declined_${reason}` as MessageCode),
      })
      texts.add(s.payment_message!)
    }
    // every reason reads differently, and each offers another method
    expect(texts.size).toBe(REASONS.length)
    for (const t of texts) expect(t).toMatch(/выберите другой способ оплаты$/)
    expect(message('payment_declined_insufficient_funds')).toMatch(/недостаточно денег/)
    // an unknown reason reads as the general refusal
    const { remote } = await start('yookassa_card', orderId)
    yk.cancel(remote.id, 'something_new')
    await notify(yk.notification('payment.canceled', remote))
    expect((await status(api, orderId)).body.payment_message).toBe(message('payment_declined'))
    // and another payment still pays the order
    const again = await start('yookassa_sbp', orderId)
    await notify(yk.notification('payment.succeeded', yk.succeed(again.remote.id)))
    expect((await status(api, orderId)).body.status).toBe('done')
  })

  it('a notification saying succeeded while the API says pending pays nothing', async () => {
    const { orderId, answer, remote } = await start('yookassa_card')
    const forged = yk.notification('payment.succeeded', { ...remote, status: 'succeeded', paid: true })
    expect((await notify(forged)).status).toBe(200)
    expect((await status(api, orderId)).body).toMatchObject({
      status: 'waiting_for_payment',
      payment_status: 'pending',
    })
    const [p] = await api.db.select().from(payments).where(eq(payments.id, answer.payment_id))
    expect(p!.status).toBe('pending')
    // a payment YooKassa does not know is a 502 (asked again later), never a payment
    const unknown = await notify(yk.notification('payment.succeeded', { ...remote, id: 'nope-404' }))
    expect(unknown.status).toBe(502)
    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')
  })

  it('refuses notifications from outside YOOKASSA_NOTIFY_FROM, and unreadable ones', async () => {
    const { orderId, remote } = await start('yookassa_card')
    yk.succeed(remote.id)
    const body = yk.notification('payment.succeeded', remote)
    for (const from of ['10.0.0.7', '185.71.76.1', '']) {
      const r = await notify(body, from)
      expect(r.status).toBe(403)
      expect(((await r.json()) as Err).code).toBe('yookassa_notify_forbidden')
    }
    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')
    for (const bad of [
      {},
      { type: 'notification', event: 'payment.succeeded' },
      { type: 'x', event: 'e', object: { id: 'a' } },
    ]) {
      const r = await notify(bad)
      expect(r.status).toBe(400)
      expect(((await r.json()) as Err).code).toBe('yookassa_notice_invalid')
    }
    expect((await notify(body)).status).toBe(200)
    expect((await orderRow(api, orderId)).status).toBe('done')
  })

  it('the same notification ten times settles once', async () => {
    const { orderId, answer, remote } = await start('yookassa_card')
    const body = yk.notification('payment.succeeded', yk.succeed(remote.id))
    const answers = await Promise.all(Array.from({ length: 10 }, () => notify(body)))
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
    expect((await status(api, orderId)).body.status).toBe('done')
    expect(await deliveredCodes(orderId)).toHaveLength(1)
    const events = await api.db
      .select()
      .from(paymentEvents)
      .where(
        and(eq(paymentEvents.provider, 'yookassa'), eq(paymentEvents.eventKey, `${remote.id}:succeeded`)),
      )
    expect(events).toHaveLength(1)
    const paidEvents = await api.db
      .select()
      .from(orderEvents)
      .where(
        and(
          eq(orderEvents.orderId, orderId),
          eq(orderEvents.kind, 'status'),
          sql`${orderEvents.data}->>'to' = 'paid'`,
        ),
      )
    expect(paidEvents).toHaveLength(1)
    const [p] = await api.db.select().from(payments).where(eq(payments.id, answer.payment_id))
    expect(p!.status).toBe('succeeded')
  })

  it('no notification: the re-query job asks YooKassa and settles', async () => {
    const { orderId, answer, remote } = await start('yookassa_sbp')
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, REQUERY_JOB), sql`${jobs.payload}->>'paymentId' = ${answer.payment_id}`))
    expect(job).toBeTruthy()
    // still pending at YooKassa: asked again later
    await api.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, job!.id))
    expect(await worker().runDue({ only: [job!.id] })).toBe(1)
    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')
    yk.succeed(remote.id)
    await api.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, job!.id))
    expect(await worker().runDue({ only: [job!.id] })).toBe(1)
    expect((await status(api, orderId)).body).toMatchObject({ status: 'done', payment_status: 'succeeded' })
  })

  it('«Проверить оплату»: the check call asks YooKassa now and settles', async () => {
    const { orderId, remote } = await start('yookassa_sbp')
    const check = () => api.call<Record<string, unknown>>('POST', `/api/orders/status/${orderId}/check/`)
    expect((await check()).body).toMatchObject({ status: 'waiting_for_payment', payment_status: 'pending' })
    yk.succeed(remote.id)
    // the next question to YooKassa comes 5 s later (decision 112, tests/api/money-check-throttle.test.ts)
    await api.db
      .update(rateLimits)
      .set({ windowStart: sql`now() - interval '6 seconds'` })
      .where(sql`${rateLimits.key} like 'provider-check:%'`)
    expect((await check()).body).toMatchObject({ status: 'done', payment_status: 'succeeded' })
    const data = await api.call<Record<string, unknown>>('GET', `/api/orders/payment_data/${orderId}/`)
    expect(data.body.method_name).toBe('yookassa_sbp')
    expect((await api.call('POST', '/api/orders/status/not-a-uuid/check/')).status).toBe(400)
  })

  it('creating a payment again with the same payment gives YooKassa the same Idempotence-Key: one payment', async () => {
    const { orderId, answer, remote } = await start('yookassa_card')
    const [row] = await api.db.select().from(payments).where(eq(payments.id, answer.payment_id))
    const method = await methodRow('yookassa_card')
    const before = yk.payments.size
    // as a retry after a timeout would
    const again = await yookassaProvider.createPayment(
      {
        order: await orderRow(api, orderId),
        method,
        payment: row!,
        amount: row!.amount,
        currency: 'RUB',
        customer: { email: null, phone: null },
      },
      deps(),
    )
    expect(again.externalId).toBe(remote.id)
    expect(yk.payments.size).toBe(before)
    const keys = yk.log.filter(
      (l) => l.method === 'POST' && l.path === '/payments' && l.body.includes(answer.payment_id),
    )
    expect(keys).toHaveLength(2)
    expect(new Set(keys.map((k) => k.idempotenceKey)).size).toBe(1)
  })

  it('the API refuses wrong keys (the adapter sends Basic auth)', async () => {
    const r = await fetch(`${yk.url}/payments/x`, {
      headers: { authorization: `Basic ${Buffer.from(`${YK_SHOP}:wrong`).toString('base64')}` },
    })
    expect(r.status).toBe(401)
    const ok = await fetch(`${yk.url}/payments/x`, {
      headers: { authorization: `Basic ${Buffer.from(`${YK_SHOP}:${YK_SECRET}`).toString('base64')}` },
    })
    expect(ok.status).toBe(404)
  })
})

describe('YooKassa refunds', () => {
  async function runRefundJobs() {
    const due = await api.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, 'refund.provider'), inArray(jobs.status, ['pending', 'running'])))
    return due.length ? worker().runDue({ only: due.map((d) => d.id) }) : 0
  }

  /** A paid order whose codes were sold meanwhile: it fails and its refund opens. */
  async function failedPaidOrder() {
    const { product } = await makePubgStock(api, { codes: 1, price: 9900 })
    const { orderId, answer, remote } = await start('yookassa_card', await createPubgOrder(api, product.id))
    await api.db
      .update(voucherCodes)
      .set({ soldAt: new Date(), heldBy: null, heldUntil: null })
      .where(eq(voucherCodes.productId, product.id))
    await notify(yk.notification('payment.succeeded', yk.succeed(remote.id)))
    expect((await orderRow(api, orderId)).status).toBe('failed')
    return { orderId, answer, remote }
  }

  it('refunds what was charged, fee included, once after a retried job, with the refund id on the timeline', async () => {
    const { orderId, remote } = await failedPaidOrder()
    await runRefundJobs()
    const sent = [...yk.refunds.values()].filter((r) => r.payment_id === remote.id)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.amount).toEqual({ value: '101.97', currency: 'RUB' })
    const [row] = await api.db.select().from(refunds).where(eq(refunds.orderId, orderId))
    expect(row).toMatchObject({ status: 'done', method: 'provider', externalId: sent[0]!.id, amount: 10197 })

    // the worker died after YooKassa answered and before our commit (nothing of its answer kept):
    // the retry is the same request
    await api.db
      .update(refunds)
      .set({ status: 'pending', externalId: null })
      .where(eq(refunds.orderId, orderId))
    await api.db
      .update(jobs)
      .set({ status: 'pending', runAt: new Date() })
      .where(eq(jobs.dedupeKey, `refund:${orderId}`))
    await runRefundJobs()
    expect([...yk.refunds.values()].filter((r) => r.payment_id === remote.id)).toHaveLength(1)
    const posts = yk.log.filter(
      (l) => l.method === 'POST' && l.path === '/refunds' && l.body.includes(remote.id),
    )
    expect(posts).toHaveLength(2)
    expect(new Set(posts.map((p) => p.idempotenceKey))).toEqual(
      new Set([idempotenceKeyFor(`refund:${orderId}`)]),
    )
    const timeline = await api.db
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, orderId), eq(orderEvents.kind, 'refund')))
    expect(timeline.some((e) => (e.data as { externalId?: string }).externalId === sent[0]!.id)).toBe(true)
    expect((await status(api, orderId)).body).toMatchObject({ status: 'failed' })
  })

  it('a refund YooKassa is still processing completes on its refund.succeeded notification', async () => {
    const { orderId, remote } = await failedPaidOrder()
    yk.refundStatus = 'pending'
    try {
      await runRefundJobs()
    } finally {
      yk.refundStatus = 'succeeded'
    }
    const [pending] = await api.db.select().from(refunds).where(eq(refunds.orderId, orderId))
    expect(pending).toMatchObject({ status: 'pending', method: 'provider' })
    const ykRefund = [...yk.refunds.values()].find((r) => r.payment_id === remote.id)!
    // the body says succeeded, YooKassa says pending: nothing
    await notify(yk.notification('refund.succeeded', { ...ykRefund, status: 'succeeded' }))
    expect((await api.db.select().from(refunds).where(eq(refunds.orderId, orderId)))[0]!.status).toBe(
      'pending',
    )
    ykRefund.status = 'succeeded'
    expect((await notify(yk.notification('refund.succeeded', ykRefund))).status).toBe(200)
    expect((await api.db.select().from(refunds).where(eq(refunds.orderId, orderId)))[0]).toMatchObject({
      status: 'done',
      externalId: ykRefund.id,
    })
  })
})
