import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock, makeSandboxMethod, pay, pressOnCheckout } from './payments-fixtures'

type Tokens = { access: string; refresh: string }
type Line = {
  product: number
  quantity: number
  price: string
  codes?: { code: string; amount_uc: number }[]
}
type Item = {
  id: string
  resourcetype: string
  status: string
  total: string
  total_to_pay: string
  is_payment_active: boolean
  reject_reason: string | null
  email: string | null
  order_products: Line[]
}
type Page = { count: number; next: string | null; previous: string | null; results: Item[] }

let api: TestApi
let alice: Tokens
let bob: Tokens
let productId: number
let paidId: string
let openId: string
let bobsId: string
let method: string

beforeAll(async () => {
  api = await createTestApi()
  const signUp = async (email: string) =>
    (await api.call<Tokens>('POST', '/api/auth/jwt/create/', { body: { email, password: 'password 123' } }))
      .body
  alice = await signUp('alice@example.com')
  bob = await signUp('bob@example.com')
  productId = (await makePubgStock(api, { codes: 10, price: 9900 })).product.id
  method = (await makeSandboxMethod(api, 'redirect')).method.name

  paidId = await createPubgOrder(api, productId, { token: alice.access, quantity: 2 })
  openId = await createPubgOrder(api, productId, { token: alice.access })
  bobsId = await createPubgOrder(api, productId, { token: bob.access })
})
afterAll(() => api.close())

const list = (token: string | undefined, query = '') =>
  api.call<Page & { code?: string }>('GET', `/api/orders/${query}`, { token })

describe('order history', () => {
  it('is for signed-in users only', async () => {
    expect((await list(undefined)).status).toBe(401)
  })

  it('lists only the caller’s orders, newest first, with totals and items', async () => {
    const a = await list(alice.access)
    expect(a.status).toBe(200)
    expect(a.body.count).toBe(2)
    expect(a.body.results.map((o) => o.id)).toEqual([openId, paidId])
    expect(a.body.results.map((o) => o.id)).not.toContain(bobsId)
    const open = a.body.results[0]!
    expect(open).toMatchObject({
      resourcetype: 'PUBGOrder',
      status: 'created',
      total: '99.00',
      is_payment_active: true,
    })
    expect(open.order_products).toEqual([
      expect.objectContaining({ product: productId, quantity: 1, price: '99.00' }),
    ])
    const b = await list(bob.access)
    expect(b.body.results.map((o) => o.id)).toEqual([bobsId])
  })

  it('shows the delivered codes of a paid PUBG order', async () => {
    // the owner pays as themself (a guest call would not even see the order)
    expect((await pay(api, method, paidId)).status).toBe(404)
    const r = await api.call<{ payment_id: string }>('POST', `/api/payments/${method}/`, {
      token: alice.access,
      body: { order_id: paidId, currency: 'RUB', email: null, phone: null },
    })
    expect(r.status).toBe(200)
    expect((await pressOnCheckout(api, r.body.payment_id, 'confirm')).status).toBe(303)
    const a = await list(alice.access, '?status=done')
    expect(a.body.count).toBe(1)
    const paid = a.body.results[0]!
    expect(paid.id).toBe(paidId)
    expect(paid.is_payment_active).toBe(false)
    expect(paid.order_products[0]!.codes).toHaveLength(2)
    expect(paid.order_products[0]!.codes![0]).toEqual({ code: expect.stringMatching(/^T-/), amount_uc: 60 })
  })

  it('filters by status and pages with page and page_size (default 50)', async () => {
    const created = await list(alice.access, '?status=created')
    expect(created.body.results.map((o) => o.id)).toEqual([openId])
    const p1 = await list(alice.access, '?page=1&page_size=1')
    expect(p1.body.count).toBe(2)
    expect(p1.body.results).toHaveLength(1)
    expect(p1.body.next).toBe('/api/orders/?page=2&page_size=1')
    const p2 = await list(alice.access, '?page=2&page_size=1')
    expect(p2.body.results[0]!.id).toBe(paidId)
    expect(p2.body.previous).toBe('/api/orders/?page=1&page_size=1')
    expect((await list(alice.access, '?status=lost')).status).toBe(400)
    expect((await list(alice.access, '?page=0')).status).toBe(400)
  })

  it('shows the reject reason of a failed order', async () => {
    await api.db
      .update(orders)
      .set({ status: 'failed', rejectReason: 'Код не выдан' })
      .where(eq(orders.id, openId))
    const r = await list(alice.access, '?status=failed')
    expect(r.body.results[0]).toMatchObject({
      id: openId,
      reject_reason: 'Код не выдан',
      is_payment_active: false,
    })
    await api.db.update(orders).set({ status: 'created', rejectReason: null }).where(eq(orders.id, openId))
  })
})

describe('another user’s order is never readable or changeable', () => {
  it('detail, status and payment data answer 404 to another user', async () => {
    for (const url of [
      `/api/orders/${openId}/`,
      `/api/orders/status/${openId}/`,
      `/api/orders/payment_data/${openId}/`,
    ]) {
      const r = await api.call('GET', url, { token: bob.access })
      expect(r.status, url).toBe(404)
      // the owner reads them (payment data exists only once a payment started)
      if (!url.includes('payment_data'))
        expect((await api.call('GET', url, { token: alice.access })).status, url).toBe(200)
    }
  })

  it('paying, promo codes and updates of another user’s order answer 404', async () => {
    const payR = await api.call('POST', `/api/payments/${method}/`, {
      token: bob.access,
      body: { order_id: openId, currency: 'RUB', email: null, phone: null },
    })
    expect(payR.status).toBe(404)
    // the order's own 404, not a missing route
    expect((payR.body as { code: string }).code).toBe('order_not_found')
    const promo = await api.call('POST', `/api/orders/${openId}/activate_promo_code/`, {
      token: bob.access,
      body: { code: 'ANY' },
    })
    expect(promo.status).toBe(404)
    // the order's own 404, not a missing route
    expect((promo.body as { code: string }).code).toBe('order_not_found')
    const update = await api.call('POST', `/api/orders/pubg/${openId}/update/`, {
      token: bob.access,
      body: { products: [{ id: productId, quantity: 3 }] },
    })
    expect(update.status).toBe(404)
    // the order's own 404, not a missing route
    expect((update.body as { code: string }).code).toBe('order_not_found')
    const details = await api.call('POST', `/api/orders/pubg/${openId}/delivery_details/update/`, {
      token: bob.access,
      body: { email: 'bob@example.com' },
    })
    expect(details.status).toBe(404)
    // the order's own 404, not a missing route
    expect((details.body as { code: string }).code).toBe('order_not_found')
    const [row] = await api.db.select().from(orders).where(eq(orders.id, openId))
    expect(row).toMatchObject({ userId: expect.any(Number), email: 'alice@example.com', status: 'created' })
  })

  it('a guest with the id cannot read a signed-in user’s order', async () => {
    expect((await api.call('GET', `/api/orders/${openId}/`)).status).toBe(404)
    expect(
      (await api.call('POST', `/api/payments/${method}/`, { body: { order_id: openId, currency: 'RUB' } }))
        .status,
    ).toBe(404)
  })
})
