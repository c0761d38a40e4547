// The back-office's promo codes, payment setup and logos: who may call them, the Russian refusals,
// the audit entries, what a shopper sees afterwards, and the per-member limit on changes.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, gifts, paymentMethods, uploads } from '#api/db/schema'
import { grantRole } from '#api/services/admin/roles'
import { GIF, PNG, pngWithMetadata, SECRET } from '#tests/helpers/images'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeGame, makeProduct, makeUser } from './orders-fixtures'
import { createPubgOrder, type Err, hex, makeSandboxMethod, pay, pressOnCheckout } from './payments-fixtures'

type Promo = {
  id: number
  code: string
  resourcetype: string
  percent: number
  game: number | null
  gift: number | null
  expires_at: string | null
  max_uses: number | null
  used_count: number
  is_active: boolean
  redemptions: number
}
type PromoAnswer = { total_without_promocode: string; total_with_promocode: string }

let api: TestApi
let shopper: Awaited<ReturnType<typeof makeUser>>
let support: Awaited<ReturnType<typeof makeUser>>
let owner: Awaited<ReturnType<typeof makeUser>>
let gameId: number
let productId: number

beforeAll(async () => {
  api = await createTestApi()
  shopper = await makeUser(api)
  support = await makeStaff(api, 'support')
  owner = await makeStaff(api, 'owner')
  gameId = (await makeGame(api, 'PUBGGame')).id
  productId = (await makeProduct(api, gameId, 'PUBGProduct', { price: 10000, amountUc: 60 })).id
})
afterAll(() => api?.close())

const asOwner = <T>(method: string, url: string, body?: unknown) =>
  api.call<T & Err>(method, url, { body, token: owner.token })

async function createPromo(body: Record<string, unknown>) {
  const r = await asOwner<Promo>('POST', '/api/admin/promo_codes/', body)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return r.body
}

const applyTo = (orderId: string, code: string) =>
  api.call<PromoAnswer & Err>('POST', `/api/orders/${orderId}/activate_promo_code/`, { body: { code } })

async function auditOf(action: string, entityId: string | number) {
  return api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(entityId))))
}

describe('who may manage promo codes and payments', () => {
  const calls = (): Array<[string, string, unknown]> => [
    ['GET', '/api/admin/promo_codes/', undefined],
    ['POST', '/api/admin/promo_codes/', { code: `R${hex()}`, percent: 10, game: gameId }],
    ['PATCH', '/api/admin/promo_codes/1/', { is_active: false }],
    ['GET', '/api/admin/payments/', undefined],
    ['PATCH', '/api/admin/payments/methods/1/', { is_active: false }],
    ['PATCH', '/api/admin/payments/method_groups/1/', { order: 5 }],
    ['PATCH', '/api/admin/payments/countries/1/', { sort_order: 5 }],
  ]

  it('a guest and a shopper get the unknown-address 404, support a 403, and nothing changes', async () => {
    const before = await api.db.select().from(auditLog)
    for (const [method, url, body] of calls()) {
      for (const token of [undefined, shopper.token]) {
        const r = await api.call<Err>(method, url, { body, token })
        expect(r.status, `${method} ${url} as ${token ? 'shopper' : 'guest'}`).toBe(404)
        expect(r.body.detail).toBe(`Адрес ${url} не найден`)
      }
      const r = await api.call<Err>(method, url, { body, token: support.token })
      expect(r.status, `${method} ${url} as support`).toBe(403)
      expect(r.body.detail).toBe('Это действие доступно только владельцу магазина')
    }
    expect(await api.db.select().from(auditLog)).toHaveLength(before.length)
  })
})

describe('promo codes', () => {
  it('refuses bad input with a Russian message by the field', async () => {
    const [gift] = await api.db.select({ id: gifts.id }).from(gifts).limit(1)
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ code: 'ab', percent: 10, game: gameId }, 'code', /от 3 до 32/],
      [{ code: 'два слова', percent: 10, game: gameId }, 'code', /латинских/],
      [{ code: `P${hex()}`, percent: 0, game: gameId }, 'percent', /от 1 до 100/],
      [{ code: `P${hex()}`, percent: 101, game: gameId }, 'percent', /от 1 до 100/],
      [{ code: `P${hex()}`, percent: 10, game: gameId, max_uses: 0 }, 'max_uses', /не меньше 1/],
      [{ code: `P${hex()}`, percent: 10, game: gameId, expires_at: 'завтра' }, 'expires_at', /дата/],
      [{ code: `P${hex()}`, percent: 10 }, 'game', /все игры/],
      [{ code: `P${hex()}`, percent: 10, game: gameId, gift: gift!.id }, 'game', /одну игру/],
      [{ code: `P${hex()}`, percent: 10, gift: gift!.id, resourcetype: 'PromoCode' }, 'game', /одну игру/],
      [{ code: `P${hex()}`, percent: 10, game: 999_999 }, 'game', /[а-я]/],
    ]
    for (const [body, field, text] of cases) {
      const r = await asOwner('POST', '/api/admin/promo_codes/', body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(r.body.fields?.[field]?.[0], JSON.stringify(r.body)).toMatch(text)
    }
    const bad = await asOwner('PATCH', '/api/admin/promo_codes/999999/', { percent: 5 })
    expect(bad.status).toBe(404)
    expect(bad.body.detail).toMatch(/[а-я]/)
  })

  it('creates a code (audited) that a buyer then applies; a second one with the same letters is a 409', async () => {
    const code = `SALE${hex()}`
    const p = await createPromo({ code, percent: 15, game: gameId, max_uses: 100 })
    expect(p).toMatchObject({ code, percent: 15, game: gameId, gift: null, used_count: 0, is_active: true })
    const [entry] = await auditOf('promo.create', p.id)
    expect(entry).toMatchObject({ actorEmail: owner.email, entity: 'promo_code' })
    expect(entry?.after).toMatchObject({ code, percent: 15, max_uses: 100 })

    const dup = await asOwner('POST', '/api/admin/promo_codes/', {
      code: code.toLowerCase(),
      percent: 5,
      game: gameId,
    })
    expect(dup.status).toBe(409)
    expect(dup.body.detail).toBe('Такой промокод уже есть')

    const orderId = await createPubgOrder(api, productId)
    const applied = await applyTo(orderId, code.toLowerCase())
    expect(applied.status, JSON.stringify(applied.body)).toBe(200)
    expect(applied.body).toMatchObject({ total_without_promocode: '100.00', total_with_promocode: '85.00' })
  })

  it('an edit and a switch-off are audited with before and after; a switched-off code is unknown to buyers', async () => {
    const code = `OFF${hex()}`
    const p = await createPromo({ code, percent: 10, game: gameId })
    const edited = await asOwner<Promo>('PATCH', `/api/admin/promo_codes/${p.id}/`, {
      percent: 20,
      expires_at: '2099-01-01T00:00:00Z',
    })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ percent: 20, expires_at: '2099-01-01T00:00:00.000Z' })
    const off = await asOwner<Promo>('PATCH', `/api/admin/promo_codes/${p.id}/`, { is_active: false })
    expect(off.body.is_active).toBe(false)
    const updates = await auditOf('promo_code.update', p.id)
    expect(updates.map((e) => [e.before, e.after])).toEqual([
      [
        { percent: 10, expiresAt: null },
        { percent: 20, expiresAt: '2099-01-01T00:00:00.000Z' },
      ],
      [{ isActive: true }, { isActive: false }],
    ])
    const refused = await applyTo(await createPubgOrder(api, productId), code)
    expect(refused.status).toBe(404)
    expect(refused.body.code).toBe('promo_code_unknown')
  })

  it('shows how often a code was paid with', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect')
    const code = `PAID${hex()}`
    const p = await createPromo({ code, percent: 50, game: gameId, max_uses: 3 })
    const orderId = await createPubgOrder(api, productId)
    expect((await applyTo(orderId, code)).status).toBe(200)
    const started = await pay(api, method.name, orderId)
    expect(started.status, JSON.stringify(started.body)).toBe(200)
    await pressOnCheckout(api, started.body.payment_id, 'confirm')
    const list = await asOwner<Promo[]>('GET', '/api/admin/promo_codes/')
    expect(list.body.find((x) => x.id === p.id)).toMatchObject({ used_count: 1, redemptions: 1, max_uses: 3 })
  })

  it('a code for every game fits an order of any game, and not a gift order', async () => {
    const code = `ALL${hex()}`
    const p = await createPromo({ code, percent: 10, resourcetype: 'PromoCode' })
    expect(p).toMatchObject({ resourcetype: 'PromoCode', game: null, gift: null })
    const otherGame = (await makeGame(api, 'PUBGGame')).id
    const other = (await makeProduct(api, otherGame, 'PUBGProduct', { price: 20000, amountUc: 60 })).id
    for (const [pid, total] of [
      [productId, '90.00'],
      [other, '180.00'],
    ] as const) {
      const r = await applyTo(await createPubgOrder(api, pid), code)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.total_with_promocode).toBe(total)
    }
    const [gift] = await api.db.select({ id: gifts.id }).from(gifts).where(eq(gifts.isActive, true)).limit(1)
    const giftOrder = await api.call<{ id: string }>('POST', '/api/orders/rokky/', {
      body: { gift: gift!.id, email: `g${hex()}@example.com` },
    })
    expect(giftOrder.status, JSON.stringify(giftOrder.body)).toBe(201)
    const refused = await applyTo(giftOrder.body.id, code)
    expect(refused.status).toBe(400)
    expect(refused.body.detail).toMatch(/[а-я]/)
  })
})

describe('payment setup', () => {
  type Country = {
    id: number
    sort_order: number
    method_groups: Array<{ id: number; order: number; methods: Array<{ id: number; name: string }> }>
  }
  type PublicCountry = {
    method_groups: Array<{
      methods: Array<{ name: string; is_active: boolean; fee: string; min_amount: string }>
    }>
  }
  const publicMethod = async (name: string) => {
    const r = await api.call<PublicCountry>('GET', '/api/payments/countries/active/')
    return r.body.method_groups.flatMap((g) => g.methods).find((m) => m.name === name)
  }

  it('a method switched off is shown inactive and refuses payments; fees and minimum change; all audited', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect')
    const all = await asOwner<Country[]>('GET', '/api/admin/payments/')
    expect(all.status).toBe(200)
    expect(all.body.flatMap((c) => c.method_groups.flatMap((g) => g.methods)).map((m) => m.name)).toContain(
      method.name,
    )

    const off = await asOwner('PATCH', `/api/admin/payments/methods/${method.id}/`, {
      is_active: false,
      fee_bp: 250,
      fix_fee: '10.00',
      min_amount: '50.00',
    })
    expect(off.status, JSON.stringify(off.body)).toBe(200)
    expect(await publicMethod(method.name)).toMatchObject({
      is_active: false,
      fee: '2.50',
      min_amount: '50.00',
    })
    const refused = await pay(api, method.name, await createPubgOrder(api, productId))
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('payment_method_inactive')
    const [entry] = await auditOf('payment_method.update', method.id)
    expect(entry).toMatchObject({
      actorEmail: owner.email,
      before: { isActive: true, fee: 0, fixFee: 0, minAmount: 0 },
      after: { isActive: false, fee: 250, fixFee: 1000, minAmount: 5000 },
    })

    expect(
      (await asOwner('PATCH', `/api/admin/payments/methods/${method.id}/`, { is_active: true })).status,
    ).toBe(200)
    expect(await publicMethod(method.name)).toMatchObject({ is_active: true })
    const started = await pay(api, method.name, await createPubgOrder(api, productId))
    expect(started.status, JSON.stringify(started.body)).toBe(200)
  })

  it('groups and countries are reordered (audited) and the shop lists them in that order', async () => {
    const all = await asOwner<Country[]>('GET', '/api/admin/payments/')
    const country = all.body[0]!
    const last = country.method_groups.at(-1)!
    const r = await asOwner('PATCH', `/api/admin/payments/method_groups/${last.id}/`, { order: -5 })
    expect(r.status).toBe(200)
    const after = await asOwner<Country[]>('GET', '/api/admin/payments/')
    expect(after.body[0]!.method_groups[0]!.id).toBe(last.id)
    expect(await auditOf('payment_method_group.update', last.id)).toHaveLength(1)

    const second = all.body[1]!
    expect(
      (await asOwner('PATCH', `/api/admin/payments/countries/${second.id}/`, { sort_order: -100 })).status,
    ).toBe(200)
    const reordered = await asOwner<Country[]>('GET', '/api/admin/payments/')
    expect(reordered.body[0]!.id).toBe(second.id)
    const [entry] = await auditOf('country.update', second.id)
    expect(entry).toMatchObject({ before: { sortOrder: second.sort_order }, after: { sortOrder: -100 } })
  })

  it('methods are reordered within their group (audited), for the shop as for the back-office', async () => {
    const first = await makeSandboxMethod(api, 'redirect')
    const [group] = await api.db
      .select({ id: paymentMethods.groupId })
      .from(paymentMethods)
      .where(eq(paymentMethods.id, first.method.id))
    const [second] = await api.db
      .insert(paymentMethods)
      .values({
        groupId: group!.id,
        name: `second-${hex()}`,
        title: 'Second',
        provider: 'sandbox',
        scenario: 'redirect',
      })
      .returning()
    const names = async () => {
      const r = await api.call<PublicCountry>('GET', '/api/payments/countries/active/')
      return r.body.method_groups.flatMap((g) => g.methods.map((m) => m.name))
    }
    const adminNames = async () => {
      const r = await asOwner<Country[]>('GET', '/api/admin/payments/')
      return r.body.flatMap((c) => c.method_groups.flatMap((g) => g.methods.map((m) => m.name)))
    }
    const order = (list: string[]) => list.filter((n) => n === first.method.name || n === second!.name)
    expect(order(await names())).toEqual([first.method.name, second!.name])
    const r = await asOwner('PATCH', `/api/admin/payments/methods/${second!.id}/`, { sort_order: -1 })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(order(await names())).toEqual([second!.name, first.method.name])
    expect(order(await adminNames())).toEqual([second!.name, first.method.name])
    const [entry] = await auditOf('payment_method.update', second!.id)
    expect(entry).toMatchObject({ before: { sortOrder: 0 }, after: { sortOrder: -1 } })
  })

  it('refuses bad fees, amounts, rates and names with Russian messages by the field', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect')
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [`/api/admin/payments/methods/${method.id}/`, { fee_bp: 5001 }, 'fee_bp'],
      [`/api/admin/payments/methods/${method.id}/`, { fee_bp: 2.5 }, 'fee_bp'],
      [`/api/admin/payments/methods/${method.id}/`, { min_amount: '-1' }, 'min_amount'],
      [`/api/admin/payments/methods/${method.id}/`, { fix_fee: 'десять' }, 'fix_fee'],
      [`/api/admin/payments/methods/${method.id}/`, { title: '' }, 'title'],
      [`/api/admin/payments/countries/1/`, { rate_micro: 0 }, 'rate_micro'],
      [`/api/admin/payments/method_groups/1/`, { order: 5000 }, 'order'],
      [`/api/admin/payments/methods/${method.id}/`, { sort_order: 'первый' }, 'sort_order'],
    ]
    for (const [url, body, field] of cases) {
      const r = await asOwner('PATCH', url, body)
      expect(r.status, `${url} ${JSON.stringify(body)}`).toBe(400)
      expect(r.body.fields?.[field]?.[0], JSON.stringify(r.body)).toMatch(/[а-я]/)
    }
    const unknown = await asOwner('PATCH', '/api/admin/payments/methods/999999/', { is_active: false })
    expect(unknown.status).toBe(404)
    expect(await auditOf('payment_method.update', method.id)).toHaveLength(0)
  })
})

describe('the limit on back-office changes', () => {
  let limited: TestApi
  beforeAll(async () => {
    limited = await createTestApi({
      seed: false,
      env: { ADMIN_WRITE_LIMIT: '3', ADMIN_WRITE_WINDOW: '3600' },
    })
  })
  afterAll(() => limited?.close())

  it('counts changes per staff member (not reads) and answers 429 with Retry-After in Russian', async () => {
    const a = await makeUser(limited)
    const b = await makeUser(limited)
    await grantRole(limited.db, a.email, 'owner', 'test')
    await grantRole(limited.db, b.email, 'owner', 'test')
    const game = (await makeGame(limited, 'PUBGGame')).id
    const create = (token: string) =>
      limited.call<Err>('POST', '/api/admin/promo_codes/', {
        body: { code: `L${hex()}`, percent: 10, game },
        token,
      })
    for (let i = 0; i < 3; i++) expect((await create(a.token)).status).toBe(200)
    const over = await create(a.token)
    expect(over.status).toBe(429)
    expect(over.body.detail).toMatch(/^Слишком много попыток/)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    // reads go on, and another member has a count of their own
    expect((await limited.call('GET', '/api/admin/promo_codes/', { token: a.token })).status).toBe(200)
    expect((await create(b.token)).status).toBe(200)
  })
})

describe('logos', () => {
  async function upload(
    what: 'games' | 'gifts',
    id: number,
    file: Buffer | string | null,
    token = owner.token,
  ) {
    const form = new FormData()
    if (file !== null)
      form.set('logo', new Blob([typeof file === 'string' ? file : new Uint8Array(file)]), 'logo.png')
    const res = await api.app.request(`/api/admin/${what}/${id}/logo/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    return { status: res.status, body: (await res.json()) as { logo: string } & Err }
  }

  it('a game’s logo is stored without its metadata, served from /media/, replaced by the next one, audited', async () => {
    const game = await makeGame(api, 'PUBGGame', { logo: '/images/games/old.svg' })
    const first = await upload('games', game.id, pngWithMetadata())
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.logo).toMatch(/^\/media\/[0-9a-f]{32}\.png$/)
    const served = await api.app.request(first.body.logo)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await served.arrayBuffer()).includes(SECRET)).toBe(false)
    const shop = await api.call<{ logo: string }>('GET', `/api/games/${game.id}/`)
    expect(shop.body.logo).toBe(first.body.logo)

    const second = await upload('games', game.id, GIF)
    expect(second.status).toBe(200)
    expect((await api.app.request(first.body.logo)).status).toBe(404)
    expect((await api.db.select().from(uploads).where(eq(uploads.gameId, game.id))).length).toBe(1)
    const entries = await auditOf('game.logo', game.id)
    expect(entries.map((e) => [e.before, e.after])).toEqual([
      [{ logo: '/images/games/old.svg' }, { logo: first.body.logo }],
      [{ logo: first.body.logo }, { logo: second.body.logo }],
    ])
  })

  it('a gift’s logo too; refuses a non-image, a missing file and an unknown item in Russian; owner only', async () => {
    const [gift] = await api.db.select({ id: gifts.id }).from(gifts).limit(1)
    const ok = await upload('gifts', gift!.id, PNG)
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    const [row] = await api.db.select({ logo: gifts.logo }).from(gifts).where(eq(gifts.id, gift!.id))
    expect(row?.logo).toBe(ok.body.logo)

    const notImage = await upload('gifts', gift!.id, '<svg onload="alert(1)"></svg>')
    expect(notImage.status).toBe(400)
    expect(notImage.body.fields?.logo?.[0]).toBe('Логотип должен быть изображением PNG, JPEG, WebP или GIF')
    const none = await upload('gifts', gift!.id, null)
    expect(none.status).toBe(400)
    expect(none.body.fields?.logo?.[0]).toBe('Выберите файл логотипа')
    expect((await upload('games', 999_999, PNG)).status).toBe(404)
    expect((await upload('games', gameId, PNG, support.token)).status).toBe(403)
    expect((await upload('games', gameId, PNG, shopper.token)).status).toBe(404)
  })
})
