import { randomUUID } from 'node:crypto'
import { eq, isNotNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { games, orderProducts, orders, payments, products, voucherCodes } from '#api/db/schema'
import { fulfilOrder, pickFulfiller } from '#api/services/fulfilment'
import { type FakeMoogold, MOOGOLD_PARTNER, MOOGOLD_SECRET, startFakeMoogold } from '#tests/fakes/moogold'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { hex, makePubgStock, orderRow, status } from './payments-fixtures'

let api: TestApi
let fake: FakeMoogold
let seen: FakeMoogold['seen']
let details: FakeMoogold['details']
let deps: ApiDeps

beforeAll(async () => {
  fake = await startFakeMoogold()
  ;({ seen, details } = fake)
  api = await createTestApi({ env: fake.env })
  deps = api.deps
})
afterAll(async () => {
  await api.close()
  await fake.close()
})

async function paidOrder(
  values: Partial<typeof orders.$inferInsert> & Pick<typeof orders.$inferInsert, 'kind'>,
) {
  const id = randomUUID()
  await api.db.insert(orders).values({ id, status: 'paid', total: 1000, totalToPay: 1000, ...values })
  return id
}

async function supplyGame(supplier: string, refs: string[]) {
  const [g] = await api.db
    .insert(games)
    .values({ kind: 'SupplyGame', title: `Supply ${hex()}`, supplier, supplierRef: 'mg-1' })
    .returning()
  const ps = await api.db
    .insert(products)
    .values(
      refs.map((r) => ({
        gameId: g!.id,
        kind: 'SupplyProduct' as const,
        title: `P ${r}`,
        price: 1000,
        supplierRef: r,
      })),
    )
    .returning()
  return { game: g!, products: ps }
}

async function moogoldOrder(supplier: string, refs: string[]) {
  const { game, products: ps } = await supplyGame(supplier, refs)
  const id = await paidOrder({
    kind: 'MooGoldOrder',
    gameId: game.id,
    moogoldUserId: '12345678',
    moogoldServerCustomId: 'eu',
  })
  await api.db
    .insert(orderProducts)
    .values(ps.map((p) => ({ orderId: id, productId: p.id, quantity: 2, price: 1000 })))
  return id
}

describe('fulfilment registry', () => {
  it('picks the supplier by order kind and the game’s supplier', () => {
    expect(pickFulfiller({ kind: 'PUBGOrder' }, 'sandbox')?.kinds).toContain('PUBGOrder')
    expect(pickFulfiller({ kind: 'MooGoldOrder' }, 'moogold')?.supplier).toBe('moogold')
    expect(pickFulfiller({ kind: 'MooGoldOrder' }, 'sandbox')?.supplier).toBe('sandbox')
    // a person delivers `manual` games; no adapter delivers a game that names none
    expect(pickFulfiller({ kind: 'SteamOrder' }, 'manual')?.supplier).toBe('manual')
    expect(pickFulfiller({ kind: 'SteamOrder' }, null)).toBeNull()
    expect(pickFulfiller({ kind: 'SteamOrder' }, 'sandbox')).not.toBeNull()
    expect(pickFulfiller({ kind: 'StandoffOrder' }, 'sandbox')).not.toBeNull()
  })

  it.each(['StandoffOrder', 'SteamOrder', 'MooGoldOrder'] as const)(
    'sandbox supplier delivers a %s at once',
    async (kind) => {
      const [g] = await api.db
        .insert(games)
        .values({ kind: 'StandoffGame', title: `Sandbox ${hex()}`, supplier: 'sandbox' })
        .returning()
      const id = await paidOrder({ kind, gameId: g!.id })
      expect(await fulfilOrder(deps, id)).toBe('done')
    },
  )

  it('leaves orders that are not paid alone', async () => {
    const id = await paidOrder({ kind: 'SteamOrder', status: 'waiting_for_payment' })
    expect(await fulfilOrder(deps, id)).toBe('waiting_for_payment')
  })
})

describe('PUBG voucher codes', () => {
  it('delivers one code per unit and is all or nothing across lines', async () => {
    const a = await makePubgStock(api, { codes: 5 })
    const [b] = await api.db
      .insert(products)
      .values({ gameId: a.game.id, kind: 'PUBGProduct', title: '325 UC', price: 40000, amountUc: 325 })
      .returning()
    await api.db.insert(voucherCodes).values({ productId: b!.id, code: `B-${hex(6)}`, amountUc: 325 })
    const id = await paidOrder({ kind: 'PUBGOrder', gameId: a.game.id })
    await api.db.insert(orderProducts).values([
      { orderId: id, productId: a.product.id, quantity: 3, price: 9900 },
      { orderId: id, productId: b!.id, quantity: 2, price: 40000 },
    ])
    expect(await fulfilOrder(deps, id)).toBe('failed')
    const o = await orderRow(api, id)
    expect(o.rejectReason).toMatch(/закончились/)
    expect(o.rejectReason).toContain('325 UC')
    // nothing half-taken: the first line's three codes went back to stock
    const sold = await api.db.select().from(voucherCodes).where(isNotNull(voucherCodes.soldAt))
    expect(sold.filter((c) => c.productId === a.product.id || c.productId === b!.id)).toHaveLength(0)

    const ok = await paidOrder({ kind: 'PUBGOrder', gameId: a.game.id })
    await api.db
      .insert(orderProducts)
      .values({ orderId: ok, productId: a.product.id, quantity: 3, price: 9900 })
    expect(await fulfilOrder(deps, ok)).toBe('done')
    const mine = await api.db.select().from(voucherCodes).where(eq(voucherCodes.productId, a.product.id))
    expect(mine.filter((c) => c.soldAt !== null)).toHaveLength(3)
  })

  it('50 concurrent deliveries for 10 codes (holds bypassed): exactly 10 delivered, all distinct, the rest failed with a reason', async () => {
    // Payments are refused before paying when codes cannot be held (stock-holds.test.ts); this is the
    // delivery's own guarantee underneath, for paid orders that hold nothing (e.g. a hold that expired).
    const { game, product } = await makePubgStock(api, { codes: 10 })
    const ids: string[] = []
    for (let i = 0; i < 50; i++) {
      const id = await paidOrder({ kind: 'PUBGOrder', gameId: game.id })
      await api.db
        .insert(orderProducts)
        .values({ orderId: id, productId: product.id, quantity: 1, price: 9900 })
      ids.push(id)
    }
    const started = Date.now()
    const finals = await Promise.all(ids.map((id) => fulfilOrder(deps, id)))
    const elapsed = Date.now() - started
    expect(finals.filter((s) => s === 'done')).toHaveLength(10)
    expect(finals.filter((s) => s === 'failed')).toHaveLength(40)
    for (const [i, id] of ids.entries())
      if (finals[i] === 'failed') expect((await orderRow(api, id)).rejectReason).toMatch(/закончились/)

    const codes = await api.db.select().from(voucherCodes).where(eq(voucherCodes.productId, product.id))
    const sold = codes.filter((c) => c.soldAt !== null)
    expect(sold).toHaveLength(10)
    expect(new Set(sold.map((c) => c.orderProductId)).size).toBe(10)
    console.info(`[fulfilment] 50 concurrent deliveries on ${api.database.kind}: ${elapsed} ms`)
  }, 120_000)
})

describe('MooGold supplier', () => {
  it('signs its requests and finishes a completed order with the supplier ids', async () => {
    const id = await moogoldOrder('moogold', ['mg-a', 'mg-b'])
    const before = seen.length
    expect(await fulfilOrder(deps, id)).toBe('done')
    const calls = seen.slice(before)
    expect(calls).toHaveLength(2)
    expect(calls[0]!.path).toBe('order/create_order')
    expect(calls[0]!.body).toMatchObject({
      path: 'order/create_order',
      data: { 'product-id': 'mg-a', quantity: 2, 'User ID': '12345678', Server: 'eu' },
    })
    expect((await orderRow(api, id)).supplierOrderId).toMatch(/^\d+,\d+$/)
  })

  it('leaves an accepted but unfinished order sent, and status polls finish it', async () => {
    const id = await moogoldOrder('moogold', ['mg-slow'])
    expect(await fulfilOrder(deps, id)).toBe('sent')
    const supplierId = (await orderRow(api, id)).supplierOrderId!
    expect(supplierId).toMatch(/^\d+$/)
    expect((await status(api, id)).body.status).toBe('sent')
    expect(seen.at(-1)).toMatchObject({
      path: 'order/order_detail',
      body: { data: { order_id: supplierId } },
    })
    details.set(supplierId, 'completed')
    expect((await status(api, id)).body.status).toBe('done')

    const refunded = await moogoldOrder('moogold', ['mg-slow'])
    expect(await fulfilOrder(deps, refunded)).toBe('sent')
    details.set((await orderRow(api, refunded)).supplierOrderId!, 'refunded')
    const s = await status(api, refunded)
    expect(s.body.status).toBe('failed')
    expect(s.body.reject_reason).toMatch(/refunded/)
  })

  it.each([
    ['a refusal', 'mg-fail', /Invalid User ID/],
    ['an HTTP error', 'mg-500', /Поставщик/],
  ])('ends failed with the reason on %s, keeping the payment', async (_, ref, reason) => {
    const id = await moogoldOrder('moogold', [ref])
    const paymentId = randomUUID()
    await api.db.insert(payments).values({
      id: paymentId,
      orderId: id,
      methodName: 'x',
      provider: 'sandbox',
      amount: 1000,
      currency: 'RUB',
      status: 'succeeded',
    })
    expect(await fulfilOrder(deps, id)).toBe('failed')
    expect((await orderRow(api, id)).rejectReason).toMatch(reason)
    const [p] = await api.db.select().from(payments).where(eq(payments.id, paymentId))
    expect(p!.status).toBe('succeeded')
  })

  it('fails with a reason when the supplier cannot be reached', async () => {
    const closed = await createTestApi({
      seed: false,
      env: {
        MOOGOLD_PARTNER_ID: MOOGOLD_PARTNER,
        MOOGOLD_SECRET_KEY: MOOGOLD_SECRET,
        MOOGOLD_API_URL: 'http://127.0.0.1:9/',
      },
    })
    try {
      const d: ApiDeps = closed.deps
      const [g] = await closed.db
        .insert(games)
        .values({ kind: 'SupplyGame', title: 'S', supplier: 'moogold' })
        .returning()
      const [p] = await closed.db
        .insert(products)
        .values({ gameId: g!.id, kind: 'SupplyProduct', title: 'P', price: 1000, supplierRef: 'mg-a' })
        .returning()
      const id = randomUUID()
      await closed.db
        .insert(orders)
        .values({ id, kind: 'MooGoldOrder', status: 'paid', gameId: g!.id, total: 1000, totalToPay: 1000 })
      await closed.db
        .insert(orderProducts)
        .values({ orderId: id, productId: p!.id, quantity: 1, price: 1000 })
      expect(await fulfilOrder(d, id)).toBe('failed')
      const [o] = await closed.db.select().from(orders).where(eq(orders.id, id))
      expect(o!.rejectReason).toMatch(/не ответил/)
    } finally {
      await closed.close()
    }
  })
})
