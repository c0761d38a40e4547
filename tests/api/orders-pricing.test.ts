import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gifts, orderProducts, orders, promoCodes, voucherCodes } from '#api/db/schema'
import { sniffImage } from '#api/services/uploads/images'
import {
  applyPromoAndBalance,
  linesTotal,
  newOrderTotals,
  recalculateOrder,
  steamTotal,
} from '#api/services/orders/pricing'
import { OrderHistorySchema } from '#api/routes/schemas/orders'
import { serializeOrderHistory } from '#api/services/orders/serialize'
import { transitionOrder } from '#api/services/orders/state-machine'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { ensureSettings, makeGame, makeProduct, makeServer, makeUser, onlyActive } from './orders-fixtures'

describe('pricing arithmetic (integer kopecks)', () => {
  it('applies the promo percent, then the balance, never below zero', () => {
    expect(applyPromoAndBalance(19800, null, 0)).toEqual({
      totalWithPromo: 19800,
      balanceUsed: 0,
      totalToPay: 19800,
    })
    expect(applyPromoAndBalance(19800, 10, 5000)).toEqual({
      totalWithPromo: 17820,
      balanceUsed: 5000,
      totalToPay: 12820,
    })
    expect(applyPromoAndBalance(19800, 100, 5000)).toEqual({
      totalWithPromo: 0,
      balanceUsed: 0,
      totalToPay: 0,
    })
    expect(applyPromoAndBalance(999, 0, 10_000)).toEqual({
      totalWithPromo: 999,
      balanceUsed: 999,
      totalToPay: 0,
    })
    // 33 % of 0.99 = 0.3267 → 0.33 off (half up on the discount)
    expect(applyPromoAndBalance(99, 33, 0).totalWithPromo).toBe(66)
    expect(applyPromoAndBalance(1000, null, -50).balanceUsed).toBe(0)
  })

  it('adds the Steam commission rounded half up to the kopeck', () => {
    expect(steamTotal(100000, 800)).toEqual({ amount: 100000, commission: 8000, total: 108000 })
    expect(steamTotal(12345, 800)).toEqual({ amount: 12345, commission: 988, total: 13333 })
    // half a kopeck rounds up: 6.25 ₽ × 0.08 % = 0.5 kopeck
    expect(steamTotal(625, 8).commission).toBe(1)
    expect(steamTotal(50000, 0).total).toBe(50000)
  })
})

describe("a new order without promo or balance (a guest's), priced in memory", () => {
  const line = (id: number, quantity: number, unitPrice: number) => ({
    id,
    productId: id,
    quantity,
    unitPrice,
    product: { kind: 'PUBGProduct' as const, title: `P${id}`, picture: '', amountUc: 60, gold: null },
  })

  it("adds up each line's quantity times its unit price", () => {
    expect(linesTotal([])).toBe(0)
    expect(linesTotal([line(1, 3, 8900), line(2, 1, 45000)])).toBe(71700)
    expect(linesTotal([line(1, 2, 1)])).toBe(2)
  })

  it("is the lines' sum to pay in full, or a Steam amount plus its commission", () => {
    const lines = [line(1, 3, 8900), line(2, 1, 45000)]
    expect(newOrderTotals({ orderId: 'o1', kind: 'PUBGOrder', lines, steam: null })).toEqual({
      orderId: 'o1',
      kind: 'PUBGOrder',
      status: 'created',
      total: 71700,
      totalWithPromo: 71700,
      promoPercent: null,
      balanceUsed: 0,
      totalToPay: 71700,
      lines,
      steam: null,
    })
    // 123.45 × 8 % = 9.876 → 9.88
    expect(
      newOrderTotals({
        orderId: 'o2',
        kind: 'SteamOrder',
        lines: [],
        steam: { amount: 12345, commissionBp: 800 },
      }),
    ).toMatchObject({
      total: 13333,
      totalToPay: 13333,
      balanceUsed: 0,
      steam: { amount: 12345, commission: 988, commissionBp: 800 },
    })
  })
})

describe('image sniffing', () => {
  it('knows PNG, JPEG, GIF and WebP by their first bytes and nothing else', () => {
    const bytes = (...b: number[]) => Uint8Array.from(b)
    const text = (s: string) => new TextEncoder().encode(s)
    expect(sniffImage(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('png')
    expect(sniffImage(bytes(0xff, 0xd8, 0xff, 0xdb))).toBe('jpg')
    expect(sniffImage(text('GIF87a...'))).toBe('gif')
    expect(sniffImage(text('RIFF....WEBPVP8L'))).toBe('webp')
    expect(sniffImage(text('RIFF....WAVEfmt '))).toBeNull()
    expect(sniffImage(text('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(sniffImage(bytes(0x89, 0x50, 0x4e))).toBeNull()
    expect(sniffImage(new Uint8Array())).toBeNull()
  })
})

let api: TestApi
beforeAll(async () => {
  api = await createTestApi()
  await ensureSettings(api)
})
afterAll(() => api.close())

describe("a guest's new order", () => {
  it('stores the totals and unit prices a recalculation gives, lines and Steam alike', async () => {
    const game = await makeGame(api, 'PUBGGame')
    const a = await makeProduct(api, game.id, 'PUBGProduct', { price: 10000, amountUc: 60 })
    const b = await makeProduct(api, game.id, 'PUBGProduct', {
      price: 50000,
      discountPrice: 44900,
      amountUc: 325,
    })
    const created = await api.call<{
      id: string
      total: string
      products: Array<{ id: number; product: number }>
    }>('POST', '/api/orders/pubg/', {
      body: {
        products: [
          { quantity: 3, product_id: a.id },
          { quantity: 2, product_id: b.id },
        ],
        email: 'guest@example.com',
      },
    })
    expect(created.status).toBe(201)
    // 3 × 100.00 + 2 × 449.00 (the discount price)
    expect(created.body.total).toBe('1198.00')
    const id = created.body.id
    const stored = async () => ({
      order: (await api.db.select().from(orders).where(eq(orders.id, id)))[0]!,
      lines: await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, id)),
    })
    const before = await stored()
    expect(before.order).toMatchObject({ total: 119800, totalToPay: 119800, balanceUsed: 0 })
    // the answer names the stored line of each product
    for (const l of created.body.products)
      expect(before.lines.find((r) => r.id === l.id)?.productId).toBe(l.product)
    const t = await recalculateOrder(api.db, id)
    expect([t.total, t.totalToPay, t.balanceUsed]).toEqual([119800, 119800, 0])
    expect(t.lines.map((l) => [l.id, l.unitPrice])).toEqual(
      before.lines.sort((x, y) => x.id - y.id).map((l) => [l.id, l.price]),
    )
    const after = await stored()
    expect(after.order.updated).toEqual(before.order.updated) // nothing was stale to rewrite

    const steam = await makeGame(api, 'Steam')
    await onlyActive(api, 'Steam', steam.id)
    const s = await api.call<{ id: string; total: string }>('POST', '/api/orders/steam/', {
      body: { amount: 123.45, steam_account_id: 'guest-steam', email: 'guest@example.com' },
    })
    expect([s.status, s.body.total]).toEqual([201, '133.33'])
    const [row] = await api.db.select().from(orders).where(eq(orders.id, s.body.id))
    expect([row!.total, row!.totalToPay]).toEqual([13333, 13333])
    expect((await recalculateOrder(api.db, s.body.id)).total).toBe(13333)
  })
})

describe('recalculateOrder', () => {
  it('rewrites the stored numbers of an unpaid order and leaves a paid one alone', async () => {
    const user = await makeUser(api, { balance: 1000 })
    const game = await makeGame(api, 'PUBGGame')
    const p = await makeProduct(api, game.id, 'PUBGProduct', { price: 10000, amountUc: 60 })
    const created = await api.call<{ id: string }>('POST', '/api/orders/pubg/', {
      body: { products: [{ quantity: 3, product_id: p.id }] },
      token: user.token,
    })
    const id = created.body.id
    const [promo] = await api.db
      .insert(promoCodes)
      .values({ code: `P${Date.now()}`, kind: 'PromoCode', percent: 15, gameId: game.id })
      .returning()
    await api.db.update(orders).set({ promoCodeId: promo!.id }).where(eq(orders.id, id))
    const t = await recalculateOrder(api.db, id)
    expect(t).toMatchObject({
      total: 30000,
      totalWithPromo: 25500,
      promoPercent: 15,
      balanceUsed: 1000,
      totalToPay: 24500,
    })
    const [row] = await api.db.select().from(orders).where(eq(orders.id, id))
    expect(row).toMatchObject({ total: 30000, totalToPay: 24500, balanceUsed: 1000 })

    await transitionOrder(api.db, id, 'paid')
    await api.db.update(orders).set({ promoCodeId: null }).where(eq(orders.id, id))
    const paid = await recalculateOrder(api.db, id)
    expect(paid).toMatchObject({ status: 'paid', total: 30000, totalWithPromo: 25500, totalToPay: 24500 })
  })

  it('prices a gift order from the gift (discount price when set)', async () => {
    const [gift] = await api.db
      .insert(gifts)
      .values({ title: 'Gift', type: 'steam', price: 150000, discountPrice: 120000, region: 'RU' })
      .returning()
    const id = randomUUID()
    await api.db
      .insert(orders)
      .values({ id, kind: 'RokkyOrder', giftId: gift!.id, email: 'g@example.com', total: 0, totalToPay: 0 })
    expect(await recalculateOrder(api.db, id)).toMatchObject({ total: 120000, totalToPay: 120000 })
  })

  it('answers 404 for an unknown order', async () => {
    await expect(recalculateOrder(api.db, randomUUID())).rejects.toMatchObject({ status: 404 })
  })
})

describe('serializeOrderHistory', () => {
  it('gives each variant its own fields, PUBG lines with their delivered codes', async () => {
    const user = await makeUser(api)
    const t = { token: user.token }
    const pubg = await makeGame(api, 'PUBGGame')
    const uc = await makeProduct(api, pubg.id, 'PUBGProduct', { price: 9900, amountUc: 60 })
    const standoff = await makeGame(api, 'StandoffGame')
    const gold = await makeProduct(api, standoff.id, 'StandoffProduct', { gold: 100 })
    const supply = await makeGame(api, 'SupplyGame', { isServerNeeded: true, isServerEnum: true })
    const sp = await makeProduct(api, supply.id, 'SupplyProduct')
    const server = await makeServer(api, supply.id)
    const steam = await makeGame(api, 'Steam')
    await onlyActive(api, 'Steam', steam.id)

    const ids = [
      await api.call<{ id: string }>('POST', '/api/orders/pubg/', {
        body: { products: [{ quantity: 2, product_id: uc.id }] },
        ...t,
      }),
      await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
        body: { products: [{ quantity: 1, product_id: gold.id }], game_account_id: 'a1', surplus: '0.11' },
        ...t,
      }),
      await api.call<{ id: string }>('POST', '/api/orders/steam/', {
        body: { amount: 200, steam_account_id: 's1' },
        ...t,
      }),
      await api.call<{ id: string }>('POST', '/api/orders/supply_channel/', {
        body: {
          products: [{ quantity: 1, product_id: sp.id }],
          supply_channel_user_id: 'm1',
          supply_channel_server: server.id,
        },
        ...t,
      }),
    ].map((r) => r.body.id)

    const [line] = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, ids[0]!))
    await api.db.insert(voucherCodes).values([
      {
        productId: uc.id,
        code: `CODE-A-${ids[0]}`,
        amountUc: 60,
        orderProductId: line!.id,
        soldAt: new Date(),
      },
      {
        productId: uc.id,
        code: `CODE-B-${ids[0]}`,
        amountUc: 60,
        orderProductId: line!.id,
        soldAt: new Date(),
      },
      { productId: uc.id, code: `CODE-FREE-${ids[0]}`, amountUc: 60 },
    ])
    await transitionOrder(api.db, ids[0]!, 'paid')

    const rows = await api.db.select().from(orders).where(eq(orders.userId, user.id))
    const byId = new Map(rows.map((r) => [r.id, r]))
    const items = await serializeOrderHistory(
      api.db,
      ids.map((id) => byId.get(id)!),
    )
    for (const item of items) expect(OrderHistorySchema.safeParse(item).success).toBe(true)
    const [p, so, st, mg] = items
    expect(p).toMatchObject({
      resourcetype: 'PUBGOrder',
      status: 'paid',
      is_payment_active: false,
      total: '198.00',
      game: { id: pubg.id, resourcetype: 'PUBGGame' },
      order_products: [
        {
          product: uc.id,
          quantity: 2,
          price: '99.00',
          codes: [
            { code: `CODE-A-${ids[0]}`, amount_uc: 60 },
            { code: `CODE-B-${ids[0]}`, amount_uc: 60 },
          ],
        },
      ],
    })
    expect(so).toMatchObject({
      resourcetype: 'StandoffOrder',
      game_account_id: 'a1',
      surplus: '0.11',
      game_avatar: null,
    })
    expect(st).toMatchObject({
      resourcetype: 'SteamOrder',
      steam_account_id: 's1',
      amount: '200.00',
      total: '216.00',
    })
    expect(mg).toMatchObject({
      resourcetype: 'MooGoldOrder',
      moogold_user_id: 'm1',
      moogold_server: server.id,
    })
    expect(await serializeOrderHistory(api.db, [])).toEqual([])
  })
})
