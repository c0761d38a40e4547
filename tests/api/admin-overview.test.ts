// The back-office overview's figures, exactly: revenue per day and per currency (gross, refunds,
// net), orders by status, the paid share, top products (delivered and not refunded), low stock and
// the orders that need a person, for today / 7 / 30 days, over a database holding only the orders,
// products, codes and refunds this file makes.
import { randomUUID } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { giftCodes, gifts, orderProducts, orders, payments, refunds, voucherCodes } from '#api/db/schema'
import { grantRole } from '#api/services/admin/roles'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeGame, makeProduct, makeUser } from './orders-fixtures'

type OrderStatus = (typeof orders.$inferInsert)['status']
interface Overview {
  days: number
  revenue_by_day: Array<{ day: string; currency: string; amount: string }>
  revenue: Array<{ currency: string; amount: string; refunds: string; net: string }>
  orders_by_status: Record<string, number>
  orders_created: number
  orders_paid: number
  paid_percent: number
  top_products: Array<{ id: number; title: string; quantity: number; revenue: string }>
  low_stock: Array<{ kind: string; id: number; title: string; free: number; sold: number }>
  needs_attention: Array<{
    id: string
    status: string
    reason: string | null
    created: string
    waiting: 'delivery' | 'review' | null
  }>
}

const DAY = 86_400_000
const now = new Date()
/** The start of today (UTC): the overview's days are calendar days in UTC, like its chart. */
const T = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
const at = (ms: number) => new Date(ms)
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10)

let api: TestApi
let owner: Awaited<ReturnType<typeof makeUser>>
const p: Record<'A' | 'B' | 'C' | 'D', { id: number; title: string }> = {} as never
const g: Record<'low' | 'enough', { id: number; title: string }> = {} as never
const o: Record<string, string> = {}
let gameId: number

/** An order as the state machine would have left it, with its lines and its payment. */
async function addOrder(
  name: string,
  opts: {
    status: OrderStatus
    created: number
    paid?: boolean
    updated?: number
    reason?: string
    lines?: Array<[keyof typeof p, number, number]>
    payment?: { amount: number; currency?: string; status: 'pending' | 'succeeded' | 'failed' }
  },
) {
  const id = randomUUID()
  const lines = opts.lines ?? []
  const total = lines.reduce((a, [, q, price]) => a + q * price, 0)
  await api.db.insert(orders).values({
    id,
    kind: 'PUBGOrder',
    status: opts.status,
    gameId,
    email: `${name}@example.com`,
    total,
    totalToPay: total,
    rejectReason: opts.reason ?? null,
    created: at(opts.created),
    updated: at(opts.updated ?? now.getTime()),
    paidAt: opts.paid ? at(opts.created) : null,
  })
  if (lines.length)
    await api.db
      .insert(orderProducts)
      .values(lines.map(([key, quantity, price]) => ({ orderId: id, productId: p[key].id, quantity, price })))
  if (opts.payment)
    await api.db.insert(payments).values({
      id: randomUUID(),
      orderId: id,
      methodName: 'Sandbox',
      provider: 'sandbox',
      amount: opts.payment.amount,
      currency: opts.payment.currency ?? 'RUB',
      status: opts.payment.status,
      created: at(opts.created),
    })
  o[name] = id
}

beforeAll(async () => {
  // no demo data: every figure below comes from this file's rows alone
  api = await createTestApi({ seed: false })
  owner = await makeUser(api)
  await grantRole(api.db, owner.email, 'owner', 'test')
  gameId = (await makeGame(api, 'PUBGGame')).id
  // free codes: A 10 (just enough), B 3 of 5 (2 sold), C none, D 9 (just too few)
  p.A = await makeProduct(api, gameId, 'PUBGProduct', { price: 10000, amountUc: 60, codes: 10 })
  p.B = await makeProduct(api, gameId, 'PUBGProduct', { price: 5000, amountUc: 30, codes: 5 })
  p.C = await makeProduct(api, gameId, 'PUBGProduct', { price: 10000, amountUc: 60, codes: 0 })
  p.D = await makeProduct(api, gameId, 'PUBGProduct', { price: 10000, amountUc: 60, codes: 9 })
  const sold = await api.db
    .select({ id: voucherCodes.id })
    .from(voucherCodes)
    .where(eq(voucherCodes.productId, p.B.id))
  await api.db
    .update(voucherCodes)
    .set({ soldAt: now })
    .where(
      inArray(
        voucherCodes.id,
        sold.slice(0, 2).map((c) => c.id),
      ),
    )
  for (const [key, free] of [
    ['low', 1],
    ['enough', 10],
  ] as const) {
    const [gift] = await api.db
      .insert(gifts)
      .values({ title: `Gift ${key}`, type: 'card', price: 50000, region: 'RU' })
      .returning()
    g[key] = gift!
    await api.db
      .insert(giftCodes)
      .values(Array.from({ length: free }, (_, i) => ({ giftId: gift!.id, code: `G-${key}-${i}` })))
  }

  // today
  await addOrder('o1', {
    status: 'done',
    created: T,
    paid: true,
    lines: [
      ['A', 1, 10000],
      ['B', 1, 5000],
    ],
    payment: { amount: 15000, status: 'succeeded' },
  })
  await addOrder('o2', {
    status: 'done',
    created: T + 1000,
    paid: true,
    lines: [['B', 2, 7500]],
    payment: { amount: 2000, currency: 'USD', status: 'succeeded' },
  })
  await addOrder('o5', { status: 'created', created: T, lines: [['A', 1, 10000]] })
  await addOrder('o8', {
    status: 'failed',
    created: T,
    reason: 'Отменён',
    lines: [['A', 9, 11100]],
    payment: { amount: 99900, status: 'failed' },
  })
  await addOrder('o10', {
    status: 'sent',
    created: T,
    paid: true,
    lines: [['B', 1, 6000]],
    payment: { amount: 6000, status: 'succeeded' },
  })
  // the last moment of yesterday
  await addOrder('o13', {
    status: 'done',
    created: T - 1,
    paid: true,
    lines: [['A', 1, 700]],
    payment: { amount: 700, status: 'succeeded' },
  })
  // yesterday: a paid order that failed, and one stuck in `sent` for two hours
  await addOrder('o7', {
    status: 'failed',
    created: T - DAY,
    paid: true,
    reason: 'Коды закончились',
    lines: [['C', 1, 8000]],
    payment: { amount: 8000, status: 'succeeded' },
  })
  await addOrder('o9', {
    status: 'sent',
    created: T - DAY + 3_600_000,
    updated: now.getTime() - 2 * 3_600_000,
    paid: true,
    lines: [['B', 1, 4000]],
    payment: { amount: 4000, status: 'succeeded' },
  })
  await addOrder('o6', {
    status: 'waiting_for_payment',
    created: T - 2 * DAY,
    lines: [['A', 1, 10000]],
    payment: { amount: 7000, status: 'pending' },
  })
  await addOrder('o3', {
    status: 'done',
    created: T - 3 * DAY + 12 * 3_600_000,
    paid: true,
    lines: [['A', 3, 10000]],
    payment: { amount: 30000, status: 'succeeded' },
  })
  // the first moment of the 7-day period, and the last one before it
  await addOrder('o14', {
    status: 'done',
    created: T - 6 * DAY,
    paid: true,
    lines: [['B', 1, 1100]],
    payment: { amount: 1100, status: 'succeeded' },
  })
  await addOrder('o15', {
    status: 'done',
    created: T - 6 * DAY - 1,
    paid: true,
    lines: [['B', 1, 1300]],
    payment: { amount: 1300, status: 'succeeded' },
  })
  await addOrder('o4', {
    status: 'done',
    created: T - 20 * DAY,
    paid: true,
    lines: [['C', 5, 10000]],
    payment: { amount: 50000, status: 'succeeded' },
  })
  // older than every period: counted nowhere, except an order stuck after payment
  await addOrder('o11', {
    status: 'done',
    created: T - 40 * DAY,
    paid: true,
    lines: [['A', 10, 10000]],
    payment: { amount: 100000, status: 'succeeded' },
  })
  await addOrder('o12', {
    status: 'failed',
    created: T - 40 * DAY,
    paid: true,
    reason: 'old',
    payment: { amount: 1000, status: 'succeeded' },
  })
  await addOrder('o16', {
    status: 'paid',
    created: T - 40 * DAY,
    updated: now.getTime() - 45 * 60_000,
    paid: true,
    payment: { amount: 2500, status: 'succeeded' },
  })
  // refunds of delivered orders (issue 37: a refunded payment was counted as revenue): o3's 300.00
  // RUB back to the card two days ago, o2's 20.00 USD to the buyer's balance today
  await api.db.insert(refunds).values([
    {
      orderId: o.o3!,
      method: 'provider',
      status: 'done',
      amount: 30000,
      reason: 'код не подошёл',
      created: at(T - 2 * DAY),
    },
    {
      orderId: o.o2!,
      method: 'balance',
      status: 'done',
      amount: 15000,
      toBalance: 15000,
      reason: 'игрок не получил',
      created: at(T + 2000),
    },
  ])
})
afterAll(() => api?.close())

async function overviewFor(days: 1 | 7 | 30) {
  const r = await api.call<Overview>('GET', `/api/admin/overview/?days=${days}`, { token: owner.token })
  expect(r.status).toBe(200)
  return r.body
}

const statuses = (counts: Partial<Record<string, number>>) => ({
  created: 0,
  waiting_for_payment: 0,
  paid: 0,
  sending: 0,
  sent: 0,
  done: 0,
  failed: 0,
  ...counts,
})
const top = (key: keyof typeof p, quantity: number, revenue: string) => ({
  id: p[key].id,
  title: p[key].title,
  quantity,
  revenue,
})
const attention = (name: string, status: string, reason: string | null, created: number) => ({
  id: o[name],
  // the short number people read out (decision 135)
  number: expect.any(Number),
  status,
  reason,
  created: at(created).toISOString(),
  // none of these waits for a person's delivery or a review (tests/api/awaiting-delivery.test.ts)
  waiting: null,
})

describe('the overview', () => {
  it('today: today’s payments only, per currency; today’s orders', async () => {
    const ov = await overviewFor(1)
    expect(ov.days).toBe(1)
    expect(ov.revenue_by_day).toEqual([
      { day: dayOf(T), currency: 'RUB', amount: '210.00' },
      { day: dayOf(T), currency: 'USD', amount: '20.00' },
    ])
    expect(ov.revenue).toEqual([
      { currency: 'RUB', amount: '210.00', refunds: '0.00', net: '210.00' },
      { currency: 'USD', amount: '20.00', refunds: '20.00', net: '0.00' },
    ])
    expect(ov.orders_by_status).toEqual(statuses({ created: 1, done: 2, failed: 1, sent: 1 }))
    expect(ov.orders_created).toBe(5)
    expect(ov.orders_paid).toBe(3)
    expect(ov.paid_percent).toBe(60)
    // sold = delivered and not refunded: o1 only (o2 was refunded, o10 is not delivered yet)
    expect(ov.top_products).toEqual([top('A', 1, '100.00'), top('B', 1, '50.00')])
    expect(ov.needs_attention).toEqual([
      attention('o9', 'sent', null, T - DAY + 3_600_000),
      attention('o16', 'paid', null, T - 40 * DAY),
    ])
  })

  it('7 days: today and the six days before it', async () => {
    const ov = await overviewFor(7)
    expect(ov.days).toBe(7)
    expect(ov.revenue_by_day).toEqual([
      { day: dayOf(T - 6 * DAY), currency: 'RUB', amount: '11.00' },
      { day: dayOf(T - 3 * DAY), currency: 'RUB', amount: '300.00' },
      { day: dayOf(T - DAY), currency: 'RUB', amount: '127.00' },
      { day: dayOf(T), currency: 'RUB', amount: '210.00' },
      { day: dayOf(T), currency: 'USD', amount: '20.00' },
    ])
    expect(ov.revenue).toEqual([
      { currency: 'RUB', amount: '648.00', refunds: '300.00', net: '348.00' },
      { currency: 'USD', amount: '20.00', refunds: '20.00', net: '0.00' },
    ])
    expect(ov.orders_by_status).toEqual(
      statuses({ created: 1, waiting_for_payment: 1, sent: 2, done: 5, failed: 2 }),
    )
    expect(ov.orders_created).toBe(11)
    expect(ov.orders_paid).toBe(8)
    // 8 of 11 = 72.7 %
    expect(ov.paid_percent).toBe(73)
    // o1, o13 and o14; not o3 (refunded), o9 and o10 (not delivered), o7 (failed)
    expect(ov.top_products).toEqual([top('A', 2, '107.00'), top('B', 2, '61.00')])
    expect(ov.needs_attention).toEqual([
      attention('o9', 'sent', null, T - DAY + 3_600_000),
      attention('o7', 'failed', 'Коды закончились', T - DAY),
      attention('o16', 'paid', null, T - 40 * DAY),
    ])
  })

  it('30 days, and the default period is 7 days', async () => {
    const ov = await overviewFor(30)
    expect(ov.revenue_by_day).toEqual([
      { day: dayOf(T - 20 * DAY), currency: 'RUB', amount: '500.00' },
      { day: dayOf(T - 7 * DAY), currency: 'RUB', amount: '13.00' },
      { day: dayOf(T - 6 * DAY), currency: 'RUB', amount: '11.00' },
      { day: dayOf(T - 3 * DAY), currency: 'RUB', amount: '300.00' },
      { day: dayOf(T - DAY), currency: 'RUB', amount: '127.00' },
      { day: dayOf(T), currency: 'RUB', amount: '210.00' },
      { day: dayOf(T), currency: 'USD', amount: '20.00' },
    ])
    expect(ov.revenue).toEqual([
      { currency: 'RUB', amount: '1161.00', refunds: '300.00', net: '861.00' },
      { currency: 'USD', amount: '20.00', refunds: '20.00', net: '0.00' },
    ])
    expect(ov.orders_by_status).toEqual(
      statuses({ created: 1, waiting_for_payment: 1, sent: 2, done: 7, failed: 2 }),
    )
    expect(ov.orders_created).toBe(13)
    expect(ov.orders_paid).toBe(10)
    // 10 of 13 = 76.9 %
    expect(ov.paid_percent).toBe(77)
    expect(ov.top_products).toEqual([top('C', 5, '500.00'), top('A', 2, '107.00'), top('B', 3, '74.00')])
    // the old failed order (o12) is outside the period; the stuck one (o16) is listed whatever its age
    expect(ov.needs_attention.map((a) => a.id)).toEqual([o.o9, o.o7, o.o16])

    const byDefault = await api.call<Overview>('GET', '/api/admin/overview/', { token: owner.token })
    expect(byDefault.body).toEqual(await overviewFor(7))
    const bad = await api.call('GET', '/api/admin/overview/?days=2', { token: owner.token })
    expect(bad.status).toBe(400)
  })

  it('warns of every product and gift with fewer than 10 free codes', async () => {
    const ov = await overviewFor(7)
    expect(ov.low_stock).toEqual([
      { kind: 'product', id: p.B.id, title: p.B.title, free: 3, sold: 2 },
      { kind: 'product', id: p.C.id, title: p.C.title, free: 0, sold: 0 },
      { kind: 'product', id: p.D.id, title: p.D.title, free: 9, sold: 0 },
      { kind: 'gift', id: g.low.id, title: g.low.title, free: 1, sold: 0 },
    ])
  })
})
