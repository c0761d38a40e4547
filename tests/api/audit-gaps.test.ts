// Issue 38, finding 7: an order note and support opening an order's personal data left no audit
// entry (roles gained or lost: tests/api/owner-squatting.test.ts). Each now writes one, naming the
// staff member, in the change's (or the read's) own request.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeGame, makeProduct, makeUser } from './orders-fixtures'

let api: TestApi
let support: Awaited<ReturnType<typeof makeUser>>
let orderId: string

beforeAll(async () => {
  api = await createTestApi()
  support = await makeStaff(api, 'support')
  const game = await makeGame(api, 'PUBGGame')
  const product = await makeProduct(api, game.id, 'PUBGProduct', { price: 9900, amountUc: 60 })
  const r = await api.call<{ id: string }>('POST', '/api/orders/pubg/', {
    body: { products: [{ quantity: 1, product_id: product.id }], email: 'private-buyer@example.com' },
  })
  orderId = r.body.id
})
afterAll(() => api?.close())

const entries = (action: string) =>
  api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, orderId)))

describe('audit entries for what support does with an order (finding 7)', () => {
  it('support opening an order (its email, player ids, payments) is recorded', async () => {
    const r = await api.call<{ order: { email: string } }>('GET', `/api/admin/orders/${orderId}/`, {
      token: support.token,
    })
    expect(r.status).toBe(200)
    expect(r.body.order.email).toBe('private-buyer@example.com')
    const [entry] = await entries('order.read')
    expect(entry).toMatchObject({ actorEmail: support.email, entity: 'order', entityId: orderId })
  })

  it('a note is recorded with its text and author', async () => {
    const r = await api.call('POST', `/api/admin/orders/${orderId}/notes/`, {
      token: support.token,
      body: { text: 'Покупатель звонил, просил проверить ник' },
    })
    expect(r.status).toBe(200)
    const notes = await entries('order.note')
    expect(notes).toHaveLength(1)
    expect(notes[0]).toMatchObject({
      actorEmail: support.email,
      after: { text: 'Покупатель звонил, просил проверить ник' },
    })
  })

  it('a refused read (not staff) writes nothing', async () => {
    const shopper = await makeUser(api)
    const before = (await entries('order.read')).length
    expect((await api.call('GET', `/api/admin/orders/${orderId}/`, { token: shopper.token })).status).toBe(
      404,
    )
    expect(await entries('order.read')).toHaveLength(before)
  })
})
