import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ORDER_STATUSES, type OrderStatus, orders } from '#api/db/schema'
import { ApiError } from '#api/lib/errors'
import {
  canTransition,
  isPaymentActive,
  ORDER_TRANSITIONS,
  transitionOrder,
} from '#api/services/orders/state-machine'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

let api: TestApi
beforeAll(async () => {
  api = await createTestApi({ seed: false })
})
afterAll(() => api.close())

const ALLOWED = new Set([
  'created>waiting_for_payment',
  'created>paid',
  'created>failed',
  'waiting_for_payment>paid',
  'waiting_for_payment>failed',
  'paid>sending',
  'paid>failed',
  'sending>sent',
  'sending>failed',
  'sent>done',
  'sent>failed',
  // only the back-office's retry of a paid order (tests/api/order-clock.test.ts)
  'failed>paid',
])

async function orderIn(status: OrderStatus) {
  const id = randomUUID()
  await api.db.insert(orders).values({ id, kind: 'PUBGOrder', status, total: 100, totalToPay: 100 })
  return id
}

describe('order state machine', () => {
  it('allows exactly the documented moves (done is final; failed only back to paid)', () => {
    for (const from of ORDER_STATUSES)
      for (const to of ORDER_STATUSES)
        expect(canTransition(from, to), `${from} → ${to}`).toBe(ALLOWED.has(`${from}>${to}`))
    expect(ORDER_TRANSITIONS.done).toEqual([])
    expect(ORDER_TRANSITIONS.failed).toEqual(['paid'])
  })

  it('is_payment_active only while created or waiting_for_payment', () => {
    expect(ORDER_STATUSES.filter(isPaymentActive)).toEqual(['created', 'waiting_for_payment'])
  })

  const pairs = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const))
  it.each(pairs)('%s → %s on the database', async (from, to) => {
    const id = await orderIn(from)
    if (ALLOWED.has(`${from}>${to}`)) {
      await expect(transitionOrder(api.db, id, to)).resolves.toBe(to)
      const [o] = await api.db.select().from(orders).where(eq(orders.id, id))
      expect(o!.status).toBe(to)
    } else {
      const err = await transitionOrder(api.db, id, to).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ApiError)
      expect((err as ApiError).status).toBe(409)
      expect((err as ApiError).code).toBe('illegal_transition')
      const [o] = await api.db.select().from(orders).where(eq(orders.id, id))
      expect(o!.status).toBe(from)
    }
  })

  it('is a compare-and-set: of two concurrent moves to paid only one wins', async () => {
    const id = await orderIn('waiting_for_payment')
    const results = await Promise.allSettled([
      transitionOrder(api.db, id, 'paid'),
      transitionOrder(api.db, id, 'paid'),
    ])
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
  })

  it('answers 404 for an unknown order', async () => {
    const err = await transitionOrder(api.db, randomUUID(), 'paid').catch((e: unknown) => e)
    expect((err as ApiError).status).toBe(404)
  })
})
