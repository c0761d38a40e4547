// Refunds (issue 12): a paid order that cannot be delivered is refunded once, whatever retries:
// back through the provider that can refund (the sandbox; Payselection against a local fake),
// else to a signed-in buyer's balance, else it waits for support (back-office: owner only,
// audited, refuses twice). The order stays `failed` and its answers carry `refund`.
import { createHash, createHmac, randomUUID } from 'node:crypto'
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import {
  auditLog,
  balanceEntries,
  giftCodes,
  gifts,
  jobs,
  payments,
  refunds,
  users,
  voucherCodes,
} from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { reverseGiftCashback } from '#api/services/balance/cashback'
import { postBalanceEntry } from '#api/services/balance/ledger'
import { transitionOrder } from '#api/services/orders/state-machine'
import { markOrderPaid } from '#api/services/payments/settle'
import { openRefund } from '#api/services/refunds/open'
import { type FakePayselection, PS_SECRET, PS_SITE, startFakePayselection } from '#tests/fakes/payselection'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'
import {
  checkoutPost,
  createPubgOrder,
  formFields,
  type Err,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  type PayAnswer,
  pressOnCheckout,
  type StatusAnswer,
} from './payments-fixtures'

const WALLET = 'W-77'
const GP_SECRET = 'gp-refund-secret'

let api: TestApi
let deps: ApiDeps
let ps: FakePayselection
let sandboxMethod: string
let psMethod: string
let gpMethod: string
let owner: Awaited<ReturnType<typeof makeUser>>
let support: Awaited<ReturnType<typeof makeUser>>

beforeAll(async () => {
  ps = await startFakePayselection()
  api = await createTestApi({
    env: {
      ...ps.env,
      GETPAY_WALLET_ID: WALLET,
      GETPAY_SECRET: GP_SECRET,
      GETPAY_PAY_URL: 'https://getpay.test/pay',
    },
  })
  deps = api.deps
  sandboxMethod = (await makeSandboxMethod(api, 'redirect')).method.name
  psMethod = (await makeSandboxMethod(api, 'redirect', { provider: 'payselection', scenario: null })).method
    .name
  gpMethod = (await makeSandboxMethod(api, 'redirect', { provider: 'getpay', scenario: null })).method.name
  owner = await makeStaff(api, 'owner')
  support = await makeStaff(api, 'support')
})
afterAll(async () => {
  await api?.close()
  await ps.close()
})

const payAs = (method: string, orderId: string, token?: string) =>
  api.call<PayAnswer & Err>('POST', `/api/payments/${method}/`, {
    body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
    token,
  })

/** An order whose codes, held when its payment started, are taken before the money arrives. */
async function orderLosingItsStock(method: string, opts: { token?: string; balance?: boolean } = {}) {
  const { product } = await makePubgStock(api, { codes: 1, price: 9900 })
  const orderId = await createPubgOrder(api, product.id, { token: opts.token })
  const p = await payAs(method, orderId, opts.token)
  expect(p.status).toBe(200)
  // stock gone despite the hold (sold by hand in the back-office, say)
  await api.db
    .update(voucherCodes)
    .set({ soldAt: new Date(), heldBy: null, heldUntil: null })
    .where(eq(voucherCodes.productId, product.id))
  return { orderId, payment: p.body }
}

async function refundsOf(orderId: string) {
  return api.db.select().from(refunds).where(eq(refunds.orderId, orderId))
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

async function mailsOf(orderId: string, template: string) {
  const rows = await api.db.select().from(jobs).where(eq(jobs.kind, 'mail.send'))
  return rows.filter(
    (j) =>
      (j.payload as { template?: string; data?: { orderId?: string } }).template === template &&
      (j.payload as { data?: { orderId?: string } }).data?.orderId === orderId,
  )
}

const statusOf = (orderId: string, token?: string) =>
  api.call<StatusAnswer & { refund?: Record<string, unknown> | null }>(
    'GET',
    `/api/orders/status/${orderId}/`,
    {
      token,
    },
  )

describe('refund through the sandbox provider', () => {
  it('refunds a paid order whose stock is gone once, whatever is replayed', async () => {
    const { orderId, payment } = await orderLosingItsStock(sandboxMethod)
    const page = await api.app.request(`/api/payments/sandbox/checkout/${payment.payment_id}/`)
    const fields = formFields(await page.text(), 'confirm')
    expect((await checkoutPost(api, payment.payment_id, 'confirm', fields)).status).toBe(303)
    const order = await orderRow(api, orderId)
    expect(order.status).toBe('failed')
    expect(order.rejectReason).toMatch(/закончились/)

    const before = await statusOf(orderId)
    expect(before.body.status).toBe('failed')
    expect(before.body.refund).toMatchObject({ status: 'pending', method: 'provider', amount: '99.00' })

    // replays: the callback again, a second move to failed, a second opening: nothing new
    expect((await checkoutPost(api, payment.payment_id, 'confirm', fields)).status).toBe(303)
    await expect(transitionOrder(api.db, orderId, 'failed', { rejectReason: 'again' })).rejects.toThrow()
    expect(await api.db.transaction((tx) => openRefund(tx, orderId, 'again'))).toBeNull()

    // two workers run the job side by side
    await Promise.all([runRefundJobs(), runRefundJobs()])
    const rows = await refundsOf(orderId)
    expect(rows).toEqual([
      expect.objectContaining({
        status: 'done',
        method: 'provider',
        amount: 9900,
        externalId: `sandbox-refund-${payment.payment_id}`,
      }),
    ])
    const after = await statusOf(orderId)
    expect(after.body).toMatchObject({
      status: 'failed',
      refund: {
        status: 'done',
        method: 'provider',
        amount: '99.00',
        to_balance: '0.00',
        reason: order.rejectReason,
      },
    })
    const full = await api.call<{ refund?: unknown }>('GET', `/api/orders/${orderId}/`)
    expect(full.body.refund).toMatchObject({ status: 'done', method: 'provider' })
    expect(await mailsOf(orderId, 'order_refunded')).toHaveLength(1)
    expect(await mailsOf(orderId, 'order_failed')).toHaveLength(1)
    expect(
      await api.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `refund:${orderId}`)),
    ).toHaveLength(1)
  })

  it('an unpaid order that fails (cancelled, expired) is not refunded', async () => {
    const { product } = await makePubgStock(api, { codes: 1 })
    const orderId = await createPubgOrder(api, product.id)
    await transitionOrder(api.db, orderId, 'failed', { rejectReason: 'Отменён' })
    expect(await refundsOf(orderId)).toEqual([])
    expect((await statusOf(orderId)).body.refund ?? null).toBeNull()
  })
})

function gpSign(fields: Record<string, string>) {
  const order = ['WALLET_ID', 'WALLET_TYPE', 'SUM', 'ORDER_ID', 'P_TYPE', 'P_WALLET', 'PAYMENT_ID']
  return createHash('sha256')
    .update([...order.map((k) => fields[k]), GP_SECRET].join(':'))
    .digest('hex')
}

async function getpayPaid(orderId: string, amount: string) {
  const fields = {
    WALLET_ID: WALLET,
    WALLET_TYPE: 'card',
    SUM: amount,
    ORDER_ID: orderId,
    P_TYPE: 'visa',
    P_WALLET: '4111****1111',
    PAYMENT_ID: `GP-${orderId}`,
  }
  const res = await api.app.request('/api/payments/getpay/notify/', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...fields, SIGN: gpSign(fields) }).toString(),
  })
  expect(res.status).toBe(200)
}

async function balanceOf(userId: number) {
  return (await api.db.select({ b: users.balance }).from(users).where(eq(users.id, userId)))[0]!.b
}

describe('a provider that cannot refund (GetPay)', () => {
  it('credits a signed-in buyer’s balance at once: what was paid and the balance spent', async () => {
    const u = await makeUser(api, { balance: 1000 })
    const { orderId, payment } = await orderLosingItsStock(gpMethod, { token: u.token })
    expect(payment.amount).toBe('89.00')
    await getpayPaid(orderId, payment.amount)
    await getpayPaid(orderId, payment.amount) // replayed notify
    expect((await orderRow(api, orderId)).status).toBe('failed')
    expect(await balanceOf(u.id)).toBe(9900)
    const entries = await api.db.select().from(balanceEntries).where(eq(balanceEntries.userId, u.id))
    expect(entries.map((e) => [e.kind, e.amount]).sort()).toEqual([
      ['correction', 1000],
      ['refund', 9900],
      ['spend', -1000],
    ])
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({ method: 'balance', status: 'done', amount: 9900, toBalance: 9900 }),
    ])
    const s = await statusOf(orderId, u.token)
    expect(s.body.refund).toMatchObject({
      status: 'done',
      method: 'balance',
      amount: '99.00',
      to_balance: '99.00',
    })
    const mails = await mailsOf(orderId, 'order_refunded')
    expect(mails).toHaveLength(1)
    expect((mails[0]!.payload as { data: Record<string, unknown> }).data).toMatchObject({
      destination: 'balance',
      amount: 9900,
    })
  })

  it('a guest’s refund waits for support: owner only, audited, refused twice', async () => {
    const { orderId, payment } = await orderLosingItsStock(gpMethod)
    await getpayPaid(orderId, payment.amount)
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({ method: 'manual', status: 'manual' }),
    ])
    expect((await statusOf(orderId)).body.refund).toMatchObject({ status: 'manual', method: 'manual' })
    expect(await mailsOf(orderId, 'order_refunded')).toHaveLength(0)

    // the back-office finds it
    const list = await api.call<{ results: Array<{ id: string; refund_status: string | null }> }>(
      'GET',
      '/api/admin/orders/?refund=manual',
      { token: owner.token },
    )
    expect(list.status).toBe(200)
    expect(list.body.results.map((r) => r.id)).toContain(orderId)
    expect(list.body.results.every((r) => r.refund_status === 'manual')).toBe(true)

    const url = `/api/admin/orders/${orderId}/refund/`
    const bySupport = await api.call<Err>('POST', url, { token: support.token, body: {} })
    expect(bySupport.status).toBe(403)
    const done = await api.call<{ refund: Record<string, unknown> }>('POST', url, {
      token: owner.token,
      body: {},
    })
    expect(done.status).toBe(200)
    expect(done.body.refund).toMatchObject({ status: 'done', method: 'manual' })
    const again = await api.call<Err>('POST', url, { token: owner.token, body: {} })
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('refund_exists')
    expect(again.body.detail).toMatch(/уже оформлен/)
    const audits = await api.db.select().from(auditLog).where(eq(auditLog.entityId, orderId))
    expect(audits).toEqual([expect.objectContaining({ action: 'order.refund', actorEmail: owner.email })])
    expect(await mailsOf(orderId, 'order_refunded')).toHaveLength(1)
  })
})

describe('back-office refund', () => {
  it('refunds a paid order not yet delivered: failed with the reason, refunded once', async () => {
    const { product } = await makePubgStock(api, { codes: 2 })
    const orderId = await createPubgOrder(api, product.id)
    const p = await payAs(sandboxMethod, orderId)
    // paid, and (the supplier being slow) not delivered yet
    await api.db.transaction(async (tx) => {
      await markOrderPaid(tx, orderId)
      await tx.update(payments).set({ status: 'succeeded' }).where(eq(payments.id, p.body.payment_id))
    })
    const url = `/api/admin/orders/${orderId}/refund/`
    const r = await api.call<{ refund: Record<string, unknown> }>('POST', url, {
      token: owner.token,
      body: { reason: 'Покупатель передумал' },
    })
    expect(r.status).toBe(200)
    expect(r.body.refund).toMatchObject({
      status: 'pending',
      method: 'provider',
      reason: 'Покупатель передумал',
    })
    const order = await orderRow(api, orderId)
    expect(order).toMatchObject({ status: 'failed', rejectReason: 'Покупатель передумал' })
    expect((await api.call<Err>('POST', url, { token: owner.token, body: {} })).status).toBe(409)
    expect(p.status).toBe(200)
  })

  it('refunds a done order once (owner only, with a reason); its codes are never sold again', async () => {
    const { product } = await makePubgStock(api, { codes: 3 })
    const buyer = await makeUser(api)
    const orderId = await createPubgOrder(api, product.id, { quantity: 2, token: buyer.token })
    const p = await payAs(sandboxMethod, orderId, buyer.token)
    await pressOnCheckout(api, p.body.payment_id, 'confirm')
    expect((await orderRow(api, orderId)).status).toBe('done')
    const url = `/api/admin/orders/${orderId}/refund/`
    const reason = 'Код не сработал у игрока'

    const bySupport = await api.call<Err>('POST', url, { token: support.token, body: { reason } })
    expect(bySupport.status).toBe(403)
    const byShopper = await api.call<Err>('POST', url, { token: buyer.token, body: { reason } })
    expect(byShopper.status).toBe(404)
    expect(await refundsOf(orderId)).toHaveLength(0)

    const r = await api.call<{ order: { status: string }; refund: Record<string, unknown> }>('POST', url, {
      token: owner.token,
      body: { reason },
    })
    expect(r.status).toBe(200)
    // the order stays done; the money goes back by today's route (the sandbox provider refunds)
    expect(r.body.order.status).toBe('done')
    expect(r.body.refund).toMatchObject({ method: 'provider', reason })
    await runRefundJobs()
    expect(await refundsOf(orderId)).toEqual([expect.objectContaining({ status: 'done', reason })])
    const mails = await mailsOf(orderId, 'order_refunded')
    expect(mails).toHaveLength(1)
    expect((mails[0]!.payload as { to: string }).to).toBe(buyer.email)
    expect((await statusOf(orderId, buyer.token)).body).toMatchObject({
      status: 'done',
      refund: expect.objectContaining({ status: 'done' }),
    })

    // the two codes it sold are marked refunded and stay out of stock
    const codes = await api.db.select().from(voucherCodes).where(eq(voucherCodes.productId, product.id))
    const sold = codes.filter((c) => c.soldAt !== null)
    expect(sold).toHaveLength(2)
    expect(sold.every((c) => c.refundedAt !== null)).toBe(true)
    expect(codes.filter((c) => c.refundedAt === null)).toHaveLength(1)
    // the next buyers get the one free code, then nothing
    const next = await createPubgOrder(api, product.id)
    const p2 = await payAs(sandboxMethod, next)
    await pressOnCheckout(api, p2.body.payment_id, 'confirm')
    expect((await orderRow(api, next)).status).toBe('done')
    const after = await api.db.select().from(voucherCodes).where(eq(voucherCodes.productId, product.id))
    expect(
      after
        .filter((c) => c.refundedAt !== null)
        .map((c) => c.id)
        .sort(),
    ).toEqual(sold.map((c) => c.id).sort())
    const third = await api.call<Err>('POST', '/api/orders/pubg/', {
      body: { products: [{ product_id: product.id, quantity: 1 }], email: 'late@example.com' },
    })
    expect(third.status).not.toBe(201)

    // once: a second refund is refused and nothing more moves
    const again = await api.call<Err>('POST', url, { token: owner.token, body: { reason } })
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('refund_exists')
    expect(await refundsOf(orderId)).toHaveLength(1)
    expect(await mailsOf(orderId, 'order_refunded')).toHaveLength(1)
    const audits = await api.db.select().from(auditLog).where(eq(auditLog.entityId, orderId))
    expect(audits.filter((a) => a.action === 'order.refund')).toEqual([
      expect.objectContaining({ actorEmail: owner.email }),
    ])
  })

  it('a done gift order refunded by the owner takes its cashback back, never below a zero balance', async () => {
    const [gift] = await api.db
      .insert(gifts)
      .values({
        title: `Карта ${randomUUID().slice(0, 6)}`,
        type: 'Карта',
        region: 'Россия',
        price: 50_000,
        cashback: 4,
      })
      .returning({ id: gifts.id })
    await api.db.insert(giftCodes).values(
      [0, 1, 2].map((i) => ({
        giftId: gift!.id,
        code: `CBR-${gift!.id}-${i}-${randomUUID().slice(0, 6)}`,
      })),
    )
    const balanceOf = async (id: number) =>
      (await api.db.select({ b: users.balance }).from(users).where(eq(users.id, id)))[0]!.b
    const ledgerOf = (id: number) => api.db.select().from(balanceEntries).where(eq(balanceEntries.userId, id))
    const sumOf = async (id: number) => (await ledgerOf(id)).reduce((a, e) => a + e.amount, 0)
    /** A signed-in buyer's gift, paid by card and delivered: 4 % of 500.00 = 20.00 cashback. */
    const doneGift = async () => {
      const buyer = await makeUser(api)
      const o = await api.call<{ id: string } & Err>('POST', '/api/orders/rokky/', {
        body: { gift: gift!.id },
        token: buyer.token,
      })
      expect(o.status, o.body.detail).toBe(201)
      const p = await payAs(sandboxMethod, o.body.id, buyer.token)
      await pressOnCheckout(api, p.body.payment_id, 'confirm')
      expect((await orderRow(api, o.body.id)).status).toBe('done')
      expect(await balanceOf(buyer.id)).toBe(2000)
      return { buyer, orderId: o.body.id }
    }
    const refund = (orderId: string) =>
      api.call<Err>('POST', `/api/admin/orders/${orderId}/refund/`, {
        token: owner.token,
        body: { reason: 'Код не подошёл' },
      })
    const auditAfter = async (orderId: string) =>
      (await api.db.select().from(auditLog).where(eq(auditLog.entityId, orderId))).find(
        (a) => a.action === 'order.refund',
      )?.after

    // the cashback is still on the balance: all of it goes back, once
    const kept = await doneGift()
    expect((await refund(kept.orderId)).status).toBe(200)
    expect(await balanceOf(kept.buyer.id)).toBe(0)
    expect((await ledgerOf(kept.buyer.id)).filter((e) => e.kind === 'correction')).toEqual([
      expect.objectContaining({
        amount: -2000,
        cause: `cashback_reversal:${kept.orderId}`,
        orderId: kept.orderId,
      }),
    ])
    expect(await auditAfter(kept.orderId)).toMatchObject({
      cashback: 2000,
      cashback_taken_back: 2000,
      cashback_written_off: 0,
    })
    expect((await refund(kept.orderId)).status).toBe(409)
    expect(await balanceOf(kept.buyer.id)).toBe(0)
    expect(await sumOf(kept.buyer.id)).toBe(0)
    // taking it back again (a replay), with money on the balance, moves nothing
    await api.db.transaction((tx) =>
      postBalanceEntry(tx, { userId: kept.buyer.id, kind: 'correction', amount: 3000, cause: randomUUID() }),
    )
    expect(await api.db.transaction((tx) => reverseGiftCashback(tx, kept.orderId))).toBeNull()
    expect(await balanceOf(kept.buyer.id)).toBe(3000)

    // the buyer spent 15.00 of it already: the 5.00 left is taken, the balance stays at zero and
    // the 15.00 spent is written off, on the refund's audit entry
    const spent = await doneGift()
    await api.db.transaction((tx) =>
      postBalanceEntry(tx, { userId: spent.buyer.id, kind: 'spend', amount: 1500, cause: randomUUID() }),
    )
    expect((await refund(spent.orderId)).status).toBe(200)
    expect(await balanceOf(spent.buyer.id)).toBe(0)
    expect(await sumOf(spent.buyer.id)).toBe(0)
    expect((await ledgerOf(spent.buyer.id)).filter((e) => e.kind === 'correction')).toEqual([
      expect.objectContaining({ amount: -500, cause: `cashback_reversal:${spent.orderId}` }),
    ])
    expect(await auditAfter(spent.orderId)).toMatchObject({
      cashback: 2000,
      cashback_taken_back: 500,
      cashback_written_off: 1500,
    })

    // all of it spent: nothing is taken (no entry), all of it written off
    const gone = await doneGift()
    await api.db.transaction((tx) =>
      postBalanceEntry(tx, { userId: gone.buyer.id, kind: 'spend', amount: 2000, cause: randomUUID() }),
    )
    expect((await refund(gone.orderId)).status).toBe(200)
    expect(await balanceOf(gone.buyer.id)).toBe(0)
    expect((await ledgerOf(gone.buyer.id)).filter((e) => e.kind === 'correction')).toEqual([])
    expect(await auditAfter(gone.orderId)).toMatchObject({
      cashback_taken_back: 0,
      cashback_written_off: 2000,
    })
  })

  it('refuses unpaid orders, a done one without a reason, a bad reason, and unknown ones', async () => {
    const { product } = await makePubgStock(api, { codes: 2 })
    const unpaid = await createPubgOrder(api, product.id)
    const r1 = await api.call<Err>('POST', `/api/admin/orders/${unpaid}/refund/`, {
      token: owner.token,
      body: {},
    })
    expect(r1.status).toBe(409)
    expect(r1.body.code).toBe('refund_nothing_paid')
    const done = await createPubgOrder(api, product.id)
    const p = await payAs(sandboxMethod, done)
    await pressOnCheckout(api, p.body.payment_id, 'confirm')
    expect((await orderRow(api, done)).status).toBe('done')
    const r2 = await api.call<Err>('POST', `/api/admin/orders/${done}/refund/`, {
      token: owner.token,
      body: {},
    })
    // a done order needs a reason the buyer will read
    expect(r2.status).toBe(400)
    expect(r2.body.code).toBe('refund_done_reason_required')
    expect(r2.body.detail).toMatch(/причину/)
    const r3 = await api.call<Err>('POST', `/api/admin/orders/${done}/refund/`, {
      token: owner.token,
      body: { reason: 'x'.repeat(501) },
    })
    expect(r3.status).toBe(400)
    const r4 = await api.call<Err>('POST', `/api/admin/orders/${crypto.randomUUID()}/refund/`, {
      token: owner.token,
      body: {},
    })
    expect(r4.status).toBe(404)
  })
})

function webhook(body: unknown) {
  const raw = JSON.stringify(body)
  return api.app.request('/api/payments/payselection/webhook/', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-site-id': PS_SITE,
      'x-webhook-signature': createHmac('sha256', PS_SECRET).update(raw).digest('hex'),
    },
    body: raw,
  })
}

async function payselectionPaid(paymentId: string, amount: string) {
  const tx = `T-${paymentId.slice(0, 8)}`
  ps.states.set(paymentId, [{ TransactionId: tx, TransactionState: 'success', Amount: '0' }])
  const res = await webhook({
    Event: 'Payment',
    TransactionId: tx,
    OrderId: paymentId,
    Amount: amount,
    Currency: 'RUB',
  })
  expect(res.status).toBe(200)
  return tx
}

describe('refund through Payselection (local fake)', () => {
  it('refunds the successful transaction with a signed request, once per refund even when retried', async () => {
    const { orderId, payment } = await orderLosingItsStock(psMethod)
    const tx = await payselectionPaid(payment.payment_id, payment.amount)
    expect((await orderRow(api, orderId)).status).toBe('failed')
    await runRefundJobs()
    const [row] = await refundsOf(orderId)
    expect(row).toMatchObject({ status: 'done', method: 'provider' })
    const sent = ps.refundsOf(tx)
    expect(sent).toHaveLength(1)
    expect(JSON.parse(sent[0]!.body)).toMatchObject({
      TransactionId: tx,
      Amount: payment.amount,
      Currency: 'RUB',
    })
    expect(row!.externalId).toMatch(/^R-/)

    // the worker died after the gateway answered and before the commit (nothing of its answer
    // kept): the retry is the same request
    await api.db
      .update(refunds)
      .set({ status: 'pending', externalId: null })
      .where(eq(refunds.orderId, orderId))
    await api.db
      .update(jobs)
      .set({ status: 'pending', runAt: new Date() })
      .where(eq(jobs.dedupeKey, `refund:${orderId}`))
    await runRefundJobs()
    // asked twice, as one refund: the retry repeats the first request's X-REQUEST-ID
    const again = ps.refundsOf(tx)
    expect(again.map((r) => r.headers['x-request-id'])).toEqual([
      sent[0]!.headers['x-request-id'],
      sent[0]!.headers['x-request-id'],
    ])
    expect(await mailsOf(orderId, 'order_refunded')).toHaveLength(1)
  })

  it('a refund the gateway keeps failing stays with the gateway past every attempt (outcome unknown): never the balance (decision 110)', async () => {
    const u = await makeUser(api)
    const { orderId, payment } = await orderLosingItsStock(psMethod, { token: u.token })
    ps.declineRefunds = true
    try {
      await payselectionPaid(payment.payment_id, payment.amount)
      await runRefundJobs()
      const [pending] = await refundsOf(orderId)
      expect(pending).toMatchObject({ status: 'pending', method: 'provider' })
      expect(pending!.lastError).toMatch(/400/)
      // the last attempt
      await api.db
        .update(jobs)
        .set({ runAt: new Date(), attempts: 9, maxAttempts: 10 })
        .where(eq(jobs.dedupeKey, `refund:${orderId}`))
      await runRefundJobs()
    } finally {
      ps.declineRefunds = false
    }
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({ status: 'pending', method: 'provider', toBalance: 0 }),
    ])
    expect(await balanceOf(u.id)).toBe(0)
    // asked again within the hour, with the same request key, until the gateway answers
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `refund:${orderId}`))
    expect(job).toMatchObject({ status: 'pending' })
    await api.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, job!.id))
    await runRefundJobs()
    expect(await refundsOf(orderId)).toEqual([
      expect.objectContaining({ status: 'done', method: 'provider' }),
    ])
    expect(await balanceOf(u.id)).toBe(0)
  })
})
