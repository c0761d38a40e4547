// Fraud rules that know mobile networks (issue 50, item 10; decision 142). Russian mobile networks
// put thousands of buyers behind one IPv4 (carrier-grade NAT): the `paid_per_address` rule held
// every order after 3 paid orders an hour from one address, so instant codes waited for review.
// Now an address alone never holds an order: only a new email (no paid order before the hour) is
// held, and only once more than `paid_per_address_hour` (default 10) new emails paid from its
// network (IPv6 /64, IPv4 exact) in the hour. Every rule is on, at the shop's defaults.
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderReviews, orders } from '#api/db/schema'
import { RISK_RULES } from '#api/services/risk/settings'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import type { makeUser } from './orders-fixtures'
import { hex, makePubgStock, makeSandboxMethod, pressOnCheckout, status } from './payments-fixtures'

const SLOW = 120_000

let api: TestApi
let method: string
let product: number
let owner: Awaited<ReturnType<typeof makeUser>>
let ip = 0
/** An address of its own (10.50.0.0/16), for the buyers' earlier orders. */
const elsewhere = () => `10.50.${Math.floor(++ip / 250)}.${ip % 250}`

beforeAll(async () => {
  // every rule on, every threshold at the shop's default (the helper turns the rules off)
  api = await createTestApi({ env: { RISK_RULES: RISK_RULES.join(',') } })
  method = (await makeSandboxMethod(api, 'redirect')).method.name
  // 99 ₽ a pack, well under the first-order threshold
  product = (await makePubgStock(api, { codes: 120, price: 9900 })).product.id
  owner = await makeStaff(api, 'owner')
}, SLOW)
afterAll(() => api?.close())

/** A guest order paid with the sandbox from `address`; the order id. */
async function buy(email: string, address: string) {
  const headers = { 'x-shop-client-ip': address }
  const o = await api.call<{ id: string }>('POST', '/api/orders/pubg/', {
    body: { products: [{ product_id: product, quantity: 1 }], email },
    headers,
  })
  expect(o.status, JSON.stringify(o.body)).toBe(201)
  const p = await api.call<{ payment_id: string }>('POST', `/api/payments/${method}/`, {
    body: { order_id: o.body.id, currency: 'RUB', email: null, phone: null },
    headers,
  })
  expect(p.status, JSON.stringify(p.body)).toBe(200)
  expect((await pressOnCheckout(api, p.body.payment_id, 'confirm')).status).toBe(303)
  return o.body.id
}

/** A returning buyer: an email with a paid order from elsewhere, two hours ago. */
async function returning() {
  const email = `back-${hex()}@example.com`
  const id = await buy(email, elsewhere())
  await api.db
    .update(orders)
    .set({ paidAt: new Date(Date.now() - 2 * 3_600_000) })
    .where(eq(orders.id, id))
  return email
}

/** What the buyer sees of each order: `done` (the code) or `held` (on review). */
async function outcomes(ids: string[]) {
  const out: string[] = []
  for (const id of ids) {
    const s = (await status(api, id)).body
    out.push(s.on_review ? 'held' : s.status)
  }
  return out
}

const rulesOf = async (ids: string[]) =>
  (await api.db.select().from(orderReviews).where(inArray(orderReviews.orderId, ids))).map((r) => r.rules)

const settings = () =>
  api.call<Record<string, unknown> & { rules: Record<string, boolean> }>('GET', '/api/admin/antifraud/', {
    token: owner.token,
  })
const save = (body: Record<string, unknown>) =>
  api.call<Record<string, unknown>>('PUT', '/api/admin/antifraud/', { token: owner.token, body })

describe('one IPv4 behind carrier-grade NAT', () => {
  it(
    'the finding replayed: 10 new buyers and 8 returning ones (two orders each) pay from one IPv4 in an hour; none is held',
    async () => {
      const back = [] as string[]
      for (let i = 0; i < 8; i++) back.push(await returning())
      const cgnat = '198.18.50.1'
      const ids: string[] = []
      // interleaved as a crowd would pay: a returning buyer, a new one, …
      for (let i = 0; i < 10; i++) {
        if (i < 8) ids.push(await buy(back[i]!, cgnat))
        ids.push(await buy(`new-${hex()}@example.com`, cgnat))
      }
      for (const email of back) ids.push(await buy(email, cgnat))
      expect(ids).toHaveLength(26)
      // the old rule held from the 4th paid order of the address on
      expect(await outcomes(ids)).toEqual(Array(26).fill('done'))
      expect(await rulesOf(ids)).toEqual([])
    },
    SLOW,
  )

  it(
    'the attacker pattern: new emails one after another from one address; the 11th and later are held for paid_per_address alone, a returning buyer there is not, a refused one is',
    async () => {
      const back = await returning()
      const one = '198.18.51.1'
      const ids: string[] = []
      for (let i = 0; i < 12; i++) ids.push(await buy(`card-${hex()}@example.com`, one))
      expect(await outcomes(ids)).toEqual([...Array(10).fill('done'), 'held', 'held'])
      expect(await rulesOf(ids)).toEqual([['paid_per_address'], ['paid_per_address']])
      // a buyer with an earlier paid order is served at once from the same address
      expect(await outcomes([await buy(back, one)])).toEqual(['done'])
      // an email whose earlier order was refused at review is not a returning buyer an hour later
      const [refused] = await api.db.select().from(orders).where(eq(orders.id, ids[10]!))
      const reject = await api.call('POST', `/api/admin/orders/${ids[10]}/reject/`, {
        token: owner.token,
        body: { reason: 'карта из списка украденных' },
      })
      expect(reject.status).toBe(200)
      await api.db
        .update(orders)
        .set({ paidAt: new Date(Date.now() - 2 * 3_600_000) })
        .where(eq(orders.id, ids[10]!))
      const again = await buy(refused!.email!, one)
      expect(await outcomes([again])).toEqual(['held'])
      expect(await rulesOf([again])).toEqual([['paid_per_address']])
    },
    SLOW,
  )
})

describe('the owner keeps the switch and the threshold', () => {
  it(
    'threshold 2: the third new email of one IPv6 /64 is held (three addresses of the network); switched off, nothing is',
    async () => {
      const before = (await settings()).body
      expect(before).toMatchObject({ paid_per_address_hour: 10, rules: { paid_per_address: true } })
      expect((await save({ ...before, paid_per_address_hour: 2 })).status).toBe(200)
      // three addresses of one /64: one network (issue 42)
      const net = (i: number) => `2001:db8:50:7::${i + 1}`
      const ids: string[] = []
      for (let i = 0; i < 3; i++) ids.push(await buy(`v6-${hex()}@example.com`, net(i)))
      expect(await outcomes(ids)).toEqual(['done', 'done', 'held'])
      expect(await rulesOf(ids)).toEqual([['paid_per_address']])

      expect(
        (
          await save({
            ...before,
            paid_per_address_hour: 2,
            rules: { ...before.rules, paid_per_address: false },
          })
        ).status,
      ).toBe(200)
      const off = await buy(`v6-${hex()}@example.com`, net(3))
      expect(await outcomes([off])).toEqual(['done'])
      expect((await save(before)).status).toBe(200)
    },
    SLOW,
  )
})
