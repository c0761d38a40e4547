// Issue 43, finding 3 (decision 113): every mail of every order kind and payment path shows money
// lines that add up to what was charged, each line named for what it is (the shop's commission, the
// method's fee); the refund mail names the method of the payment it gives back; a failure that is
// refunded automatically says so and when the money arrives, never «оплата сохранена». Orders a
// person delivers (Standoff, supply channel): the «ожидает выдачи», done, failed and refund mails.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gifts, orders, payments, refunds, voucherCodes } from '#api/db/schema'
import { settlePaymentSucceeded } from '#api/services/payments/settle'
import { type Figure, figuresAddUp, orderFigures } from '#api/services/mail/figures'
import { formatRub, M } from '#api/services/mail/messages'
import { loadOrderForMail } from '#api/services/mail/order-data'
import { renderMail } from '#api/services/mail/render'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { ensureSettings, makeGame, makeProduct, makeServer, type makeUser } from './orders-fixtures'
import {
  createPubgOrder,
  hex,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  pay,
  pressOnCheckout,
} from './payments-fixtures'

let api: TestApi
/** A method without a fee, and one with 2 % + 5 ₽. */
let plain: string
let withFee: string
/** Manual games (a person delivers): Standoff and a supply-channel game with its server. */
let standoffGameId: number
let supplyGameId: number
let supplyServerId: number
let support: Awaited<ReturnType<typeof makeUser>>
const ctx = () => ({ db: api.db, config: api.config, to: 'someone@example.com', now: new Date() })

beforeAll(async () => {
  api = await createTestApi()
  await ensureSettings(api)
  plain = (await makeSandboxMethod(api, 'redirect', { title: 'СБП' })).method.name
  withFee = (await makeSandboxMethod(api, 'redirect', { title: 'Банковская карта', fee: 200, fixFee: 500 }))
    .method.name
  standoffGameId = (await makeGame(api, 'StandoffGame', { supplier: 'manual' })).id
  supplyGameId = (
    await makeGame(api, 'SupplyGame', { supplier: 'manual', isServerNeeded: true, isServerEnum: true })
  ).id
  supplyServerId = (await makeServer(api, supplyGameId, 'Europe')).id
  support = await makeStaff(api, 'support')
}, 180_000)
afterAll(async () => {
  await api?.close()
})

const text = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ')
const rub = (k: number) => text(formatRub(k))

const LABEL: Record<Exclude<Figure['kind'], 'item'>, string> = {
  steam: M.order.steam_line,
  shop_commission: M.order.shop_commission,
  promo: M.order.promo,
  balance_used: M.order.balance_used,
  method_fee: M.order.method_fee,
}

/** The mail shows each of the order's money lines, and they add up to what it says was charged. */
async function expectFiguresShown(orderId: string, mailText: string) {
  const o = (await loadOrderForMail(api.db, orderId))!
  const f = orderFigures(o)
  expect(figuresAddUp(f)).toBe(true)
  const body = text(mailText)
  for (const x of f.figures) {
    if (x.kind !== 'item') expect(body).toContain(LABEL[x.kind])
    expect(body).toContain(rub(Math.abs(x.amount)))
  }
  expect(body).toContain(`${M.order.total_paid}`)
  expect(body).toContain(rub(f.charged))
  expect(body).not.toContain('Комиссия Steam')
  return f
}

async function paid(orderId: string, method: string) {
  const started = await pay(api, method, orderId, { email: 'buyer@example.com' })
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  await pressOnCheckout(api, started.body.payment_id, 'confirm')
  return started.body.payment_id
}

async function steamOrder() {
  const [steam] = await api.db
    .execute<{ id: number }>(sql`select id from games where kind = 'Steam' limit 1`)
    .then((r) => (r as unknown as { rows: Array<{ id: number }> }).rows)
  const created = await api.call<{ id: string }>('POST', '/api/orders/steam/', {
    body: {
      game: steam!.id,
      amount: '1000.00',
      steam_account_id: 'gaben_mail',
      email: `s-${hex()}@example.com`,
    },
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body.id
}

async function giftOrder() {
  const [gift] = await api.db.select().from(gifts).where(eq(gifts.isActive, true)).limit(1)
  const created = await api.call<{ id: string }>('POST', '/api/orders/rokky/', {
    body: { gift: gift!.id, email: `g-${hex()}@example.com` },
  })
  expect(created.status).toBe(201)
  return created.body.id
}

async function pubgOrder(quantity = 2) {
  const { product } = await makePubgStock(api, { codes: quantity, price: 8900 })
  return { id: await createPubgOrder(api, product.id, { quantity }), productId: product.id }
}

async function standoffOrder() {
  // a pack of its own: its listing price is nobody else's
  const p = await makeProduct(api, standoffGameId, 'StandoffProduct', {
    price: 8900,
    gold: 100 + Math.floor(Math.random() * 100_000),
  })
  const created = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
    body: {
      products: [{ product_id: p.id, quantity: 1 }],
      game_account_id: '51234567',
      surplus: '0.05',
      email: `so-${hex()}@example.com`,
    },
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  // the account's avatar, uploaded (§5: a Standoff order is paid only with it)
  await api.db
    .update(orders)
    .set({ gameAvatar: '/media/avatar-test.png' })
    .where(eq(orders.id, created.body.id))
  return created.body.id
}

async function supplyOrder() {
  const p = await makeProduct(api, supplyGameId, 'SupplyProduct', { price: 8900 })
  const created = await api.call<{ id: string }>('POST', '/api/orders/supply_channel/', {
    body: {
      products: [{ product_id: p.id, quantity: 2 }],
      supply_channel_user_id: '777',
      supply_channel_server: supplyServerId,
      email: `sc-${hex()}@example.com`,
    },
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  return created.body.id
}

/** A person at the delivery desk takes the order and delivers it, or says it cannot be delivered. */
async function desk(orderId: string, outcome: 'delivered' | 'not_delivered') {
  const act = (what: string, body?: unknown) =>
    api.call<{ status: string }>('POST', `/api/admin/orders/${orderId}/${what}/`, {
      token: support.token,
      body,
    })
  expect((await act('take')).status).toBe(200)
  const r =
    outcome === 'delivered'
      ? await act('delivered')
      : await act('not_delivered', { reason: 'Игрок недоступен' })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
}

describe('every mail’s figures add up', { timeout: 120_000 }, () => {
  for (const [name, method] of [
    ['no fee', () => plain],
    ['the method’s fee', () => withFee],
  ] as const)
    it(`done mails of PUBG, Steam and gift orders (${name})`, async () => {
      for (const make of [async () => (await pubgOrder()).id, steamOrder, giftOrder]) {
        const id = await make()
        await paid(id, method())
        const mail = await renderMail('order_done', { orderId: id }, ctx())
        expect(mail, `order ${id}`).not.toBeNull()
        const f = await expectFiguresShown(id, mail!.text)
        if (method() === withFee) {
          expect(f.methodFee).toBeGreaterThan(0)
          expect(text(mail!.text)).toContain(`${M.order.method_fee}`)
        }
      }
    })

  it('the Steam top-up of the finding: the shop’s commission is its own line and the lines reach «Оплачено»', async () => {
    const id = await steamOrder()
    await paid(id, withFee)
    const o = await orderRow(api, id)
    const mail = text((await renderMail('order_done', { orderId: id }, ctx()))!.text)
    expect(mail).toContain(`${M.order.steam_line}`)
    expect(mail).toContain(`${M.order.shop_commission}`)
    expect(mail).toContain(rub(o.total - o.steamAmount!))
    expect(o.total - o.steamAmount!).toBeGreaterThan(0)
  })

  it('a failure refunded automatically says so, how much, by which method and when — never «оплата сохранена»', async () => {
    const { id, productId } = await pubgOrder(1)
    const started = await pay(api, withFee, id, { email: 'buyer@example.com' })
    await api.db
      .update(voucherCodes)
      .set({ soldAt: new Date(), heldBy: null, heldUntil: null })
      .where(eq(voucherCodes.productId, productId))
    await pressOnCheckout(api, started.body.payment_id, 'confirm')
    expect((await orderRow(api, id)).status).toBe('failed')
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.orderId, id))
    const mail = text((await renderMail('order_failed', { orderId: id }, ctx()))!.text)
    expect(mail).not.toMatch(/сохранена/i)
    expect(mail).toContain('возвращаются автоматически')
    expect(mail).toContain(rub(refund!.amount))
    expect(mail).toContain('(Банковская карта)')
    expect(mail).toContain('10 рабочих дней')
    await expectFiguresShown(id, mail)
    // its refund mail: the same amount and method
    const refunded = text(
      (await renderMail(
        'order_refunded',
        { orderId: id, amount: refund!.amount, destination: 'payment', paymentId: refund!.paymentId },
        ctx(),
      ))!.text,
    )
    expect(refunded).toContain(rub(refund!.amount))
    expect(refunded).toContain('(Банковская карта)')
  })

  it('a double payment: the refund mail names the refunded payment’s method, not the order’s', async () => {
    const { id } = await pubgOrder(1)
    const byCard = await pay(api, withFee, id, { email: 'buyer@example.com' })
    // the buyer switches to SBP and pays; then the card payment succeeds too (its page was still open)
    await paid(id, plain)
    expect((await orderRow(api, id)).status).toBe('done')
    const [card] = await api.db.select().from(payments).where(eq(payments.id, byCard.body.payment_id))
    const settled = await settlePaymentSucceeded(api.deps, {
      paymentId: card!.id,
      provider: 'sandbox',
      eventKey: `late-${card!.id}`,
      amount: card!.amount,
      currency: 'RUB',
    })
    expect(settled.outcome).toBe('refused')
    const [refund] = await api.db.select().from(refunds).where(eq(refunds.paymentId, byCard.body.payment_id))
    expect(refund).toMatchObject({ kind: 'payment' })
    const mail = text(
      (await renderMail(
        'order_refunded',
        {
          orderId: id,
          amount: refund!.amount,
          currency: 'RUB',
          refusedPayment: true,
          destination: 'payment',
          paymentId: refund!.paymentId,
        },
        ctx(),
      ))!.text,
    )
    expect(mail).toContain('(Банковская карта)')
    expect(mail).not.toContain('(СБП)')
    expect(mail).toContain(rub(refund!.amount))
  })
})

describe('the mails of orders a person delivers (Standoff, supply channel) add up', {
  timeout: 180_000,
}, () => {
  for (const [name, method] of [
    ['no fee', () => plain],
    ['the method’s fee', () => withFee],
  ] as const)
    it(`paid, delivered, and failed with its refund (${name})`, async () => {
      for (const [kind, make] of [
        ['Standoff', standoffOrder],
        ['supply', supplyOrder],
      ] as const) {
        // paid: «ожидает выдачи», with no money line that could contradict the charge
        const id = await make()
        await paid(id, method())
        expect((await orderRow(api, id)).status, kind).toBe('sent')
        const waiting = text((await renderMail('order_paid', { orderId: id }, ctx()))!.text)
        expect(waiting).not.toContain('Комиссия Steam')
        expect(waiting).not.toMatch(/сохранена/i)
        // Standoff's listing price is a Russian number («10 526,37 G», not «10526.37 G»; issue 50)
        if (kind === 'Standoff') {
          expect(waiting).toMatch(/на рынок за \d{1,3}(?: \d{3})*,\d\d G/)
          expect(waiting).not.toMatch(/\d\.\d\d G/)
        }
        // a person delivers it: the done mail's lines reach «Оплачено»
        await desk(id, 'delivered')
        expect((await orderRow(api, id)).status, kind).toBe('done')
        const done = await renderMail('order_done', { orderId: id }, ctx())
        const f = await expectFiguresShown(id, done!.text)
        if (method() === withFee) expect(f.methodFee, kind).toBeGreaterThan(0)

        // another cannot be delivered: the failed mail's lines add up and say where the money goes
        const failed = await make()
        await paid(failed, method())
        await desk(failed, 'not_delivered')
        expect((await orderRow(api, failed)).status, kind).toBe('failed')
        const [refund] = await api.db.select().from(refunds).where(eq(refunds.orderId, failed))
        expect(refund, kind).toBeDefined()
        const failedMail = text((await renderMail('order_failed', { orderId: failed }, ctx()))!.text)
        await expectFiguresShown(failed, failedMail)
        expect(failedMail).not.toMatch(/сохранена/i)
        expect(failedMail).toContain(rub(refund!.amount - refund!.toBalance))
        // and its refund mail gives the amount refunded, by the method of the payment refunded
        const refunded = text(
          (await renderMail(
            'order_refunded',
            {
              orderId: failed,
              amount: refund!.amount,
              destination: refund!.method === 'manual' ? 'person' : 'payment',
              paymentId: refund!.paymentId,
            },
            ctx(),
          ))!.text,
        )
        expect(refunded).toContain(rub(refund!.amount))
        expect(refunded).toContain(method() === withFee ? '(Банковская карта)' : '(СБП)')
      }
    })
})
