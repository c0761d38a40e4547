// Short order numbers (issue 47, decision 135): every order gets a number unique in the shop from
// a database sequence, answered as the optional `number` next to the UUID, shown in the mails and
// found by the back-office search; URLs and ids stay the UUID.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders } from '#api/db/schema'
import { renderMail } from '#api/services/mail/render'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeGame, makeProduct, makeUser } from './orders-fixtures'

let api: TestApi
let support: Awaited<ReturnType<typeof makeUser>>
let buyer: Awaited<ReturnType<typeof makeUser>>
let productId: number

beforeAll(async () => {
  api = await createTestApi()
  support = await makeStaff(api, 'support')
  buyer = await makeUser(api)
  const game = await makeGame(api, 'PUBGGame')
  productId = (await makeProduct(api, game.id, 'PUBGProduct', { price: 9900, amountUc: 60, codes: 40 })).id
})
afterAll(() => api?.close())

type Created = { id: string; number: number }
const create = (token?: string) =>
  api.call<Created>('POST', '/api/orders/pubg/', {
    body: {
      products: [{ quantity: 1, product_id: productId }],
      ...(token ? {} : { email: 'n@example.com' }),
    },
    token,
  })

describe('order numbers', () => {
  it('every order gets its own number from 10001 up, answered next to the UUID', async () => {
    const a = await create()
    const b = await create()
    expect(a.status).toBe(201)
    expect(a.body.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(Number.isInteger(a.body.number)).toBe(true)
    expect(a.body.number).toBeGreaterThanOrEqual(10001)
    expect(b.body.number).toBeGreaterThan(a.body.number)
    const [row] = await api.db.select().from(orders).where(eq(orders.id, a.body.id))
    expect(row?.number).toBe(a.body.number)
  })

  it('orders created at the same moment never share a number (one database sequence)', async () => {
    const made = await Promise.all(Array.from({ length: 12 }, () => create()))
    const numbers = made.map((r) => r.body.number)
    expect(made.every((r) => r.status === 201)).toBe(true)
    expect(new Set(numbers).size).toBe(12)
  })

  it('the order, the history and the back-office answer the number; the URL stays the UUID', async () => {
    const made = await create(buyer.token)
    const one = await api.call<Created>('GET', `/api/orders/${made.body.id}/`, { token: buyer.token })
    expect(one.body.number).toBe(made.body.number)
    const history = await api.call<{ results: Created[] }>('GET', '/api/orders/', { token: buyer.token })
    expect(history.body.results.find((o) => o.id === made.body.id)?.number).toBe(made.body.number)
    const detail = await api.call<{ order: Created }>('GET', `/api/admin/orders/${made.body.id}/`, {
      token: support.token,
    })
    expect(detail.body.order.number).toBe(made.body.number)
    // the number is not an id: an order URL with the number is refused
    const byNumber = await api.call('GET', `/api/orders/${made.body.number}/`, { token: buyer.token })
    expect(byNumber.status).toBe(400)
  })

  it('the back-office search finds an order by its number however it is typed', async () => {
    const made = await create()
    const other = await create()
    for (const q of [
      String(made.body.number),
      `№ ${made.body.number}`,
      `№${made.body.number}`,
      `#${made.body.number}`,
    ]) {
      const found = await api.call<{ count: number; results: Created[] }>(
        'GET',
        `/api/admin/orders/?q=${encodeURIComponent(q)}`,
        { token: support.token },
      )
      expect(found.status, q).toBe(200)
      expect(
        found.body.results.map((r) => r.id),
        q,
      ).toEqual([made.body.id])
      expect(found.body.results[0]?.number).toBe(made.body.number)
    }
    expect(other.body.number).not.toBe(made.body.number)
    const none = await api.call<{ count: number }>('GET', '/api/admin/orders/?q=99999999', {
      token: support.token,
    })
    expect(none.body.count).toBe(0)
  })

  it("the mails name the order by its number, never by the UUID's start", async () => {
    const made = await create()
    await api.db.update(orders).set({ status: 'done', paidAt: new Date() }).where(eq(orders.id, made.body.id))
    const ctx = { db: api.db, config: api.config, to: 'n@example.com', now: new Date() }
    const mail = await renderMail('order_done', { orderId: made.body.id }, ctx)
    expect(mail?.subject).toBe(`Заказ № ${made.body.number} выполнен`)
    expect(mail?.text).toContain(`№ ${made.body.number}`)
    expect(mail?.text).not.toContain(`№ ${made.body.id.slice(0, 8)}`)
  })
})
