import { randomUUID } from 'node:crypto'
import { eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { giftCodes, gifts, orders, promoCodes, users } from '#api/db/schema'
import { startSession } from '#api/services/auth/tokens'
import { fulfilOrder } from '#api/services/fulfilment'
import { transitionOrder } from '#api/services/orders/state-machine'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

interface Created {
  id: string
  total: string
  gift: number
}
interface ErrorOut {
  detail: string
  code: string
  fields?: Record<string, string[]>
}

let api: TestApi
let deps: ApiDeps
const fx = { plain: 0, discounted: 0, other: 0, hidden: 0, soldOut: 0 }
let alice: { id: number; token: string }
let bob: { id: number; token: string }

async function addGift(values: Partial<typeof gifts.$inferInsert> & { title: string }, codes: number) {
  const [g] = await api.db
    .insert(gifts)
    .values({ type: 'Подарочная карта', region: 'Россия', price: 10000, ...values })
    .returning({ id: gifts.id })
  if (codes > 0) {
    await api.db
      .insert(giftCodes)
      .values(Array.from({ length: codes }, (_, i) => ({ giftId: g!.id, code: `H7-${g!.id}-${i}` })))
  }
  return g!.id
}

async function addUser(email: string) {
  const [u] = await api.db.insert(users).values({ email }).returning({ id: users.id })
  return { id: u!.id, token: (await startSession(api.db, api.config, u!.id)).access }
}

beforeAll(async () => {
  api = await createTestApi()
  deps = api.deps
  fx.plain = await addGift({ title: 'Карта Альфа', price: 50000 }, 5)
  fx.discounted = await addGift(
    { title: 'Карта Бета', price: 80000, discountPrice: 72000, discountPercent: 10 },
    5,
  )
  fx.other = await addGift({ title: 'Карта Гамма', price: 30000 }, 5)
  fx.hidden = await addGift({ title: 'Карта Скрытая', isActive: false }, 5)
  fx.soldOut = await addGift({ title: 'Карта Распроданная' }, 0)
  alice = await addUser('alice@example.com')
  bob = await addUser('bob@example.com')
})
afterAll(() => api.close())

const create = (body: unknown, opts: { token?: string; key?: string } = {}) =>
  api.call<Created & ErrorOut>('POST', '/api/orders/rokky/', {
    body,
    token: opts.token,
    headers: opts.key ? { 'idempotency-key': opts.key } : {},
  })

const orderRow = async (id: string) => (await api.db.select().from(orders).where(eq(orders.id, id)))[0]!

describe('POST /api/orders/rokky/', () => {
  it('creates a guest order priced from the database, whatever price the client sends', async () => {
    const r = await create({
      gift: fx.discounted,
      email: ' Guest@Example.com ',
      price: '1.00',
      total: '1.00',
    })
    expect(r.status).toBe(201)
    expect(r.body).toEqual({ id: expect.any(String), total: '720.00', gift: fx.discounted })
    const row = await orderRow(r.body.id)
    expect(row).toMatchObject({
      kind: 'RokkyOrder',
      status: 'created',
      giftId: fx.discounted,
      gameId: null,
      userId: null,
      email: 'guest@example.com',
      total: 72000,
      totalToPay: 72000,
      code: null,
    })
    const plain = await create({ gift: fx.plain, email: 'guest@example.com' })
    expect(plain.body.total).toBe('500.00')
  })

  it('needs a valid email from guests', async () => {
    for (const body of [{ gift: fx.plain }, { gift: fx.plain, email: '' }, { gift: fx.plain, email: null }]) {
      const r = await create(body)
      expect(r.status).toBe(400)
      expect(r.body.code).toBe('order_email_required')
      expect(r.body.fields?.email?.[0]).toMatch(/почт/)
    }
    const bad = await create({ gift: fx.plain, email: 'not-an-email' })
    expect(bad.status).toBe(400)
    expect(bad.body.code).toBe('order_email_invalid')
  })

  it('uses the account email of a signed-in user unless another one is given', async () => {
    const own = await create({ gift: fx.plain }, { token: alice.token })
    expect(own.status).toBe(201)
    expect(await orderRow(own.body.id)).toMatchObject({ userId: alice.id, email: 'alice@example.com' })
    const other = await create({ gift: fx.plain, email: 'present@example.com' }, { token: alice.token })
    expect(await orderRow(other.body.id)).toMatchObject({ userId: alice.id, email: 'present@example.com' })
  })

  it('refuses unknown and inactive gifts (400) and gifts out of stock (409) with Russian messages', async () => {
    for (const gift of [999_999, fx.hidden]) {
      const r = await create({ gift, email: 'a@example.com' })
      expect(r.status).toBe(400)
      expect(r.body).toMatchObject({ code: 'gift_not_found', detail: 'Подарок не найден' })
      expect(r.body.fields?.gift).toBeDefined()
    }
    const out = await create({ gift: fx.soldOut, email: 'a@example.com' })
    expect(out.status).toBe(409)
    expect(out.body.code).toBe('gift_out_of_stock')
    expect(out.body.detail).toBe('Подарок «Карта Распроданная» закончился. Выберите другой подарок')
  })

  it('refuses a malformed body with a 400', async () => {
    for (const body of [
      { email: 'a@example.com' },
      { gift: 'abc' },
      { gift: 1.5 },
      { gift: -1 },
      'nonsense',
    ]) {
      const r = await create(body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.detail).toMatch(/[А-Яа-я]/)
    }
    const noType = await api.call<ErrorOut>('POST', '/api/orders/rokky/', {
      body: JSON.stringify({ gift: fx.plain, email: 'a@example.com' }),
      headers: { 'content-type': 'text/plain' },
    })
    expect(noType.status).toBe(415)
    expect(noType.body.code).toBe('unsupported_media_type')
    expect(noType.body.detail).toMatch(/[А-Яа-я]/)
  })

  it('is idempotent on Idempotency-Key: same request → same order, other request → 409', async () => {
    const key = randomUUID()
    const body = { gift: fx.plain, email: 'idem@example.com' }
    const first = await create(body, { key })
    const again = await create(body, { key })
    expect(first.status).toBe(201)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    const conflict = await create({ ...body, email: 'else@example.com' }, { key })
    expect(conflict.status).toBe(409)
    expect(conflict.body.code).toBe('idempotency_conflict')
    const rows = await api.db.select().from(orders).where(eq(orders.idempotencyKey, key))
    expect(rows).toHaveLength(1)
  })

  it('makes one order when requests with one key race', async () => {
    const key = randomUUID()
    const body = { gift: fx.other, email: 'race@example.com' }
    const results = await Promise.all(Array.from({ length: 6 }, () => create(body, { key })))
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1)
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(results.filter((r) => r.status === 200)).toHaveLength(5)
    expect(await api.db.select().from(orders).where(eq(orders.idempotencyKey, key))).toHaveLength(1)
  })

  it('refuses a malformed Idempotency-Key', async () => {
    const r = await create({ gift: fx.plain, email: 'a@example.com' }, { key: 'x'.repeat(256) })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('idempotency_key_invalid')
  })

  it('shows the gift in the recalculated order', async () => {
    const { body } = await create({ gift: fx.discounted, email: 'show@example.com' })
    const r = await api.call<{
      resourcetype: string
      gift: { id: number } | null
      total: string
      code: null
    }>('GET', `/api/orders/${body.id}/`)
    expect(r.status).toBe(200)
    expect(r.body.resourcetype).toBe('RokkyOrder')
    expect(r.body.code).toBeNull()
    expect(r.body.gift?.id).toBe(fx.discounted)
    expect(r.body.total).toBe('720.00')
  })
})

describe('updating a gift order', () => {
  const update = (id: string, body: unknown, token?: string) =>
    api.call<ErrorOut & { gift: { id: number } | null; total: string; email: string }>(
      'POST',
      `/api/orders/rokky/${id}/update/`,
      { body, token },
    )
  const delivery = (id: string, body: unknown, token?: string) =>
    api.call<ErrorOut & { email: string }>('POST', `/api/orders/rokky/${id}/delivery_details/update/`, {
      body,
      token,
    })

  it('changes the gift and reprices the order', async () => {
    const { body } = await create({ gift: fx.plain, email: 'u@example.com' })
    const r = await update(body.id, { gift: fx.discounted })
    expect(r.status).toBe(200)
    expect(r.body.gift?.id).toBe(fx.discounted)
    expect(r.body.total).toBe('720.00')
    expect(await orderRow(body.id)).toMatchObject({ giftId: fx.discounted, total: 72000, totalToPay: 72000 })
  })

  it('refuses a gift that cannot be bought', async () => {
    const { body } = await create({ gift: fx.plain, email: 'u@example.com' })
    expect((await update(body.id, { gift: fx.soldOut })).status).toBe(409)
    expect((await update(body.id, { gift: fx.hidden })).status).toBe(400)
    expect((await update(body.id, { gift: 'x' })).status).toBe(400)
    expect((await orderRow(body.id)).giftId).toBe(fx.plain)
  })

  it('drops a gift promo code that belongs to the old gift', async () => {
    const [promo] = await api.db
      .insert(promoCodes)
      .values({ code: `H7-${randomUUID()}`, kind: 'GiftPromoCode', percent: 20, giftId: fx.plain })
      .returning({ id: promoCodes.id })
    const { body } = await create({ gift: fx.plain, email: 'promo@example.com' })
    await api.db.update(orders).set({ promoCodeId: promo!.id }).where(eq(orders.id, body.id))
    const priced = await api.call<{ total_with_promocode: string }>('GET', `/api/orders/${body.id}/`)
    expect(priced.body.total_with_promocode).toBe('400.00')
    const r = await update(body.id, { gift: fx.other })
    expect(r.status).toBe(200)
    expect((await orderRow(body.id)).promoCodeId).toBeNull()
    expect((await orderRow(body.id)).totalToPay).toBe(30000)
  })

  it('changes the delivery email, checking it', async () => {
    const { body } = await create({ gift: fx.plain, email: 'old@example.com' })
    const r = await delivery(body.id, { email: 'New@Example.com' })
    expect(r.status).toBe(200)
    expect(r.body.email).toBe('new@example.com')
    expect((await orderRow(body.id)).email).toBe('new@example.com')
    expect((await delivery(body.id, { email: 'broken' })).body.code).toBe('order_email_invalid')
    expect((await delivery(body.id, { email: '' })).body.code).toBe('order_email_required')
    expect((await delivery(body.id, {})).status).toBe(400)
  })

  it('allows changes only while the order is unpaid', async () => {
    const { body } = await create({ gift: fx.plain, email: 'paid@example.com' })
    await transitionOrder(api.db, body.id, 'paid')
    const g = await update(body.id, { gift: fx.other })
    expect(g.status).toBe(409)
    expect(g.body.code).toBe('order_not_editable')
    const e = await delivery(body.id, { email: 'late@example.com' })
    expect(e.status).toBe(409)
    expect(await orderRow(body.id)).toMatchObject({ giftId: fx.plain, email: 'paid@example.com' })
  })

  it("hides other buyers' orders and refuses orders of another kind or a malformed id", async () => {
    const { body } = await create({ gift: fx.plain }, { token: alice.token })
    expect((await update(body.id, { gift: fx.other }, bob.token)).status).toBe(404)
    expect((await update(body.id, { gift: fx.other })).status).toBe(404)
    expect((await delivery(body.id, { email: 'x@example.com' }, bob.token)).status).toBe(404)
    expect((await update(body.id, { gift: fx.other }, alice.token)).status).toBe(200)
    expect((await update(randomUUID(), { gift: fx.other })).status).toBe(404)
    expect((await update('not-a-uuid', { gift: fx.other })).status).toBe(400)

    const steamLike = randomUUID()
    await api.db.insert(orders).values({ id: steamLike, kind: 'SteamOrder', total: 100, totalToPay: 100 })
    const wrong = await update(steamLike, { gift: fx.other })
    expect(wrong.status).toBe(400)
    expect(wrong.body.code).toBe('order_wrong_kind')
  })
})

describe('delivering gift codes', () => {
  async function paidOrder(gift: number, email: string) {
    const { body } = await create({ gift, email })
    await transitionOrder(api.db, body.id, 'paid')
    return body.id
  }

  it('delivers one code once: stored on the order and marked sold to it', async () => {
    const gift = await addGift({ title: 'Карта Дельта' }, 2)
    const id = await paidOrder(gift, 'code@example.com')
    expect(await fulfilOrder(deps, id)).toBe('done')
    const row = await orderRow(id)
    expect(row.code).toMatch(/^H7-/)
    const [code] = await api.db.select().from(giftCodes).where(eq(giftCodes.code, row.code!))
    expect(code).toMatchObject({ giftId: gift, orderId: id, soldAt: expect.any(Date) })
    // a second delivery attempt changes nothing
    expect(await fulfilOrder(deps, id)).toBe('done')
    expect((await orderRow(id)).code).toBe(row.code)
    const sold = await api.db.select().from(giftCodes).where(eq(giftCodes.orderId, id))
    expect(sold).toHaveLength(1)
    // the code shows in the buyer's view of the order (the payment page reads it there)
    const view = await api.call<{ status: string; code: string | null }>('GET', `/api/orders/${id}/`)
    expect(view.body).toMatchObject({ status: 'done', code: row.code })
  })

  it('fails with a Russian reason when the codes ran out after the order was placed', async () => {
    const gift = await addGift({ title: 'Карта Эпсилон' }, 1)
    const first = await paidOrder(gift, 'one@example.com')
    const second = await paidOrder(gift, 'two@example.com')
    expect(await fulfilOrder(deps, first)).toBe('done')
    expect(await fulfilOrder(deps, second)).toBe('failed')
    expect(await orderRow(second)).toMatchObject({
      status: 'failed',
      code: null,
      rejectReason: expect.stringContaining('Коды подарка «Карта Эпсилон» закончились'),
    })
    // and the catalogue now shows it out of stock
    const detail = await api.call<{ in_stock: boolean }>('GET', `/api/gifts/${gift}/`)
    expect(detail.body.in_stock).toBe(false)
  })

  it('never delivers a code twice: 30 concurrent paid orders for 10 codes', async () => {
    const gift = await addGift({ title: 'Карта Дзета' }, 10)
    const ids = await Promise.all(
      Array.from({ length: 30 }, (_, i) => paidOrder(gift, `buyer${i}@example.com`)),
    )
    const statuses = await Promise.all(ids.map((id) => fulfilOrder(deps, id)))
    expect(statuses.filter((s) => s === 'done')).toHaveLength(10)
    expect(statuses.filter((s) => s === 'failed')).toHaveLength(20)

    const rows = await api.db.select().from(orders).where(inArray(orders.id, ids))
    const delivered = rows.filter((r) => r.status === 'done')
    const codes = delivered.map((r) => r.code)
    expect(new Set(codes).size).toBe(10)
    for (const r of rows.filter((o) => o.status === 'failed')) {
      expect(r.code).toBeNull()
      expect(r.rejectReason).toContain('Карта Дзета')
    }
    const inventory = await api.db.select().from(giftCodes).where(eq(giftCodes.giftId, gift))
    expect(inventory.every((c) => c.soldAt !== null)).toBe(true)
    expect(inventory.map((c) => c.code).sort()).toEqual([...codes].sort())
    for (const c of inventory) expect(delivered.find((o) => o.id === c.orderId)?.code).toBe(c.code)
  })
})
