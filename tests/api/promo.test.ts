import { randomUUID } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  games,
  gifts,
  orders,
  products,
  promoCodes,
  promoRedemptions,
  users,
  voucherCodes,
} from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeUser } from './orders-fixtures'
import {
  createPubgOrder,
  type Err,
  hex,
  makePubgStock,
  makeSandboxMethod,
  pay,
  pressOnCheckout,
  status,
} from './payments-fixtures'

type PromoResult = {
  order_id: string
  promo_code: { resourcetype: string; code: string; percent: number; game?: number; gift?: number } | null
  total_without_promocode: string
  total_with_promocode: string
  balance_used: string
  total_to_pay: string
}

let api: TestApi
let pubgGameId: number
let productId: number
let otherProductId: number
let method: string

beforeAll(async () => {
  // checks come from one (unknown) address here; the limits have tests of their own
  api = await createTestApi({ env: { PROMO_LIMIT_PER_ADDRESS: '100000' } })
  const [g] = await api.db.select().from(games).where(eq(games.title, 'PUBG Mobile'))
  pubgGameId = g!.id
  const [p] = await api.db
    .insert(products)
    .values({
      gameId: pubgGameId,
      kind: 'PUBGProduct',
      title: `100 UC ${hex(2)}`,
      price: 10000,
      amountUc: 100,
    })
    .returning()
  productId = p!.id
  await api.db
    .insert(voucherCodes)
    .values(
      Array.from({ length: 20 }, (_, i) => ({ productId: p!.id, code: `PR-${hex(5)}-${i}`, amountUc: 100 })),
    )
  otherProductId = (await makePubgStock(api, { codes: 5, price: 10000 })).product.id
  method = (await makeSandboxMethod(api, 'redirect')).method.name
})
afterAll(() => api.close())

const activate = (id: string, code: string, token?: string) =>
  api.call<PromoResult & Err>('POST', `/api/orders/${id}/activate_promo_code/`, { body: { code }, token })
const show = (id: string, code: string) =>
  api.call<PromoResult & Err>('POST', `/api/orders/${id}/show_promo_code/`, { body: { code } })
const active = (id: string) =>
  api.call<Record<string, unknown> & Err>('GET', `/api/orders/${id}/active_promo_code/`)

async function addPromo(values: Partial<typeof promoCodes.$inferInsert>) {
  const [p] = await api.db
    .insert(promoCodes)
    .values({ code: `T${hex(4)}`, kind: 'PromoCode', percent: 20, gameId: pubgGameId, ...values })
    .returning()
  return p!
}

async function giftOrder(giftTitle: string) {
  const [g] = await api.db.select().from(gifts).where(eq(gifts.title, giftTitle))
  const id = randomUUID()
  const price = g!.discountPrice ?? g!.price
  await api.db.insert(orders).values({
    id,
    kind: 'RokkyOrder',
    giftId: g!.id,
    email: `g-${hex()}@example.com`,
    total: price,
    totalToPay: price,
  })
  return { id, gift: g! }
}

describe('order promo codes', () => {
  it('activate, read, preview and deactivate with totals with and without the code', async () => {
    const id = await createPubgOrder(api, productId, { quantity: 2 })
    const preview = await show(id, 'welcome10')
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({
      promo_code: { resourcetype: 'PromoCode', code: 'WELCOME10', percent: 10, game: pubgGameId },
      total_without_promocode: '200.00',
      total_with_promocode: '180.00',
      total_to_pay: '180.00',
    })
    // a preview stores nothing
    expect((await active(id)).status).toBe(404)
    expect((await active(id)).body.code).toBe('promo_code_not_active')

    const r = await activate(id, 'WELCOME10')
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ total_without_promocode: '200.00', total_with_promocode: '180.00' })
    expect((await active(id)).body).toEqual({
      resourcetype: 'PromoCode',
      code: 'WELCOME10',
      percent: 10,
      game: pubgGameId,
    })
    const order = await api.call<Record<string, unknown>>('GET', `/api/orders/${id}/`)
    expect(order.body).toMatchObject({ total_without_promocode: '200.00', total_with_promocode: '180.00' })

    const off = await api.call<PromoResult>('POST', `/api/orders/${id}/deactivate_promo_code/`)
    expect(off.status).toBe(200)
    expect(off.body).toMatchObject({
      promo_code: null,
      total_with_promocode: '200.00',
      total_to_pay: '200.00',
    })
    expect((await active(id)).status).toBe(404)
  })

  it('the payment is for the discounted total, and paying records the redemption once per email', async () => {
    const email = `once-${hex()}@example.com`
    const id = await createPubgOrder(api, productId, { email })
    await activate(id, 'WELCOME10')
    const [before] = await api.db.select().from(promoCodes).where(sql`code = 'WELCOME10'`)
    const p = await pay(api, method, id)
    expect(p.body.amount).toBe('90.00')
    expect((await pressOnCheckout(api, p.body.payment_id, 'confirm')).status).toBe(303)
    expect((await status(api, id)).body.status).toBe('done')
    const red = await api.db.select().from(promoRedemptions).where(eq(promoRedemptions.orderId, id))
    expect(red).toHaveLength(1)
    expect(red[0]!.email).toBe(email)
    const [after] = await api.db.select().from(promoCodes).where(sql`code = 'WELCOME10'`)
    expect(after!.usedCount).toBe(before!.usedCount + 1)

    // the same buyer cannot use it again
    const second = await createPubgOrder(api, productId, { email: email.toUpperCase() })
    const again = await activate(second, 'WELCOME10')
    expect([again.status, again.body.code]).toEqual([400, 'promo_code_already_used'])
    // and a paid order cannot change its code
    const paid = await activate(id, 'WELCOME10')
    expect([paid.status, paid.body.code]).toEqual([409, 'promo_order_paid'])
    expect((await api.call<Err>('POST', `/api/orders/${id}/deactivate_promo_code/`)).status).toBe(409)
  })

  it('answers unknown, expired, switched-off and used-up codes alike; other refusals in their own words', async () => {
    const id = await createPubgOrder(api, productId)
    const foreignOrder = await createPubgOrder(api, otherProductId)
    const inactive = await addPromo({ isActive: false })
    const exhausted = await addPromo({ maxUses: 3, usedCount: 3 })
    const cases: Array<[string, string, number, string]> = [
      [id, 'NO-SUCH-CODE', 404, 'promo_code_unknown'],
      [id, 'OLD2020', 404, 'promo_code_unknown'],
      [id, inactive.code, 404, 'promo_code_unknown'],
      [id, exhausted.code, 404, 'promo_code_unknown'],
      [foreignOrder, 'WELCOME10', 400, 'promo_code_foreign_game'],
      [id, 'GIFT15', 400, 'promo_code_foreign_gift'],
    ]
    const details = new Set<string>()
    for (const [order, code, st, errCode] of cases) {
      for (const call of [activate, show]) {
        const r = await call(order, code)
        expect([r.status, r.body.code], `${code} via ${call.name}`).toEqual([st, errCode])
        expect(r.body.detail).toMatch(/[а-яё]/i)
        details.add(r.body.detail)
      }
    }
    expect(details.size).toBe(3)
    const foreign = await activate(foreignOrder, 'WELCOME10')
    expect(foreign.body.detail).toContain('PUBG Mobile')
    expect((await active(id)).status).toBe(404)
    expect((await activate(id, '')).status).toBe(400)
    expect((await activate('nope', 'WELCOME10')).status).toBe(400)
  })

  it('GiftPromoCode applies to an order of its gift only', async () => {
    const { id, gift } = await giftOrder('Roblox — 800 Robux')
    const r = await activate(id, 'GIFT15')
    expect(r.status).toBe(200)
    expect(r.body.promo_code).toEqual({
      resourcetype: 'GiftPromoCode',
      code: 'GIFT15',
      percent: 15,
      gift: gift.id,
    })
    const price = gift.discountPrice ?? gift.price
    expect(r.body.total_with_promocode).toBe(((price - Math.floor((price * 15 + 50) / 100)) / 100).toFixed(2))
    const other = await giftOrder('Steam — карта пополнения 1000 ₽')
    expect((await activate(other.id, 'GIFT15')).body.code).toBe('promo_code_foreign_gift')
    expect((await activate(other.id, 'WELCOME10')).body.code).toBe('promo_code_foreign_game')
    expect((await activate(other.id, 'SOLDOUT5')).body.code).toBe('promo_code_unknown')
  })

  it('changing the code replaces a started payment without calling it declined', async () => {
    const id = await createPubgOrder(api, productId)
    const first = await pay(api, method, id)
    expect(first.body.amount).toBe('100.00')
    await activate(id, 'WELCOME10')
    const s = await status(api, id)
    expect(s.body).toMatchObject({
      status: 'waiting_for_payment',
      payment_status: 'failed',
      payment_message: null,
    })
    // the old amount can no longer be confirmed; a new payment is for the new total
    expect((await pressOnCheckout(api, first.body.payment_id, 'confirm').catch(() => null))?.status).not.toBe(
      303,
    )
    const second = await pay(api, method, id)
    expect(second.body.amount).toBe('90.00')
  })

  it('a signed-in user’s order is not reachable by others', async () => {
    const owner = await makeUser(api)
    const id = await createPubgOrder(api, productId, { token: owner.token })
    expect((await activate(id, 'WELCOME10')).status).toBe(404)
    expect((await activate(id, 'WELCOME10', owner.token)).status).toBe(200)
  })
})

describe('account promo codes', () => {
  it('needs a signed-in user to activate or deactivate', async () => {
    expect(
      (await api.call('POST', '/api/promo_codes/activate/', { body: { code: 'WELCOME10' } })).status,
    ).toBe(401)
    expect((await api.call('POST', '/api/promo_codes/deactivate/')).status).toBe(401)
  })

  it('show checks a code without an order', async () => {
    const ok = await api.call<Record<string, unknown>>('POST', '/api/promo_codes/show/', {
      body: { code: 'gift15' },
    })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ resourcetype: 'GiftPromoCode', code: 'GIFT15', percent: 15 })
    const old = await api.call<Err>('POST', '/api/promo_codes/show/', { body: { code: 'OLD2020' } })
    expect([old.status, old.body.code]).toEqual([404, 'promo_code_unknown'])
    const none = await api.call<Err>('POST', '/api/promo_codes/show/', { body: { code: 'NOPE' } })
    expect([none.status, none.body.code]).toEqual([404, 'promo_code_unknown'])
  })

  it('activate sets the profile’s code and applies it to open and new orders of its game', async () => {
    const user = await makeUser(api)
    const open = await createPubgOrder(api, productId, { token: user.token })
    const r = await api.call<{ active_promo_code: Record<string, unknown> }>(
      'POST',
      '/api/promo_codes/activate/',
      {
        body: { code: 'WELCOME10' },
        token: user.token,
      },
    )
    expect(r.status).toBe(200)
    expect(r.body.active_promo_code).toMatchObject({
      resourcetype: 'PromoCode',
      code: 'WELCOME10',
      game: pubgGameId,
    })
    const [u] = await api.db.select().from(users).where(eq(users.id, user.id))
    expect(u!.activePromoCodeId).not.toBeNull()
    expect(
      (await api.call('GET', `/api/orders/${open}/active_promo_code/`, { token: user.token })).status,
    ).toBe(200)

    const later = await createPubgOrder(api, productId, { token: user.token })
    // the new order carries the account code from creation, before any payment starts
    const fresh = await api.call<{ total_without_promocode: string; total_with_promocode: string }>(
      'GET',
      `/api/orders/${later}/`,
      { token: user.token },
    )
    expect(fresh.body.total_without_promocode).toBe('100.00')
    expect(fresh.body.total_with_promocode).toBe('90.00')
    const p = await api.call<{ amount: string }>('POST', `/api/payments/${method}/`, {
      body: { order_id: later, currency: 'RUB' },
      token: user.token,
    })
    expect(p.body.amount).toBe('90.00')

    const bad = await api.call<Err>('POST', '/api/promo_codes/activate/', {
      body: { code: 'OLD2020' },
      token: user.token,
    })
    expect(bad.body.code).toBe('promo_code_unknown')
    const off = await api.call<{ active_promo_code: null }>('POST', '/api/promo_codes/deactivate/', {
      token: user.token,
    })
    expect(off.body).toEqual({ active_promo_code: null })
    const [u2] = await api.db.select().from(users).where(eq(users.id, user.id))
    expect(u2!.activePromoCodeId).toBeNull()
  })
})
