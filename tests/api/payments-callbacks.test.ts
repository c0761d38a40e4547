import { createHash, createHmac } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderProducts, paymentEvents, payments, voucherCodes } from '#api/db/schema'
import { type FakePayselection, PS_SECRET, PS_SITE, startFakePayselection } from '#tests/fakes/payselection'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import {
  createPubgOrder,
  type Err,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  pay,
  status,
} from './payments-fixtures'

const SITE = PS_SITE
const SECRET = PS_SECRET
const WALLET = 'W-1001'
const GP_SECRET = 'getpay-secret'

let api: TestApi
let fake: FakePayselection
let log: FakePayselection['log']
let states: FakePayselection['states']
let productId: number
let psMethod: string
let gpMethod: string

beforeAll(async () => {
  fake = await startFakePayselection()
  ;({ log, states } = fake)
  api = await createTestApi({
    env: {
      ...fake.env,
      GETPAY_WALLET_ID: WALLET,
      GETPAY_SECRET: GP_SECRET,
      GETPAY_PAY_URL: 'https://getpay.test/pay',
    },
  })
  productId = (await makePubgStock(api, { codes: 50 })).product.id
  psMethod = (
    await makeSandboxMethod(api, 'redirect', { provider: 'payselection', scenario: null, fee: 200 })
  ).method.name
  gpMethod = (await makeSandboxMethod(api, 'redirect', { provider: 'getpay', scenario: null })).method.name
})
afterAll(async () => {
  await api.close()
  await fake.close()
})

async function startPs() {
  const orderId = await createPubgOrder(api, productId)
  const r = await pay(api, psMethod, orderId, { email: 'buyer@example.com' })
  expect(r.status).toBe(200)
  return { orderId, paymentId: r.body.payment_id, amount: r.body.amount }
}

function webhook(body: unknown, signature?: string) {
  const raw = JSON.stringify(body)
  return api.app.request('/api/payments/payselection/webhook/', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-site-id': SITE,
      'x-webhook-signature': signature ?? createHmac('sha256', SECRET).update(raw).digest('hex'),
    },
    body: raw,
  })
}

async function deliveredCodes(orderId: string) {
  const lines = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId))
  return api.db.select().from(voucherCodes).where(eq(voucherCodes.orderProductId, lines[0]!.id))
}

describe('Payselection', () => {
  it('creates the payment with a signed request and answers a redirect scenario', async () => {
    const { paymentId, amount } = await startPs()
    const req = log.find((l) => l.path === '/webpayments/create' && l.body.includes(paymentId))!
    expect(req).toBeTruthy()
    const sent = JSON.parse(req.body) as {
      PaymentRequest: Record<string, unknown>
      CustomerInfo: Record<string, unknown>
    }
    // 99.00 + 2 %
    expect(amount).toBe('100.98')
    expect(sent.PaymentRequest).toMatchObject({ OrderId: paymentId, Amount: '100.98', Currency: 'RUB' })
    expect(sent.CustomerInfo).toEqual({ Email: 'buyer@example.com' })
    const data = await api.call<Record<string, unknown>>(
      'GET',
      `/api/orders/payment_data/${(await api.db.select().from(payments).where(eq(payments.id, paymentId)))[0]!.orderId}/`,
    )
    expect(data.body).toMatchObject({
      type: 'redirect',
      url: `https://webform.payselection.test/pay/${paymentId}`,
    })
  })

  it('webhook: signature checked first, amount read, replay processed once', async () => {
    const { orderId, paymentId } = await startPs()
    const event = {
      Event: 'Payment',
      TransactionId: `PS-${paymentId}`,
      OrderId: paymentId,
      Amount: '100.98',
      Currency: 'RUB',
    }

    const forged = await webhook(event, 'f'.repeat(64))
    expect(forged.status).toBe(403)
    expect(((await forged.json()) as Err).code).toBe('payment_signature_invalid')
    const unsigned = await api.app.request('/api/payments/payselection/webhook/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    })
    expect(unsigned.status).toBe(403)
    // a body that is not even JSON is refused for its signature before it is parsed
    expect(
      (
        await api.app.request('/api/payments/payselection/webhook/', {
          method: 'POST',
          headers: { 'x-webhook-signature': 'abc' },
          body: '{nope',
        })
      ).status,
    ).toBe(403)

    // an unreadable amount is a 400; another amount is refused and refunded (payment-refunds.test.ts)
    const unreadable = await webhook({ ...event, Amount: 'lots' })
    expect(unreadable.status).toBe(400)
    expect(((await unreadable.json()) as Err).code).toBe('payment_amount_mismatch')
    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')

    expect((await webhook(event)).status).toBe(200)
    expect((await webhook(event)).status).toBe(200)
    expect((await status(api, orderId)).body).toMatchObject({ status: 'done', payment_status: 'succeeded' })
    expect(await deliveredCodes(orderId)).toHaveLength(1)
    const events = await api.db
      .select()
      .from(paymentEvents)
      .where(
        and(
          eq(paymentEvents.provider, 'payselection'),
          eq(paymentEvents.eventKey, `PS-${paymentId}:Payment`),
        ),
      )
    expect(events).toHaveLength(1)
  })

  it('webhook Fail: the payment fails and the order stays payable', async () => {
    const { orderId, paymentId } = await startPs()
    const r = await webhook({
      Event: 'Fail',
      TransactionId: `PS-F-${paymentId}`,
      OrderId: paymentId,
      Amount: '100.98',
    })
    expect(r.status).toBe(200)
    expect((await status(api, orderId)).body).toMatchObject({
      status: 'waiting_for_payment',
      payment_status: 'failed',
      is_payment_active: true,
    })
  })

  it('status: asks the gateway (signed GET) and applies its answer', async () => {
    const { orderId, paymentId } = await startPs()
    const ask = () =>
      api.call<Record<string, unknown> & Err>('POST', '/api/payments/payselection/status/', {
        body: { order_id: orderId, currency: 'RUB' },
      })
    states.set(paymentId, [
      { TransactionId: 't1', TransactionState: 'wait_for_3ds', Amount: '100.98', Currency: 'RUB' },
    ])
    expect((await ask()).body).toMatchObject({ status: 'waiting_for_payment', payment_status: 'pending' })
    expect(log).toContainEqual(expect.objectContaining({ method: 'GET', path: `/orders/${paymentId}` }))

    // a success for another amount is refused and refunded: payment-refunds.test.ts
    states.set(paymentId, [
      { TransactionId: 't1', TransactionState: 'success', Amount: '100.98', Currency: 'RUB' },
    ])
    expect((await ask()).body).toMatchObject({
      id: orderId,
      status: 'done',
      payment_id: paymentId,
      payment_status: 'succeeded',
    })
    expect((await ask()).body).toMatchObject({ status: 'done' })
    expect(await deliveredCodes(orderId)).toHaveLength(1)
    expect(
      (await api.call('POST', '/api/payments/payselection/status/', { body: { order_id: 'nope' } })).status,
    ).toBe(400)
  })

  it('term: applies the state and sends the browser back to the pay page (JSON on request)', async () => {
    const { orderId, paymentId } = await startPs()
    states.set(paymentId, [
      { TransactionId: 't9', TransactionState: 'declined', Amount: '100.98', Currency: 'RUB' },
    ])
    const back = await api.app.request(`/api/payments/payselection/term/${orderId}/`, { method: 'POST' })
    expect(back.status).toBe(303)
    expect(back.headers.get('location')).toBe(`${api.config.publicUrl}/orders/${orderId}/pay`)
    expect((await status(api, orderId)).body.payment_status).toBe('failed')

    const again = await startPs()
    states.set(again.paymentId, [
      { TransactionId: 't10', TransactionState: 'success', Amount: '100.98', Currency: 'RUB' },
    ])
    const json = await api.call<Record<string, unknown>>(
      'POST',
      `/api/payments/payselection/term/${again.orderId}/`,
      {
        headers: { accept: 'application/json' },
      },
    )
    expect(json.status).toBe(200)
    expect(json.body).toMatchObject({ id: again.orderId, status: 'done', payment_status: 'succeeded' })
  })
})

function sign(fields: Record<string, string>, secret = GP_SECRET) {
  const order = ['WALLET_ID', 'WALLET_TYPE', 'SUM', 'ORDER_ID', 'P_TYPE', 'P_WALLET', 'PAYMENT_ID']
  return createHash('sha256')
    .update([...order.map((k) => fields[k]), secret].join(':'))
    .digest('hex')
}

function notify(fields: Record<string, string>, json = false) {
  return api.app.request('/api/payments/getpay/notify/', {
    method: 'POST',
    headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
    body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  })
}

describe('GetPay notify', () => {
  async function startGp() {
    const orderId = await createPubgOrder(api, productId)
    const r = await pay(api, gpMethod, orderId)
    expect(r.status).toBe(200)
    const base = {
      WALLET_ID: WALLET,
      WALLET_TYPE: 'card',
      SUM: r.body.amount,
      ORDER_ID: orderId,
      P_TYPE: 'visa',
      P_WALLET: '4111****1111',
      PAYMENT_ID: `GP-${orderId}`,
    }
    return { orderId, r, base: { ...base, SIGN: sign(base) } }
  }

  it('sends the shopper to the GetPay page with a signed link', async () => {
    const { r, orderId } = await startGp()
    expect(r.body.type).toBe('redirect')
    const url = new URL(String(r.body.url))
    expect(url.origin + url.pathname).toBe('https://getpay.test/pay')
    expect(url.searchParams.get('ORDER_ID')).toBe(orderId)
    expect(url.searchParams.get('SUM')).toBe('99.00')
    const expected = createHash('sha256').update(`${WALLET}:99.00:${orderId}:RUB:${GP_SECRET}`).digest('hex')
    expect(url.searchParams.get('SIGN')).toBe(expected)
  })

  it('refuses a bad SIGN, a foreign wallet, an unknown order, an unreadable SUM; a replay is processed once', async () => {
    const { orderId, base } = await startGp()
    const bad = await notify({ ...base, SIGN: 'a'.repeat(64) })
    expect(bad.status).toBe(403)
    const tampered = await notify({ ...base, SUM: '1.00' })
    expect(tampered.status).toBe(403)

    const foreign = { ...base, WALLET_ID: 'W-OTHER' }
    const fw = await notify({ ...foreign, SIGN: sign(foreign) })
    expect(fw.status).toBe(403)
    expect(((await fw.json()) as Err).code).toBe('payment_wallet_mismatch')

    const unknown = { ...base, ORDER_ID: '00000000-0000-4000-8000-000000000000' }
    expect((await notify({ ...unknown, SIGN: sign(unknown) })).status).toBe(404)

    // an unreadable SUM is a 400; another sum is refused and given back (payment-refunds.test.ts)
    const wrongSum = { ...base, SUM: 'lots' }
    const ws = await notify({ ...wrongSum, SIGN: sign(wrongSum) })
    expect(ws.status).toBe(400)
    expect(((await ws.json()) as Err).code).toBe('payment_amount_mismatch')

    const missing = await notify({ WALLET_ID: WALLET })
    expect(missing.status).toBe(400)
    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')

    const ok = await notify(base)
    expect(ok.status).toBe(200)
    expect(await ok.text()).toBe('OK')
    const replay = await notify(base)
    expect(replay.status).toBe(200)
    expect((await status(api, orderId)).body.status).toBe('done')
    expect(await deliveredCodes(orderId)).toHaveLength(1)
  })

  it('accepts the fields as JSON too', async () => {
    const { orderId, base } = await startGp()
    expect((await notify(base, true)).status).toBe(200)
    expect((await status(api, orderId)).body.status).toBe('done')
  })
})
