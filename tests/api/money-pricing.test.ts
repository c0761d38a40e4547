// What a buyer is charged, seen through the API: stale prices are re-priced by the server before
// anyone pays, a paid order keeps its prices, the balance never covers more than the total, fees
// round half up, and a negative amount is refused. Written against the survivors of
// `npm run test:mutation` (docs/decisions/035-mutation-testing.md).
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gifts, orderProducts, orders, products, promoCodes, steamSettings, users } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { ensureSettings, makeGame, makeProduct, makeUser, onlyActive } from './orders-fixtures'
import {
  createPubgOrder,
  type Err,
  hex,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  pay,
  pressOnCheckout,
} from './payments-fixtures'

type OrderOut = {
  status: string
  total: string
  total_without_promocode: string
  total_with_promocode: string
  promo_percent: number | null
  balance_used: string
  total_to_pay: string
  amount: string | null
  commission: string | null
  products: Array<{ price: string; total: string; quantity: number }>
}

let api: TestApi
beforeAll(async () => {
  api = await createTestApi()
  await ensureSettings(api)
})
afterAll(() => api.close())

const getOrder = (id: string, token?: string) =>
  api.call<OrderOut & Err>('GET', `/api/orders/${id}/`, { token })
const setPrice = (id: number, price: number, discountPrice: number | null = null) =>
  api.db.update(products).set({ price, discountPrice }).where(eq(products.id, id))

/** A signed-in user's Steam order of `amount` rubles, through POST /api/orders/steam/. */
async function createSteamOrder(amount: number) {
  const steam = await makeGame(api, 'Steam')
  await onlyActive(api, 'Steam', steam.id)
  const user = await makeUser(api)
  const created = await api.call<{ id: string } & Err>('POST', '/api/orders/steam/', {
    body: { amount, steam_account_id: `s-${hex()}` },
    token: user.token,
  })
  expect(created.status).toBe(201)
  return { id: created.body.id, user }
}

async function storedLinePrices(orderId: string) {
  const rows = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId))
  return rows.map((r) => r.price)
}

describe('stale prices', () => {
  it('an order created at one price is shown and charged at the price now in force', async () => {
    const { product } = await makePubgStock(api, { codes: 10, price: 9900 })
    const orderId = await createPubgOrder(api, product.id, { quantity: 2 })
    expect((await getOrder(orderId)).body).toMatchObject({ total: '198.00', total_to_pay: '198.00' })

    await setPrice(product.id, 12000)
    const raised = await getOrder(orderId)
    expect(raised.body).toMatchObject({
      total: '240.00',
      total_without_promocode: '240.00',
      total_with_promocode: '240.00',
      balance_used: '0.00',
      total_to_pay: '240.00',
      // each line still names what it is, whatever its price did
      products: [
        {
          product: product.id,
          resourcetype: 'PUBGProduct',
          title: product.title,
          amount_uc: 60,
          gold: null,
          price: '120.00',
          total: '240.00',
          quantity: 2,
        },
      ],
    })
    // the server wrote the new figures down: the payment and the history read the same numbers
    expect(await orderRow(api, orderId)).toMatchObject({ total: 24000, totalToPay: 24000, balanceUsed: 0 })
    expect(await storedLinePrices(orderId)).toEqual([12000])

    // a discount price wins over the list price while it is lower
    await setPrice(product.id, 12000, 11000)
    expect((await getOrder(orderId)).body).toMatchObject({ total: '220.00', products: [{ price: '110.00' }] })

    const { method } = await makeSandboxMethod(api, 'redirect')
    const started = await pay(api, method.name, orderId)
    expect(started.status).toBe(200)
    expect(started.body.amount).toBe('220.00')
    expect((await pressOnCheckout(api, started.body.payment_id, 'confirm')).status).toBe(303)

    // paid: later price changes do not touch it
    await setPrice(product.id, 50000)
    const paid = await getOrder(orderId)
    expect(paid.body).toMatchObject({
      total: '220.00',
      total_to_pay: '220.00',
      products: [{ price: '110.00' }],
    })
    expect(await orderRow(api, orderId)).toMatchObject({ total: 22000, totalToPay: 22000 })
    expect(await storedLinePrices(orderId)).toEqual([11000])
  })

  it('a price lowered after the order was made is what the buyer pays', async () => {
    const { product } = await makePubgStock(api, { codes: 10, price: 20000 })
    const orderId = await createPubgOrder(api, product.id, { quantity: 3 })
    await setPrice(product.id, 15050)
    const { method } = await makeSandboxMethod(api, 'redirect')
    const r = await pay(api, method.name, orderId)
    expect([r.status, r.body.amount]).toEqual([200, '451.50'])
    expect(await storedLinePrices(orderId)).toEqual([15050])
  })

  it('an unchanged order is not rewritten', async () => {
    const { product } = await makePubgStock(api, { codes: 10, price: 9900 })
    const orderId = await createPubgOrder(api, product.id)
    const before = await orderRow(api, orderId)
    await getOrder(orderId)
    expect((await orderRow(api, orderId)).updated).toEqual(before.updated)
  })

  it('a gift order follows the gift price: list price, then a discount price', async () => {
    const [gift] = await api.db
      .insert(gifts)
      .values({ title: `Gift ${hex()}`, type: 'steam', price: 150000, region: 'RU' })
      .returning()
    const id = randomUUID()
    await api.db
      .insert(orders)
      .values({ id, kind: 'RokkyOrder', giftId: gift!.id, email: 'g@example.com', total: 0, totalToPay: 0 })
    expect((await getOrder(id)).body).toMatchObject({ total: '1500.00', total_to_pay: '1500.00' })
    await api.db.update(gifts).set({ discountPrice: 99999 }).where(eq(gifts.id, gift!.id))
    expect((await getOrder(id)).body).toMatchObject({ total: '999.99', total_to_pay: '999.99' })
  })

  it('a Steam order follows the commission in force until it is paid, then keeps its own', async () => {
    const { id, user } = await createSteamOrder(123.45)
    // 123.45 × 8 % = 9.876 → 9.88
    expect((await getOrder(id, user.token)).body).toMatchObject({
      amount: '123.45',
      commission: '9.88',
      total: '133.33',
      total_to_pay: '133.33',
    })
    await api.db.update(steamSettings).set({ commission: 1000 })
    // 10 % of 123.45 = 12.345 → 12.35 (half up)
    expect((await getOrder(id, user.token)).body).toMatchObject({ commission: '12.35', total: '135.80' })

    const { method } = await makeSandboxMethod(api, 'redirect')
    const r = await api.call<{ amount: string; payment_id: string }>(
      'POST',
      `/api/payments/${method.name}/`,
      {
        body: { order_id: id, currency: 'RUB' },
        token: user.token,
      },
    )
    expect([r.status, r.body.amount]).toEqual([200, '135.80'])
    await pressOnCheckout(api, r.body.payment_id, 'confirm')
    await api.db.update(steamSettings).set({ commission: 500 })
    const paid = await getOrder(id, user.token)
    expect(paid.body).toMatchObject({ amount: '123.45', commission: '12.35', total: '135.80' })
    await api.db.update(steamSettings).set({ commission: 800 })
  })

  it('a Steam order with no commission configured costs its amount (no settings row is not an error)', async () => {
    const { id, user } = await createSteamOrder(250)
    const settings = await api.db.select().from(steamSettings)
    await api.db.delete(steamSettings)
    try {
      const r = await getOrder(id, user.token)
      expect(r.status).toBe(200)
      expect(r.body).toMatchObject({
        amount: '250.00',
        commission: '0.00',
        total: '250.00',
        total_to_pay: '250.00',
      })
    } finally {
      await api.db.insert(steamSettings).values(settings)
    }
  })
})

describe('promo and balance', () => {
  it('the promo percent applies to the current price, the balance covers the rest up to the total', async () => {
    const { game, product } = await makePubgStock(api, { codes: 10, price: 10000 })
    const user = await makeUser(api, { balance: 5000 })
    const orderId = await createPubgOrder(api, product.id, { quantity: 2, token: user.token })
    const [promo] = await api.db
      .insert(promoCodes)
      .values({ code: `M${hex()}`, kind: 'PromoCode', percent: 15, gameId: game.id })
      .returning()
    await api.db.update(orders).set({ promoCodeId: promo!.id }).where(eq(orders.id, orderId))
    expect((await getOrder(orderId, user.token)).body).toMatchObject({
      total: '200.00',
      total_without_promocode: '200.00',
      total_with_promocode: '170.00',
      promo_percent: 15,
      balance_used: '50.00',
      total_to_pay: '120.00',
    })
    await setPrice(product.id, 9999)
    // 199.98 − 15 % (29.997 → 30.00) = 169.98; − 50.00 balance
    expect((await getOrder(orderId, user.token)).body).toMatchObject({
      total: '199.98',
      total_with_promocode: '169.98',
      balance_used: '50.00',
      total_to_pay: '119.98',
    })
    expect(await orderRow(api, orderId)).toMatchObject({ total: 19998, totalToPay: 11998, balanceUsed: 5000 })

    // the balance grows past the total: it pays all of it and no more
    await api.db.update(users).set({ balance: 1_000_000 }).where(eq(users.id, user.id))
    expect((await getOrder(orderId, user.token)).body).toMatchObject({
      total_with_promocode: '169.98',
      balance_used: '169.98',
      total_to_pay: '0.00',
    })
    expect(await orderRow(api, orderId)).toMatchObject({ balanceUsed: 16998, totalToPay: 0 })

    // and shrinks again: only what is there is used
    await api.db.update(users).set({ balance: 1 }).where(eq(users.id, user.id))
    expect((await getOrder(orderId, user.token)).body).toMatchObject({
      balance_used: '0.01',
      total_to_pay: '169.97',
    })
  })

  it('a 100 % code makes the order free without touching the balance', async () => {
    const { game, product } = await makePubgStock(api, { codes: 10, price: 10000 })
    const user = await makeUser(api, { balance: 5000 })
    const orderId = await createPubgOrder(api, product.id, { token: user.token })
    const [promo] = await api.db
      .insert(promoCodes)
      .values({ code: `F${hex()}`, kind: 'PromoCode', percent: 100, gameId: game.id })
      .returning()
    await api.db.update(orders).set({ promoCodeId: promo!.id }).where(eq(orders.id, orderId))
    expect((await getOrder(orderId, user.token)).body).toMatchObject({
      total: '100.00',
      total_with_promocode: '0.00',
      balance_used: '0.00',
      total_to_pay: '0.00',
    })
  })
})

describe('what is stored follows each figure alone', () => {
  it('only the balance share moved: the stored balance_used is rewritten', async () => {
    const { game, product } = await makePubgStock(api, { codes: 10, price: 10000 })
    const user = await makeUser(api, { balance: 4000 })
    const orderId = await createPubgOrder(api, product.id, { quantity: 2, token: user.token })
    expect(await orderRow(api, orderId)).toMatchObject({ total: 20000, totalToPay: 16000, balanceUsed: 4000 })
    // 10 % off (18000) and 20.00 of balance: still 160.00 to pay, but the balance share halved
    const [promo] = await api.db
      .insert(promoCodes)
      .values({ code: `B${hex()}`, kind: 'PromoCode', percent: 10, gameId: game.id })
      .returning()
    await api.db.update(orders).set({ promoCodeId: promo!.id }).where(eq(orders.id, orderId))
    await api.db.update(users).set({ balance: 2000 }).where(eq(users.id, user.id))
    expect((await getOrder(orderId, user.token)).body).toMatchObject({
      balance_used: '20.00',
      total_to_pay: '160.00',
    })
    expect(await orderRow(api, orderId)).toMatchObject({ total: 20000, totalToPay: 16000, balanceUsed: 2000 })
  })

  it('only the total moved (a free order): the stored total is rewritten', async () => {
    const { game, product } = await makePubgStock(api, { codes: 10, price: 10000 })
    const orderId = await createPubgOrder(api, product.id)
    const [promo] = await api.db
      .insert(promoCodes)
      .values({ code: `Z${hex()}`, kind: 'PromoCode', percent: 100, gameId: game.id })
      .returning()
    await api.db.update(orders).set({ promoCodeId: promo!.id }).where(eq(orders.id, orderId))
    await getOrder(orderId)
    await setPrice(product.id, 12000)
    expect((await getOrder(orderId)).body).toMatchObject({ total: '120.00', total_to_pay: '0.00' })
    expect(await orderRow(api, orderId)).toMatchObject({ total: 12000, totalToPay: 0, balanceUsed: 0 })
  })
})

describe('what is stored: the cases one check alone sees', () => {
  it('two line prices swap and the total stays: the stored line prices are rewritten', async () => {
    const { game, product: a } = await makePubgStock(api, { codes: 10, price: 10000 })
    const b = await makeProduct(api, game.id, 'PUBGProduct', { price: 20000, amountUc: 60 })
    const r = await api.call<{ id: string }>('POST', '/api/orders/pubg/', {
      body: {
        products: [
          { product_id: a.id, quantity: 1 },
          { product_id: b.id, quantity: 1 },
        ],
        email: `swap-${hex()}@example.com`,
      },
    })
    expect(r.status).toBe(201)
    await setPrice(a.id, 20000)
    await setPrice(b.id, 10000)
    expect((await getOrder(r.body.id)).body).toMatchObject({ total: '300.00' })
    expect((await storedLinePrices(r.body.id)).sort()).toEqual([10000, 20000])
    const rows = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, r.body.id))
    expect(rows.find((x) => x.productId === a.id)!.price).toBe(20000)
  })

  it('a free gift order whose gift price changed: the stored total is rewritten', async () => {
    const [gift] = await api.db
      .insert(gifts)
      .values({ title: `Free ${hex()}`, type: 'steam', price: 50000, region: 'RU' })
      .returning()
    const [promo] = await api.db
      .insert(promoCodes)
      .values({ code: `G${hex()}`, kind: 'GiftPromoCode', percent: 100, giftId: gift!.id })
      .returning()
    const id = randomUUID()
    await api.db.insert(orders).values({
      id,
      kind: 'RokkyOrder',
      giftId: gift!.id,
      promoCodeId: promo!.id,
      email: 'free@example.com',
      total: 50000,
      totalToPay: 0,
    })
    await api.db.update(gifts).set({ price: 60000 }).where(eq(gifts.id, gift!.id))
    expect((await getOrder(id)).body).toMatchObject({ total: '600.00', total_to_pay: '0.00' })
    expect(await orderRow(api, id)).toMatchObject({ total: 60000, totalToPay: 0, balanceUsed: 0 })
  })
})

describe('payment fees', () => {
  it('the percent fee is rounded half up to the kopeck, the fixed fee added as is', async () => {
    const { product } = await makePubgStock(api, { codes: 10, price: 19999 })
    const orderId = await createPubgOrder(api, product.id)
    // 199.99 × 2.5 % = 4.99975 → 5.00; + 1.00
    const { method } = await makeSandboxMethod(api, 'redirect', { fee: 250, fixFee: 100 })
    const r = await pay(api, method.name, orderId)
    expect([r.status, r.body.amount]).toEqual([200, '205.99'])

    // 199.99 × 0.01 % = 0.019999 → 0.02 ; no fixed fee
    const tiny = await makeSandboxMethod(api, 'redirect', { fee: 1 })
    const t = await pay(api, tiny.method.name, orderId)
    expect([t.status, t.body.amount]).toEqual([200, '200.01'])
  })

  it('the minimum is compared with the amount before fees', async () => {
    const { product } = await makePubgStock(api, { codes: 10, price: 9900 })
    const orderId = await createPubgOrder(api, product.id)
    const exact = await makeSandboxMethod(api, 'redirect', { minAmount: 9900, fee: 1000 })
    expect((await pay(api, exact.method.name, orderId)).status).toBe(200)
    const above = await makeSandboxMethod(api, 'redirect', { minAmount: 9901, fixFee: 100000 })
    const r = await pay(api, above.method.name, orderId)
    expect([r.status, r.body.code]).toEqual([400, 'payment_amount_below_minimum'])
    expect(r.body.detail).toContain('99.01')
  })
})

describe('negative and zero amounts', () => {
  it('a negative or zero quantity is refused in Russian, and no order is made', async () => {
    const { product } = await makePubgStock(api, { codes: 10, price: 9900 })
    for (const quantity of [-1, 0, 1.5]) {
      const r = await api.call<Err>('POST', '/api/orders/pubg/', {
        body: { products: [{ product_id: product.id, quantity }], email: `neg-${hex()}@example.com` },
      })
      expect(r.status, String(quantity)).toBe(400)
      expect(JSON.stringify(r.body)).toMatch(/[а-яё]/i)
    }
  })

  it('a negative or malformed Steam amount is refused in Russian', async () => {
    const steam = await makeGame(api, 'Steam')
    await onlyActive(api, 'Steam', steam.id)
    for (const amount of [-200, '-200.00', 0, '12.345', 'abc']) {
      const r = await api.call<Err>('POST', '/api/orders/steam/', {
        body: { amount, steam_account_id: 's1', email: `neg-${hex()}@example.com` },
      })
      expect(r.status, String(amount)).toBe(400)
      expect(JSON.stringify(r.body)).toMatch(/[а-яё]/i)
    }
  })
})
