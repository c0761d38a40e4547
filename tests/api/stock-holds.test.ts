// Stock held before paying (issue 12): codes are reserved when a payment starts, a payment that
// cannot reserve them is refused before the shopper pays, expired or cancelled holds give the codes
// back, and a sold-out product or gift shows as such and cannot be ordered.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { giftCodes, gifts, orders, voucherCodes } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
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

let api: TestApi
let method: string

beforeAll(async () => {
  api = await createTestApi()
  method = (await makeSandboxMethod(api, 'redirect')).method.name
})
afterAll(() => api?.close())

const codesOf = (productId: number) =>
  api.db.select().from(voucherCodes).where(eq(voucherCodes.productId, productId))

/** Moves every hold of an order into the past, as if STOCK_HOLD_MINUTES had gone by. */
async function expireHolds(orderId: string) {
  await api.db
    .update(voucherCodes)
    .set({ heldUntil: sql`now() - interval '1 second'` })
    .where(eq(voucherCodes.heldBy, orderId))
  await api.db
    .update(giftCodes)
    .set({ heldUntil: sql`now() - interval '1 second'` })
    .where(eq(giftCodes.heldBy, orderId))
}

async function productInStock(productId: number) {
  const r = await api.call<{ in_stock?: boolean }>('GET', `/api/products/${productId}/`)
  expect(r.status).toBe(200)
  return r.body.in_stock
}

/**
 * Buyers race for the codes: every order is created first (creation holds nothing), then all the
 * payments start at once. Returns the answers in order.
 */
async function race(productId: number, buyers: number, quantity: number) {
  const ids: string[] = []
  for (let i = 0; i < buyers; i++) ids.push(await createPubgOrder(api, productId, { quantity }))
  const started = Date.now()
  const answers = await Promise.all(ids.map((id) => pay(api, method, id)))
  return { ids, answers, ms: Date.now() - started }
}

describe('a payment starts only with the codes held', () => {
  it('50 buyers racing for 10 codes: 10 pay, 40 are refused before paying, nobody ends failed', async () => {
    const { product } = await makePubgStock(api, { codes: 10 })
    const { ids, answers, ms } = await race(product.id, 50, 1)
    const accepted = answers.filter((a) => a.status === 200)
    const refused = answers.filter((a) => a.status === 409)
    expect(accepted).toHaveLength(10)
    expect(refused).toHaveLength(40)
    for (const r of refused) {
      expect(r.body.code).toBe('out_of_stock')
      expect((r.body as Err).detail).toMatch(/нет в наличии/)
    }
    // every code is held by exactly one accepted order; none twice (oversells: 0)
    const codes = await codesOf(product.id)
    const holders = codes.map((c) => c.heldBy)
    expect(new Set(holders).size).toBe(10)
    const acceptedIds = ids.filter((_, i) => answers[i]!.status === 200)
    expect(new Set(holders)).toEqual(new Set(acceptedIds))
    expect(await productInStock(product.id)).toBe(false)

    for (const a of accepted)
      expect((await pressOnCheckout(api, a.body.payment_id, 'confirm')).status).toBe(303)
    const finals = await Promise.all(ids.map((id) => status(api, id)))
    const byId = new Map(finals.map((f) => [f.body.id, f.body]))
    for (const id of acceptedIds) expect(byId.get(id)?.status).toBe('done')
    // the refused ones were never paid: still payable, not failed after paying
    for (const id of ids.filter((i) => !acceptedIds.includes(i))) {
      expect(byId.get(id)?.status).toBe('created')
      expect(byId.get(id)?.payment_status).toBeNull()
    }
    const sold = (await codesOf(product.id)).filter((c) => c.soldAt !== null)
    expect(sold).toHaveLength(10)
    expect(new Set(sold.map((c) => c.orderProductId)).size).toBe(10)
    console.info(`[holds] 50 concurrent payment starts for 10 codes on ${api.database.kind}: ${ms} ms`)
  }, 120_000)

  it('30 codes, 3 per order, 25 buyers: exactly 10 orders hold 3 codes each, no code held twice', async () => {
    const { product } = await makePubgStock(api, { codes: 30 })
    const { ids, answers } = await race(product.id, 25, 3)
    const acceptedIds = ids.filter((_, i) => answers[i]!.status === 200)
    expect(acceptedIds).toHaveLength(10)
    expect(answers.filter((a) => a.status === 409)).toHaveLength(15)
    const codes = await codesOf(product.id)
    for (const id of acceptedIds) expect(codes.filter((c) => c.heldBy === id)).toHaveLength(3)
    expect(codes.filter((c) => c.heldBy === null || !acceptedIds.includes(c.heldBy))).toEqual([])
  }, 120_000)

  it('a second payment start of the same order keeps its hold instead of taking more', async () => {
    const { product } = await makePubgStock(api, { codes: 4 })
    const id = await createPubgOrder(api, product.id, { quantity: 3 })
    expect((await pay(api, method, id)).status).toBe(200)
    expect((await pay(api, method, id)).status).toBe(200)
    const held = (await codesOf(product.id)).filter((c) => c.heldBy === id)
    expect(held).toHaveLength(3)
    // one code is left for somebody else
    const other = await createPubgOrder(api, product.id, { quantity: 1 })
    expect((await pay(api, method, other)).status).toBe(200)
  })

  it('an order that shrinks gives back what it no longer needs at its next payment start', async () => {
    const { product } = await makePubgStock(api, { codes: 3 })
    const id = await createPubgOrder(api, product.id, { quantity: 3 })
    expect((await pay(api, method, id)).status).toBe(200)
    const upd = await api.call('POST', `/api/orders/pubg/${id}/update/`, {
      body: { products: [{ id: product.id, quantity: 1 }] },
    })
    expect(upd.status, JSON.stringify(upd.body)).toBe(200)
    expect((await pay(api, method, id)).status).toBe(200)
    expect((await codesOf(product.id)).filter((c) => c.heldBy === id)).toHaveLength(1)
    expect(await productInStock(product.id)).toBe(true)
  })
})

describe('holds end', () => {
  it('an expired hold returns its codes: another buyer pays; the late payment ends failed, not oversold', async () => {
    const { product } = await makePubgStock(api, { codes: 2 })
    const first = await createPubgOrder(api, product.id, { quantity: 2 })
    const p1 = await pay(api, method, first)
    expect(p1.status).toBe(200)
    const second = await createPubgOrder(api, product.id, { quantity: 2 }).catch((e: Error) => e.message)
    expect(second).toMatch(/409/) // sold out while held
    expect(await productInStock(product.id)).toBe(false)

    await expireHolds(first)
    expect(await productInStock(product.id)).toBe(true)
    const late = await createPubgOrder(api, product.id, { quantity: 2 })
    const p2 = await pay(api, method, late)
    expect(p2.status).toBe(200)
    expect((await pressOnCheckout(api, p2.body.payment_id, 'confirm')).status).toBe(303)
    expect((await status(api, late)).body.status).toBe('done')
    // the first buyer pays after their hold ran out and the codes were sold: no code is sold twice
    await pressOnCheckout(api, p1.body.payment_id, 'confirm')
    expect((await status(api, first)).body.status).toBe('failed')
    const sold = (await codesOf(product.id)).filter((c) => c.soldAt !== null)
    expect(sold).toHaveLength(2)
  })

  it('an order that fails (cancelled, expired) gives its held codes back at once', async () => {
    const { product } = await makePubgStock(api, { codes: 1 })
    const id = await createPubgOrder(api, product.id)
    expect((await pay(api, method, id)).status).toBe(200)
    expect(await productInStock(product.id)).toBe(false)
    const { transitionOrder } = await import('#api/services/orders/state-machine')
    await transitionOrder(api.db, id, 'failed', { rejectReason: 'test' })
    const [code] = await codesOf(product.id)
    expect(code!.heldBy).toBeNull()
    expect(await productInStock(product.id)).toBe(true)
  })
})

describe('sold out', () => {
  it('a product with few free codes says how many (stock_left, issue 50); with more, not at all', async () => {
    const { game, product } = await makePubgStock(api, { codes: 3 })
    type Wire = { id: number; in_stock?: boolean; stock_left?: number }
    const read = async () => {
      const one = await api.call<Wire>('GET', `/api/products/${product.id}/`)
      const g = await api.call<{ products: Wire[] }>('GET', `/api/games/${game.id}/`)
      return [one.body, g.body.products.find((p) => p.id === product.id)]
    }
    for (const p of await read()) expect(p).toMatchObject({ in_stock: true, stock_left: 3 })
    // a code held for a payment is not free
    await api.db
      .update(voucherCodes)
      .set({ heldUntil: sql`now() + interval '10 minutes'` })
      .where(eq(voucherCodes.id, (await codesOf(product.id))[0]!.id))
    for (const p of await read()) expect(p?.stock_left).toBe(2)
    // 2 + 4 = 6 free: more than a few, the count is not published
    await api.db.insert(voucherCodes).values(
      Array.from({ length: 4 }, (_, i) => ({
        productId: product.id,
        code: `L-${hex(6)}-${i}`,
        amountUc: 60,
      })),
    )
    for (const p of await read()) {
      expect(p?.in_stock).toBe(true)
      expect(p).not.toHaveProperty('stock_left')
    }
    const none = await makePubgStock(api, { codes: 0 })
    const sold = await api.call<Wire>('GET', `/api/products/${none.product.id}/`)
    expect(sold.body).toMatchObject({ in_stock: false, stock_left: 0 })
  })

  it('a product without free codes is «Нет в наличии» and cannot be ordered; it comes back with stock', async () => {
    const { game, product } = await makePubgStock(api, { codes: 0 })
    expect(await productInStock(product.id)).toBe(false)
    const g = await api.call<{ products: Array<{ id: number; in_stock?: boolean }> }>(
      'GET',
      `/api/games/${game.id}/`,
    )
    expect(g.body.products.find((p) => p.id === product.id)?.in_stock).toBe(false)
    const r = await api.call<Err>('POST', '/api/orders/pubg/', {
      body: { products: [{ product_id: product.id, quantity: 1 }], email: `b-${hex()}@example.com` },
    })
    expect(r.status).toBe(409)
    expect(r.body.code).toBe('sold_out')
    expect(r.body.detail).toBe(`«${product.title}» нет в наличии`)
    expect(r.body.fields?.products?.[0]).toBe(r.body.detail)

    await api.db.insert(voucherCodes).values({ productId: product.id, code: `N-${hex(6)}`, amountUc: 60 })
    expect(await productInStock(product.id)).toBe(true)
    expect(await createPubgOrder(api, product.id)).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('asking for more than is free names what is left', async () => {
    const { product } = await makePubgStock(api, { codes: 2 })
    const r = await api.call<Err>('POST', '/api/orders/pubg/', {
      body: { products: [{ product_id: product.id, quantity: 3 }], email: `b-${hex()}@example.com` },
    })
    expect(r.status).toBe(409)
    expect(r.body.code).toBe('out_of_stock')
    expect(r.body.detail).toContain('доступно: 2')
  })

  it('a gift whose last code is held for a payment is out of stock until the hold ends', async () => {
    const [g] = await api.db
      .insert(gifts)
      .values({ title: `Карта ${hex()}`, type: 'Карта', region: 'Россия', price: 10000 })
      .returning()
    await api.db.insert(giftCodes).values({ giftId: g!.id, code: `G-${hex(6)}` })
    const a = await api.call<{ id: string }>('POST', '/api/orders/rokky/', {
      body: { gift: g!.id, email: `a-${hex()}@example.com` },
    })
    expect(a.status).toBe(201)
    const b = await api.call<{ id: string }>('POST', '/api/orders/rokky/', {
      body: { gift: g!.id, email: `b-${hex()}@example.com` },
    })
    expect(b.status).toBe(201)
    expect((await pay(api, method, a.body.id)).status).toBe(200)
    const refused = await pay(api, method, b.body.id)
    expect(refused.status).toBe(409)
    expect(refused.body.code).toBe('out_of_stock')
    const detail = await api.call<{ in_stock: boolean }>('GET', `/api/gifts/${g!.id}/`)
    expect(detail.body.in_stock).toBe(false)
    await expireHolds(a.body.id)
    expect((await api.call<{ in_stock: boolean }>('GET', `/api/gifts/${g!.id}/`)).body.in_stock).toBe(true)
    expect((await pay(api, method, b.body.id)).status).toBe(200)
    const [o] = await api.db.select().from(orders).where(eq(orders.id, b.body.id))
    expect(o!.status).toBe('waiting_for_payment')
  })
})
