// Issue 38, finding 2: anyone could keep a product sold out forever without paying — three guest
// orders of ten units held all thirty codes, and starting their payments again before the hold ran
// out extended it, while the order clock skipped orders with a recent payment start. Now an order's
// hold ends STOCK_HOLD_MINUTES after its first payment start whatever the re-starts, an unpaid order
// expires by its age, and one buyer (address, email, account) holds at most STOCK_HOLD_MAX_CODES
// codes at once. Decision 046.
import { eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, payments, voucherCodes } from '#api/db/schema'
import { createJobWorker } from '#api/jobs/worker'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { enqueue } from '#api/jobs/queue'
import { CLIENT_IP_HEADER } from '#api/lib/client-address'
import { EXPIRE_JOB } from '#api/services/orders/expiry'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import {
  createPubgOrder,
  type Err,
  hex,
  makePubgStock,
  makeSandboxMethod,
  type PayAnswer,
} from './payments-fixtures'

let api: TestApi
let method: string

beforeAll(async () => {
  api = await createTestApi()
  method = (await makeSandboxMethod(api, 'redirect')).method.name
})
afterAll(() => api?.close())

let n = 0
const newAddress = () => `10.46.${Math.floor(++n / 250)}.${n % 250}`

const start = (orderId: string, address: string) =>
  api.call<PayAnswer & Err>('POST', `/api/payments/${method}/`, {
    body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
    headers: { [CLIENT_IP_HEADER]: address },
  })

const heldUntil = async (orderId: string) => {
  const rows = await api.db.select().from(voucherCodes).where(eq(voucherCodes.heldBy, orderId))
  return rows.map((r) => r.heldUntil?.getTime() ?? 0)
}

/** Moves the order's payment starts and holds `minutes` into the past, as if that time went by. */
async function timePasses(orderIds: string[], minutes: number) {
  await api.db
    .update(payments)
    .set({ created: sql`${payments.created} - make_interval(mins => ${minutes})` })
    .where(inArray(payments.orderId, orderIds))
  await api.db
    .update(voucherCodes)
    .set({ heldUntil: sql`${voucherCodes.heldUntil} - make_interval(mins => ${minutes})` })
    .where(inArray(voucherCodes.heldBy, orderIds))
}

const inStock = async (productId: number) =>
  (await api.call<{ in_stock?: boolean }>('GET', `/api/products/${productId}/`)).body.in_stock

describe('a hold has an end', () => {
  it('payment starts repeated every 29 minutes do not keep the codes: the hold ends 30 minutes after the first', async () => {
    const { product } = await makePubgStock(api, { codes: 10 })
    const address = newAddress()
    const order = await createPubgOrder(api, product.id, { quantity: 10 })
    expect((await start(order, address)).status).toBe(200)
    const first = await heldUntil(order)
    expect(first).toHaveLength(10)
    expect(await inStock(product.id)).toBe(false)

    // the attacker starts the payment again after 29 minutes: accepted, but the hold is not extended
    await timePasses([order], 29)
    expect((await start(order, address)).status).toBe(200)
    const after = await heldUntil(order)
    for (const t of after) expect(t).toBeLessThanOrEqual(Date.now() + 2 * 60_000)

    // and after the 30 minutes the order cannot hold them again: the codes go back on sale
    await timePasses([order], 2)
    const again = await start(order, address)
    expect(again.status).toBe(409)
    expect(again.body.code).toBe('hold_time_over')
    expect(again.body.detail).toMatch(/Время на оплату этого заказа вышло/)
    expect(await inStock(product.id)).toBe(true)
    const buyer = await createPubgOrder(api, product.id, { quantity: 10 })
    expect((await start(buyer, newAddress())).status).toBe(200)
  })

  it('one address holds at most STOCK_HOLD_MAX_CODES codes at once, whatever the emails', async () => {
    const { product } = await makePubgStock(api, { codes: 40 })
    const address = newAddress()
    const ids = [] as string[]
    for (let i = 0; i < 3; i++) ids.push(await createPubgOrder(api, product.id, { quantity: 10 }))
    expect((await start(ids[0]!, address)).status).toBe(200)
    expect((await start(ids[1]!, address)).status).toBe(200)
    const third = await start(ids[2]!, address)
    expect(third.status).toBe(409)
    expect(third.body.code).toBe('hold_limit')
    expect(third.body.detail).toContain('не больше 20')
    // the refused start held nothing: ten codes stay for other buyers
    expect(await api.db.select().from(voucherCodes).where(eq(voucherCodes.heldBy, ids[2]!))).toEqual([])
    expect((await start(ids[2]!, newAddress())).status).toBe(200)
  })

  it('one email holds at most STOCK_HOLD_MAX_CODES codes at once, whatever the addresses', async () => {
    const { product } = await makePubgStock(api, { codes: 30 })
    const email = `Hoarder-${hex()}@example.com`
    const ids = [] as string[]
    for (let i = 0; i < 3; i++)
      ids.push(
        await createPubgOrder(api, product.id, {
          quantity: 10,
          email: i === 2 ? email.toLowerCase() : email,
        }),
      )
    expect((await start(ids[0]!, newAddress())).status).toBe(200)
    expect((await start(ids[1]!, newAddress())).status).toBe(200)
    const third = await start(ids[2]!, newAddress())
    expect(third.status).toBe(409)
    expect(third.body.code).toBe('hold_limit')
  })
})

describe('an unpaid order expires by its age', () => {
  it('ORDER_TTL_HOURS fires even with a payment started a minute ago, one hold time late at most', async () => {
    const { product } = await makePubgStock(api, { codes: 2 })
    const kept = await createPubgOrder(api, product.id)
    const grace = await createPubgOrder(api, product.id)
    for (const id of [kept, grace]) expect((await start(id, newAddress())).status).toBe(200)
    await api.db
      .update(orders)
      .set({ created: sql`now() - interval '24 hours 31 minutes'` })
      .where(eq(orders.id, kept))
    await api.db
      .update(orders)
      .set({ created: sql`now() - interval '24 hours 10 minutes'` })
      .where(eq(orders.id, grace))
    await enqueue(api.db, { kind: EXPIRE_JOB, key: `expire-38-${hex()}` })
    await createJobWorker(api.deps, { handlers: JOB_HANDLERS, onError: () => {} }).runDue()
    const status = async (id: string) =>
      (await api.db.select().from(orders).where(eq(orders.id, id)))[0]!.status
    expect(await status(kept)).toBe('failed')
    expect(await status(grace)).toBe('waiting_for_payment')
    expect(await api.db.select().from(voucherCodes).where(eq(voucherCodes.heldBy, kept))).toEqual([])
  })
})
