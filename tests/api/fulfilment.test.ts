import { randomUUID } from 'node:crypto'
import { createHmac } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { eq, isNotNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { games, orderProducts, orders, payments, products, voucherCodes } from '#api/db/schema'
import { fulfilOrder, pickFulfiller } from '#api/services/fulfilment'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import {
  createPubgOrder,
  hex,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  pay,
  pressOnCheckout,
  status,
} from './payments-fixtures'

const PARTNER = 'partner-1'
const SECRET = 'moogold-secret'

interface Seen {
  path: string
  body: Record<string, unknown>
}

/** A local stand-in for the MooGold API: checks the auth headers and answers by product id. */
const details = new Map<string, string>()

function startFakeMoogold(seen: Seen[]): Promise<Server> {
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (d) => {
      raw += d
    })
    req.on('end', () => {
      const path = (req.url ?? '').replace(/^\//, '')
      const ts = String(req.headers.timestamp ?? '')
      const expected = createHmac('sha256', SECRET).update(`${raw}${ts}${path}`).digest('hex')
      const basic = `Basic ${Buffer.from(`${PARTNER}:${SECRET}`).toString('base64')}`
      // one request per connection: no idle keep-alive socket for the client to race against
      res.setHeader('connection', 'close')
      res.setHeader('content-type', 'application/json')
      if (req.headers.auth !== expected || req.headers.authorization !== basic) {
        res.statusCode = 401
        res.end(JSON.stringify({ status: false, err_code: 401, err_message: 'Bad auth' }))
        return
      }
      const body = JSON.parse(raw) as { data: Record<string, unknown> }
      seen.push({ path, body })
      if (path === 'order/order_detail') {
        const id = String(body.data.order_id)
        res.end(JSON.stringify({ order_id: id, order_status: details.get(id) ?? 'processing' }))
        return
      }
      const product = String(body.data['product-id'])
      if (product === 'mg-fail')
        res.end(JSON.stringify({ status: false, err_code: 422, err_message: 'Invalid User ID' }))
      else if (product === 'mg-500') {
        res.statusCode = 500
        res.end('oops')
      } else
        res.end(
          JSON.stringify({
            status: true,
            message: 'Order created',
            order_id: 7000 + seen.length,
            order_status: product === 'mg-slow' ? 'processing' : 'completed',
          }),
        )
    })
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

let api: TestApi
let fake: Server
const seen: Seen[] = []
let deps: ApiDeps

beforeAll(async () => {
  fake = await startFakeMoogold(seen)
  const url = `http://127.0.0.1:${(fake.address() as AddressInfo).port}/`
  api = await createTestApi({
    env: { MOOGOLD_PARTNER_ID: PARTNER, MOOGOLD_SECRET_KEY: SECRET, MOOGOLD_API_URL: url },
  })
  deps = { db: api.db, config: api.config, fetch: globalThis.fetch }
})
afterAll(async () => {
  await api.close()
  await new Promise((r) => fake.close(r))
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
    expect(pickFulfiller({ kind: 'MooGoldOrder' }, 'sandbox')?.supplier).toBeUndefined()
    expect(pickFulfiller({ kind: 'SteamOrder' }, 'sandbox')).not.toBeNull()
    expect(pickFulfiller({ kind: 'StandoffOrder' }, 'sandbox')).not.toBeNull()
  })

  it.each(['StandoffOrder', 'SteamOrder', 'MooGoldOrder'] as const)(
    'sandbox supplier delivers a %s at once',
    async (kind) => {
      const id = await paidOrder({ kind })
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

  it('50 concurrent buyers for 10 codes: exactly 10 delivered, all distinct, the rest failed with a reason', async () => {
    const { product } = await makePubgStock(api, { codes: 10 })
    const { method } = await makeSandboxMethod(api, 'redirect')
    const ids: string[] = []
    const paymentIds: string[] = []
    for (let i = 0; i < 50; i++) {
      const id = await createPubgOrder(api, product.id)
      const r = await pay(api, method.name, id)
      expect(r.status).toBe(200)
      ids.push(id)
      paymentIds.push(r.body.payment_id)
    }
    const started = Date.now()
    const confirms = await Promise.all(paymentIds.map((p) => pressOnCheckout(api, p, 'confirm')))
    const elapsed = Date.now() - started
    expect(confirms.every((c) => c.status === 303)).toBe(true)

    const finals = await Promise.all(ids.map((id) => status(api, id)))
    const done = finals.filter((s) => s.body.status === 'done')
    const failed = finals.filter((s) => s.body.status === 'failed')
    expect(done).toHaveLength(10)
    expect(failed).toHaveLength(40)
    for (const f of failed) expect(f.body.reject_reason).toMatch(/закончились/)
    // every payment stays succeeded: a failed delivery never loses a payment
    for (const s of finals) expect(s.body.payment_status).toBe('succeeded')

    const codes = await api.db.select().from(voucherCodes).where(eq(voucherCodes.productId, product.id))
    const sold = codes.filter((c) => c.soldAt !== null)
    expect(sold).toHaveLength(10)
    expect(new Set(sold.map((c) => c.orderProductId)).size).toBe(10)
    const lines = await Promise.all(
      done.map((s) => api.db.select().from(orderProducts).where(eq(orderProducts.orderId, s.body.id))),
    )
    expect(new Set(lines.flat().map((l) => l.id))).toEqual(new Set(sold.map((c) => c.orderProductId)))
    console.info(`[fulfilment] 50 concurrent confirms on ${api.database.kind}: ${elapsed} ms`)
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
        MOOGOLD_PARTNER_ID: PARTNER,
        MOOGOLD_SECRET_KEY: SECRET,
        MOOGOLD_API_URL: 'http://127.0.0.1:9/',
      },
    })
    try {
      const d: ApiDeps = { db: closed.db, config: closed.config, fetch: globalThis.fetch }
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
