// The shop's one time zone (issue 47, decision 136): SHOP_TIMEZONE by default, the owner's choice
// at /api/admin/shop/ over it; mails state times in it, labelled; the back-office's day filter
// takes days in it.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders } from '#api/db/schema'
import { renderMail } from '#api/services/mail/render'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeGame, makeProduct, type makeUser } from './orders-fixtures'

let api: TestApi
let owner: Awaited<ReturnType<typeof makeUser>>
let productId: number

beforeAll(async () => {
  api = await createTestApi({ env: { SHOP_TIMEZONE: 'Asia/Yekaterinburg' } })
  owner = await makeStaff(api, 'owner')
  const game = await makeGame(api, 'PUBGGame')
  productId = (await makeProduct(api, game.id, 'PUBGProduct', { price: 9900, amountUc: 60, codes: 5 })).id
})
afterAll(() => api?.close())

const shopBody = { name: 'Лавка', logo: '', support_email: '', support_phone: '' }
type Shop = typeof shopBody & { time_zone: string }

async function doneOrderAt(created: string) {
  const r = await api.call<{ id: string; number: number }>('POST', '/api/orders/pubg/', {
    body: { products: [{ quantity: 1, product_id: productId }], email: 'tz@example.com' },
  })
  await api.db
    .update(orders)
    .set({ status: 'done', paidAt: new Date(created), created: new Date(created) })
    .where(eq(orders.id, r.body.id))
  return r.body
}

const mailCtx = () => ({ db: api.db, config: api.config, to: 'tz@example.com', now: new Date() })

describe('shop time zone', () => {
  it('is SHOP_TIMEZONE until the owner chooses; mails say the time in it with its name', async () => {
    const pub = await api.call<Shop>('GET', '/api/shop/')
    expect(pub.body.time_zone).toBe('Asia/Yekaterinburg')
    const o = await doneOrderAt('2026-11-23T17:59:00Z')
    const mail = await renderMail('order_done', { orderId: o.id }, mailCtx())
    expect(mail?.text).toContain('23 ноября 2026 г. в 22:59 Asia/Yekaterinburg')
  })

  it('the owner chooses Moscow: mails say «МСК»; a zone nobody knows is refused in Russian', async () => {
    type Err = { code: string; fields: Record<string, string[]> }
    // shaped like a zone (the contract allows it) but unknown to the runtime: its own code
    const bad = await api.call<Err>('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { ...shopBody, time_zone: 'Europe/Moskow' },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('time_zone_unknown')
    expect(bad.body.fields.time_zone?.[0]).toMatch(/Часовой пояс «Europe\/Moskow» не найден/)
    // not shaped like a zone at all: off the contract, a validation error by its field
    const shapeless = await api.call<Err>('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { ...shopBody, time_zone: 'Москва +3' },
    })
    expect(shapeless.status).toBe(400)
    expect(shapeless.body.code).toBe('validation_error')
    expect(shapeless.body.fields.time_zone?.[0]).toMatch(/часовой пояс/)
    const saved = await api.call<Shop>('PUT', '/api/admin/shop/', {
      token: owner.token,
      body: { ...shopBody, time_zone: 'Europe/Moscow' },
    })
    expect(saved.status).toBe(200)
    expect(saved.body.time_zone).toBe('Europe/Moscow')
    expect((await api.call<Shop>('GET', '/api/shop/')).body.time_zone).toBe('Europe/Moscow')
    const o = await doneOrderAt('2026-11-23T17:59:00Z')
    const mail = await renderMail('order_done', { orderId: o.id }, mailCtx())
    expect(mail?.text).toContain('23 ноября 2026 г. в 20:59 МСК')
    // saving without the field keeps the zone (a client that does not know it)
    await api.call('PUT', '/api/admin/shop/', { token: owner.token, body: shopBody })
    expect((await api.call<Shop>('GET', '/api/shop/')).body.time_zone).toBe('Europe/Moscow')
  })

  it("the back-office's day filter takes the shop's days, not UTC's", async () => {
    // 22:30 UTC on the 1st is 01:30 on the 2nd in Moscow
    const late = await doneOrderAt('2031-03-01T22:30:00Z')
    const on = (day: string) =>
      api.call<{ results: Array<{ id: string }> }>('GET', `/api/admin/orders/?from=${day}&to=${day}`, {
        token: owner.token,
      })
    expect((await on('2031-03-02')).body.results.map((r) => r.id)).toContain(late.id)
    expect((await on('2031-03-01')).body.results.map((r) => r.id)).not.toContain(late.id)
  })
})
