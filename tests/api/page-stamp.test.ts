// Issue 36, decision 103: the key a signed-in buyer's kept profile and pay page are stored under.
// It must stay the same while nothing of theirs changes (reads, other buyers' writes) and change
// with any write to their account, orders, order lines, payments, refunds, receipts, code views or
// social accounts; a token whose sign-in ended has no key at all.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  codeViews,
  orderProducts,
  orderReviews,
  orders,
  payments,
  receipts,
  refunds,
  socialAccounts,
} from '#api/db/schema'
import { personalPageKey } from '#api/services/auth/page-stamp'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock, makeSandboxMethod } from './payments-fixtures'

let api: TestApi
let productId: number
let method: string
beforeAll(async () => {
  api = await createTestApi()
  productId = (await makePubgStock(api, { codes: 20 })).product.id
  method = (await makeSandboxMethod(api, 'redirect')).method.name
})
afterAll(() => api?.close())

let n = 0
async function buyer() {
  const email = `stamp-${++n}-${Date.now()}@example.com`
  const res = await api.call<{ access: string; refresh: string }>('POST', '/api/auth/jwt/create/', {
    body: { email, password: 'Stamp-test-pass-2026' },
    headers: { 'x-shop-client-ip': `10.103.0.${n}` },
  })
  expect(res.status).toBe(200)
  const orderId = await createPubgOrder(api, productId, { token: res.body.access })
  return { ...res.body, email, orderId }
}

const keyOf = async (access: string) =>
  (await personalPageKey(api.db, api.config.jwtSecret, access))?.key ?? null

describe('the stamp of a buyer’s own pages', () => {
  it('stays while nothing of theirs changes, and changes with every kind of their rows', async () => {
    const a = await buyer()
    const b = await buyer()
    const first = await keyOf(a.access)
    expect(first).toMatch(/^\d+:/)
    // reading changes nothing; neither does another buyer's write
    expect((await api.call('GET', '/api/auth/profile/', { token: a.access })).status).toBe(200)
    expect((await api.call('GET', '/api/orders/', { token: a.access })).status).toBe(200)
    await createPubgOrder(api, productId, { token: b.access })
    await api.call('PATCH', '/api/auth/profile/', { token: b.access, body: { nickname: 'other' } })
    expect(await keyOf(a.access)).toBe(first)
    expect(await keyOf(b.access)).not.toBe(first)

    let last = first
    const changes: Array<[string, () => Promise<unknown>]> = [
      [
        'account',
        () => api.call('PATCH', '/api/auth/profile/', { token: a.access, body: { nickname: 'mine' } }),
      ],
      ['new order', () => createPubgOrder(api, productId, { token: a.access })],
      ['order row', () => api.db.update(orders).set({ updated: new Date() }).where(eq(orders.id, a.orderId))],
      [
        'order line',
        () =>
          api.db
            .update(orderProducts)
            .set({ quantity: sql`${orderProducts.quantity}` })
            .where(eq(orderProducts.orderId, a.orderId)),
      ],
      [
        'payment',
        () =>
          api.call('POST', `/api/payments/${method}/`, {
            token: a.access,
            body: { order_id: a.orderId, currency: 'RUB', email: null, phone: null },
          }),
      ],
      [
        'payment row',
        () =>
          api.db
            .update(payments)
            .set({ status: sql`${payments.status}` })
            .where(eq(payments.orderId, a.orderId)),
      ],
      [
        'refund',
        () =>
          api.db.insert(refunds).values({
            orderId: a.orderId,
            method: 'manual',
            status: 'pending',
            amount: 100,
            reason: 'stamp test',
          }),
      ],
      [
        'receipt',
        () =>
          api.db.insert(receipts).values({
            orderId: a.orderId,
            kind: 'sell',
            transport: 'test',
            externalId: `stamp-${n}`,
            email: a.email,
            total: 100,
            items: [],
            seller: {},
          }),
      ],
      [
        'code view',
        () =>
          api.db
            .insert(codeViews)
            .values({ orderId: a.orderId, place: 'pay_page', clientAddress: '10.103.9.9' }),
      ],
      [
        'order review',
        () => api.db.insert(orderReviews).values({ orderId: a.orderId, rules: ['stamp-test'] }),
      ],
      [
        'social account',
        async () => {
          const [row] = await api.db
            .select({ userId: orders.userId })
            .from(orders)
            .where(eq(orders.id, a.orderId))
          await api.db
            .insert(socialAccounts)
            .values({ userId: row!.userId!, provider: 'vk_id', providerUserId: `stamp-${n}` })
        },
      ],
    ]
    for (const [what, change] of changes) {
      await change()
      const now = await keyOf(a.access)
      expect(now, what).not.toBeNull()
      expect(now, what).not.toBe(last)
      expect(await keyOf(a.access), `${what}, read again`).toBe(now)
      last = now!
    }
    // the other buyer's key never moved with the first buyer's writes
    const bKey = await keyOf(b.access)
    await api.db.update(orders).set({ updated: new Date() }).where(eq(orders.id, a.orderId))
    expect(await keyOf(b.access)).toBe(bKey)
  })

  it('a pay page’s key follows its own order, also a guest’s opened by its link', async () => {
    const a = await buyer()
    const guestOrder = await createPubgOrder(api, productId, { email: `guest-${n}@example.com` })
    const payKey = async () =>
      (await personalPageKey(api.db, api.config.jwtSecret, a.access, guestOrder))?.key ?? null
    const account = await keyOf(a.access)
    const first = await payKey()
    expect(first).not.toBe(account)
    expect(first!.slice(0, account!.length + 1)).toBe(`${account}:`)
    // a payment of the guest order moves the pay page's key, not the account's
    const paid = await api.call('POST', `/api/payments/${method}/`, {
      body: { order_id: guestOrder, currency: 'RUB', email: null, phone: null },
    })
    expect(paid.status).toBe(200)
    const second = await payKey()
    expect(second).not.toBe(first)
    expect(await keyOf(a.access)).toBe(account)
    await api.db.insert(orderReviews).values({ orderId: guestOrder, rules: ['stamp-test'] })
    expect(await payKey()).not.toBe(second)
  })

  it('a token whose sign-in ended, or a forged one, has no key', async () => {
    const a = await buyer()
    expect(await keyOf(a.access)).not.toBeNull()
    expect(await keyOf(`${a.access}x`)).toBeNull()
    expect((await api.call('POST', '/api/auth/logout/', { body: { refresh: a.refresh } })).status).toBe(204)
    expect(await keyOf(a.access)).toBeNull()
  })
})
