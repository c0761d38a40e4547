// Nobody waits unseen (issue 31): the orders waiting for a person — paid orders of manual games
// handed over for delivery — counted, with the oldest one's wait, by the metrics endpoint and the
// back-office overview; the overview's «нужен человек» lists paid orders waiting for delivery or
// for review and never an order already refunded.
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderReviews, orders, refunds } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { startMetricsServer } from '../../server/metrics'
import { makeGame, type makeUser } from './orders-fixtures'

type OrderStatus = (typeof orders.$inferInsert)['status']
interface Overview {
  awaiting_delivery: { count: number; oldest_waiting_seconds: number | null }
  needs_attention: Array<{ id: string; status: string; waiting: 'delivery' | 'review' | null }>
}

const MIN = 60_000
let api: TestApi
let owner: Awaited<ReturnType<typeof makeUser>>
let gameId: number
let metrics: ReturnType<typeof startMetricsServer>

async function addOrder(opts: {
  status: OrderStatus
  paidMinutesAgo?: number
  awaitingMinutesAgo?: number
  refund?: 'pending' | 'done' | 'manual'
  review?: 'held' | 'approved'
}) {
  const id = randomUUID()
  const now = Date.now()
  const paid = opts.paidMinutesAgo === undefined ? null : new Date(now - opts.paidMinutesAgo * MIN)
  await api.db.insert(orders).values({
    id,
    kind: 'StandoffOrder',
    status: opts.status,
    gameId,
    email: `${id.slice(0, 8)}@example.com`,
    total: 10000,
    totalToPay: 10000,
    paidAt: paid,
    awaitingSince:
      opts.awaitingMinutesAgo === undefined ? null : new Date(now - opts.awaitingMinutesAgo * MIN),
    // recently touched: none of them is "stuck" by the 30-minute rule of instant delivery
    updated: new Date(now),
  })
  if (opts.refund)
    await api.db
      .insert(refunds)
      .values({ orderId: id, method: 'provider', status: opts.refund, amount: 10000, reason: 'тест' })
  if (opts.review)
    await api.db.insert(orderReviews).values({ orderId: id, status: opts.review, rules: ['new_card'] })
  return id
}

async function overview() {
  const r = await api.call<Overview>('GET', '/api/admin/overview/?days=7', { token: owner.token })
  expect(r.status).toBe(200)
  return r.body
}

async function scrape() {
  const { port } = metrics.address() as AddressInfo
  const res = await fetch(`http://127.0.0.1:${port}/metrics`)
  expect(res.status).toBe(200)
  const text = await res.text()
  const value = (name: string) => {
    const m = text.match(new RegExp(`^${name}\\{[^}]*\\} (\\S+)$`, 'm'))
    expect(m, `${name} in the scrape`).not.toBeNull()
    return Number(m?.[1])
  }
  return {
    count: value('orders_awaiting_delivery'),
    oldest: value('orders_awaiting_delivery_oldest_seconds'),
  }
}

beforeAll(async () => {
  api = await createTestApi({ seed: false })
  owner = await makeStaff(api, 'owner')
  gameId = (await makeGame(api, 'StandoffGame', { supplier: 'manual' })).id
  // port 0: any free port (the process-level test covers METRICS_PORT and the loopback bind)
  metrics = startMetricsServer(0, '127.0.0.1', api.database)
  await new Promise<void>((resolve) => metrics.once('listening', () => resolve()))
})
afterAll(async () => {
  await new Promise((resolve) => metrics?.close(resolve))
  await api?.close()
})

describe('orders waiting for delivery', () => {
  it('none wait: zero in the metrics, zero and no oldest on the overview', async () => {
    expect(await scrape()).toEqual({ count: 0, oldest: 0 })
    const ov = await overview()
    expect(ov.awaiting_delivery).toEqual({ count: 0, oldest_waiting_seconds: null })
    expect(ov.needs_attention).toEqual([])
  })

  it('counts the waiting orders and the oldest one’s wait, in the metrics and on the overview', async () => {
    const young = await addOrder({ status: 'sent', paidMinutesAgo: 5, awaitingMinutesAgo: 5 })
    const old = await addOrder({ status: 'sent', paidMinutesAgo: 95, awaitingMinutesAgo: 90 })
    // not waiting for a person: delivered, failed and refunded, sent by an instant supplier, unpaid
    await addOrder({ status: 'done', paidMinutesAgo: 300 })
    await addOrder({ status: 'failed', paidMinutesAgo: 200, refund: 'done' })
    await addOrder({ status: 'sent', paidMinutesAgo: 2 })
    await addOrder({ status: 'waiting_for_payment' })

    const m = await scrape()
    expect(m.count).toBe(2)
    // 90 minutes, give or take the test's own seconds
    expect(m.oldest).toBeGreaterThanOrEqual(90 * 60)
    expect(m.oldest).toBeLessThan(90 * 60 + 60)

    const ov = await overview()
    expect(ov.awaiting_delivery.count).toBe(2)
    expect(ov.awaiting_delivery.oldest_waiting_seconds).toBeGreaterThanOrEqual(90 * 60)
    expect(ov.awaiting_delivery.oldest_waiting_seconds).toBeLessThan(90 * 60 + 60)
    const listed = new Map(ov.needs_attention.map((a) => [a.id, a]))
    expect(listed.get(young)).toMatchObject({ status: 'sent', waiting: 'delivery' })
    expect(listed.get(old)).toMatchObject({ status: 'sent', waiting: 'delivery' })
    expect(ov.needs_attention).toHaveLength(2)
  })

  it('«нужен человек» lists orders held for review, failed ones left to a person, never refunded ones', async () => {
    const held = await addOrder({ status: 'paid', paidMinutesAgo: 3, review: 'held' })
    // approved: delivery goes on by itself, nobody needs to look
    await addOrder({ status: 'paid', paidMinutesAgo: 3, review: 'approved' })
    const manualRefund = await addOrder({ status: 'failed', paidMinutesAgo: 10, refund: 'manual' })
    const noRefund = await addOrder({ status: 'failed', paidMinutesAgo: 10 })
    // refunded or being refunded at the provider: nothing left to do
    await addOrder({ status: 'failed', paidMinutesAgo: 10, refund: 'pending' })
    await addOrder({ status: 'failed', paidMinutesAgo: 10, refund: 'done' })
    // stuck for an hour in `sending`, then refunded by the owner: not listed any more
    const stuck = await addOrder({ status: 'sending', paidMinutesAgo: 60 })
    await api.db
      .update(orders)
      .set({ updated: new Date(Date.now() - 60 * MIN) })
      .where(eq(orders.id, stuck))
    expect((await overview()).needs_attention.map((a) => a.id)).toContain(stuck)
    await api.db
      .insert(refunds)
      .values({ orderId: stuck, method: 'balance', status: 'done', amount: 10000, reason: 'тест' })

    const ov = await overview()
    const listed = new Map(ov.needs_attention.map((a) => [a.id, a]))
    expect(listed.get(held)).toMatchObject({ status: 'paid', waiting: 'review' })
    expect(listed.get(manualRefund)).toMatchObject({ status: 'failed', waiting: null })
    expect(listed.get(noRefund)).toMatchObject({ status: 'failed', waiting: null })
    expect(listed.has(stuck)).toBe(false)
    // the two waiting for delivery, the review, the two failed ones a person must see
    expect(ov.needs_attention).toHaveLength(5)
    // a review is not a delivery: the count stays the desk's queue
    expect(ov.awaiting_delivery.count).toBe(2)
    expect((await scrape()).count).toBe(2)
  })
})
