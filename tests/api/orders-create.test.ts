import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { games, orderProducts, orders, products, standoffSettings } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import {
  ensureSettings,
  type Err,
  makeGame,
  makeProduct,
  makeServer,
  makeUser,
  onlyActive,
} from './orders-fixtures'

type Created = {
  id: string
  total: string
  products: Array<{ quantity: number; product: number; id: number }>
}

let api: TestApi
let pubg: Awaited<ReturnType<typeof makeGame>>
let uc60: Awaited<ReturnType<typeof makeProduct>>
let uc325: Awaited<ReturnType<typeof makeProduct>>
let ucOff: Awaited<ReturnType<typeof makeProduct>>
let otherPubgProduct: Awaited<ReturnType<typeof makeProduct>>
let goldProduct: Awaited<ReturnType<typeof makeProduct>>
let authGameProduct: Awaited<ReturnType<typeof makeProduct>>
let hiddenGameProduct: Awaited<ReturnType<typeof makeProduct>>

const RUSSIAN = /[А-Яа-яЁё]/

async function expectRefusal(
  r: { status: number; body: unknown },
  status: number,
  code: string,
): Promise<Err> {
  const body = r.body as Err
  expect({ status: r.status, code: body.code }).toEqual({ status, code })
  expect(body.detail).toMatch(RUSSIAN)
  return body
}

const post = (url: string, body: unknown, opts: { token?: string; key?: string } = {}) =>
  api.call('POST', url, {
    body,
    token: opts.token,
    headers: opts.key ? { 'idempotency-key': opts.key } : {},
  })

beforeAll(async () => {
  api = await createTestApi()
  await ensureSettings(api)
  pubg = await makeGame(api, 'PUBGGame')
  uc60 = await makeProduct(api, pubg.id, 'PUBGProduct', {
    price: 9900,
    amountUc: 60,
    minQuantity: 1,
    maxQuantity: 5,
  })
  uc325 = await makeProduct(api, pubg.id, 'PUBGProduct', {
    price: 49900,
    discountPrice: 44900,
    amountUc: 325,
    minQuantity: 2,
    maxQuantity: 10,
  })
  ucOff = await makeProduct(api, pubg.id, 'PUBGProduct', { isActive: false })
  const otherPubg = await makeGame(api, 'PUBGGame')
  otherPubgProduct = await makeProduct(api, otherPubg.id, 'PUBGProduct')
  const standoff = await makeGame(api, 'StandoffGame')
  goldProduct = await makeProduct(api, standoff.id, 'StandoffProduct', { price: 12000, gold: 100 })
  const authGame = await makeGame(api, 'PUBGGame', { isAuthRequired: true })
  authGameProduct = await makeProduct(api, authGame.id, 'PUBGProduct')
  const hidden = await makeGame(api, 'PUBGGame', { isActive: false })
  hiddenGameProduct = await makeProduct(api, hidden.id, 'PUBGProduct')
})
afterAll(() => api.close())

describe('POST /api/orders/pubg/', () => {
  it('creates a guest order priced on the server from current (discounted) prices', async () => {
    const r = await post('/api/orders/pubg/', {
      products: [
        { quantity: 2, product_id: uc60.id, price: '0.01' },
        { quantity: 3, product_id: uc325.id, total: '1.00' },
      ],
      email: ' Buyer@Example.com ',
      total: '1.00',
    })
    expect(r.status).toBe(201)
    const body = r.body as Created
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/)
    // 2 × 99.00 + 3 × 449.00 (discount price), whatever the client claimed
    expect(body.total).toBe('1545.00')
    expect(body.products.map((l) => [l.product, l.quantity])).toEqual([
      [uc60.id, 2],
      [uc325.id, 3],
    ])
    const [row] = await api.db.select().from(orders).where(eq(orders.id, body.id))
    expect(row).toMatchObject({
      kind: 'PUBGOrder',
      status: 'created',
      email: 'buyer@example.com',
      userId: null,
    })
    expect(row).toMatchObject({ total: 154500, totalToPay: 154500, gameId: pubg.id })
    const lines = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, body.id))
    expect(lines.map((l) => l.price).sort((a, b) => a - b)).toEqual([9900, 44900])
  })

  it('drops lines with quantity 0 and refuses an order with no line left', async () => {
    const r = await post('/api/orders/pubg/', {
      products: [
        { quantity: 0, product_id: uc325.id },
        { quantity: 1, product_id: uc60.id },
      ],
      email: 'a@example.com',
    })
    expect(r.status).toBe(201)
    expect((r.body as Created).products).toHaveLength(1)
    const zero = await post('/api/orders/pubg/', {
      products: [{ quantity: 0, product_id: uc60.id }],
      email: 'a@b.cd',
    })
    const e = await expectRefusal(zero, 400, 'order_empty')
    expect(e.fields).toHaveProperty('products')
    await expectRefusal(
      await post('/api/orders/pubg/', { products: [], email: 'a@b.cd' }),
      400,
      'order_empty',
    )
  })

  it('refuses malformed quantities and product ids with a Russian message', async () => {
    const bad: unknown[] = [
      { quantity: -1, product_id: uc60.id },
      { quantity: 1.5, product_id: uc60.id },
      { quantity: '2', product_id: uc60.id },
      { quantity: null, product_id: uc60.id },
      { quantity: 1e12, product_id: uc60.id },
      { quantity: 1, product_id: 'abc' },
      { quantity: 1, product_id: 0 },
      { quantity: 1, product_id: -3 },
      { quantity: 1 },
      'line',
    ]
    for (const line of bad) {
      const r = await post('/api/orders/pubg/', { products: [line], email: 'a@b.cd' })
      const e = await expectRefusal(r, 400, 'validation_error')
      expect(Object.keys(e.fields ?? {}).join(), JSON.stringify(line)).toMatch(/^products/)
    }
    await expectRefusal(
      await post('/api/orders/pubg/', { products: 'all', email: 'a@b.cd' }),
      400,
      'validation_error',
    )
    await expectRefusal(await post('/api/orders/pubg/', { email: 'a@b.cd' }), 400, 'validation_error')
  })

  it('refuses a malformed JSON body or one that is not an object, in Russian', async () => {
    const r = await api.call('POST', '/api/orders/pubg/', { body: '{"products": [', headers: {} })
    expect(r.status).toBe(400)
    for (const url of [
      '/api/orders/pubg/',
      '/api/orders/standoff/',
      '/api/orders/steam/',
      '/api/orders/supply_channel/',
    ]) {
      for (const body of [[], 42, null]) {
        const e = await expectRefusal(await post(url, body), 400, 'validation_error')
        expect(e.detail).not.toMatch(/Invalid|expected/)
      }
    }
  })

  it('names the field once in a validation message', async () => {
    const e = await expectRefusal(
      await post('/api/orders/pubg/', {
        products: [{ quantity: 'x', product_id: uc60.id }],
        email: 'a@b.cd',
      }),
      400,
      'validation_error',
    )
    expect(e.detail).toBe('products.0.quantity: ожидается целое число')
  })

  it('keeps each quantity within the product min and max', async () => {
    const low = await post('/api/orders/pubg/', {
      products: [{ quantity: 1, product_id: uc325.id }],
      email: 'a@b.cd',
    })
    expect((await expectRefusal(low, 400, 'order_quantity_below_min')).detail).toContain('2')
    const high = await post('/api/orders/pubg/', {
      products: [{ quantity: 6, product_id: uc60.id }],
      email: 'a@b.cd',
    })
    expect((await expectRefusal(high, 400, 'order_quantity_above_max')).detail).toContain('5')
    const edge = await post('/api/orders/pubg/', {
      products: [
        { quantity: 5, product_id: uc60.id },
        { quantity: 2, product_id: uc325.id },
      ],
      email: 'a@b.cd',
    })
    expect(edge.status).toBe(201)
  })

  it('refuses unknown, inactive, foreign, wrong-kind and duplicated products', async () => {
    const line = (product_id: number, quantity = 1) => ({ quantity, product_id })
    const cases: Array<[unknown[], string]> = [
      [[line(99_999_999)], 'order_product_unknown'],
      [[line(ucOff.id)], 'order_product_inactive'],
      [[line(uc60.id), line(otherPubgProduct.id)], 'order_products_mixed_games'],
      [[line(goldProduct.id)], 'order_wrong_game_kind'],
      [[line(hiddenGameProduct.id)], 'order_game_unavailable'],
      [[line(uc60.id), line(uc60.id)], 'order_duplicate_product'],
    ]
    for (const [products, code] of cases) {
      await expectRefusal(await post('/api/orders/pubg/', { products, email: 'a@b.cd' }), 400, code)
    }
  })

  it('requires a valid email from guests', async () => {
    const products = [{ quantity: 1, product_id: uc60.id }]
    await expectRefusal(await post('/api/orders/pubg/', { products }), 400, 'order_email_required')
    await expectRefusal(
      await post('/api/orders/pubg/', { products, email: '  ' }),
      400,
      'order_email_required',
    )
    for (const email of ['not-an-email', 'a@', '@b.cd', 'a b@c.de']) {
      const e = await expectRefusal(
        await post('/api/orders/pubg/', { products, email }),
        400,
        'order_email_invalid',
      )
      expect(e.fields).toHaveProperty('email')
    }
    await expectRefusal(await post('/api/orders/pubg/', { products, email: 42 }), 400, 'validation_error')
  })

  it('gives signed-in users their account email and stores the user id', async () => {
    const user = await makeUser(api)
    const products = [{ quantity: 1, product_id: uc60.id }]
    const r = await post('/api/orders/pubg/', { products }, { token: user.token })
    expect(r.status).toBe(201)
    const [row] = await api.db
      .select()
      .from(orders)
      .where(eq(orders.id, (r.body as Created).id))
    expect(row).toMatchObject({ userId: user.id, email: user.email })
    const own = await post(
      '/api/orders/pubg/',
      { products, email: 'gift@example.com' },
      { token: user.token },
    )
    const [row2] = await api.db
      .select()
      .from(orders)
      .where(eq(orders.id, (own.body as Created).id))
    expect(row2).toMatchObject({ userId: user.id, email: 'gift@example.com' })
  })

  it('refuses guests in a game that requires sign-in, and serves signed-in users', async () => {
    const products = [{ quantity: 1, product_id: authGameProduct.id }]
    await expectRefusal(
      await post('/api/orders/pubg/', { products, email: 'a@b.cd' }),
      403,
      'order_auth_required',
    )
    const user = await makeUser(api)
    expect((await post('/api/orders/pubg/', { products }, { token: user.token })).status).toBe(201)
  })

  it('answers 401 to an invalid token rather than treating the caller as a guest', async () => {
    const r = await post(
      '/api/orders/pubg/',
      { products: [{ quantity: 1, product_id: uc60.id }] },
      { token: 'x.y.z' },
    )
    expect(r.status).toBe(401)
  })
})

describe('Idempotency-Key', () => {
  const body = () => ({ products: [{ quantity: 1, product_id: uc60.id }], email: 'idem@example.com' })

  it('returns the same order for the same key and body, and 409 for another body', async () => {
    const first = await post('/api/orders/pubg/', body(), { key: 'key-same-1' })
    expect(first.status).toBe(201)
    const again = await post('/api/orders/pubg/', body(), { key: 'key-same-1' })
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    // key order in the JSON does not matter
    const reordered = await post(
      '/api/orders/pubg/',
      { email: 'idem@example.com', products: [{ product_id: uc60.id, quantity: 1 }] },
      { key: 'key-same-1' },
    )
    expect(reordered.body).toEqual(first.body)
    const other = await post(
      '/api/orders/pubg/',
      { ...body(), products: [{ quantity: 2, product_id: uc60.id }] },
      { key: 'key-same-1' },
    )
    await expectRefusal(other, 409, 'idempotency_conflict')
    const rows = await api.db.select().from(orders).where(eq(orders.idempotencyKey, 'key-same-1'))
    expect(rows).toHaveLength(1)
    expect(rows[0]!.requestHash).toMatch(/^[0-9a-f]{64}$/)
  })

  it('answers a repeat with its order even when the product was switched off since', async () => {
    const gone = await makeProduct(api, pubg.id, 'PUBGProduct', { price: 9900, amountUc: 60, codes: 2 })
    const order = { products: [{ quantity: 1, product_id: gone.id }], email: 'idem@example.com' }
    const first = await post('/api/orders/pubg/', order, { key: 'key-gone-1' })
    expect(first.status).toBe(201)
    await api.db.update(products).set({ isActive: false }).where(eq(products.id, gone.id))
    const again = await post('/api/orders/pubg/', order, { key: 'key-gone-1' })
    expect([again.status, again.body]).toEqual([200, first.body])
    // a new request for it is refused, and a different body under the key is still a conflict
    await expectRefusal(await post('/api/orders/pubg/', order), 400, 'order_product_inactive')
    await expectRefusal(
      await post('/api/orders/pubg/', { ...order, email: 'other@example.com' }, { key: 'key-gone-1' }),
      409,
      'idempotency_conflict',
    )
  })

  it('binds a key to its caller and its order kind', async () => {
    const user = await makeUser(api)
    await post('/api/orders/pubg/', body(), { key: 'key-owner-1' })
    await expectRefusal(
      await post('/api/orders/pubg/', body(), { key: 'key-owner-1', token: user.token }),
      409,
      'idempotency_conflict',
    )
    await expectRefusal(
      await post('/api/orders/standoff/', body(), { key: 'key-owner-1' }),
      409,
      'idempotency_conflict',
    )
  })

  it('makes one order from concurrent requests with one key', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, () => post('/api/orders/pubg/', body(), { key: 'key-race-1' })),
    )
    const ids = new Set(results.map((r) => (r.body as Created).id))
    expect(ids.size).toBe(1)
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 201])
    const rows = await api.db.select().from(orders).where(eq(orders.idempotencyKey, 'key-race-1'))
    expect(rows).toHaveLength(1)
  })

  it('refuses malformed keys and makes a new order per request without a key', async () => {
    await expectRefusal(
      await post('/api/orders/pubg/', body(), { key: 'x'.repeat(256) }),
      400,
      'idempotency_key_invalid',
    )
    await expectRefusal(
      await post('/api/orders/pubg/', body(), { key: 'a b' }),
      400,
      'idempotency_key_invalid',
    )
    const a = await post('/api/orders/pubg/', body())
    const b = await post('/api/orders/pubg/', body())
    expect((a.body as Created).id).not.toBe((b.body as Created).id)
  })
})

describe('POST /api/orders/standoff/', () => {
  const products = () => [{ quantity: 2, product_id: goldProduct.id }]

  it('creates the order with its account id and surplus and answers the Standoff shape', async () => {
    const r = await post('/api/orders/standoff/', {
      products: products(),
      email: 'so@example.com',
      game_account_id: ' 12345678 ',
      surplus: '0.07',
    })
    expect(r.status).toBe(201)
    const body = r.body as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(['game_account_id', 'game_avatar', 'id', 'number', 'total'])
    expect(body).toMatchObject({ game_account_id: '12345678', game_avatar: null, total: '240.00' })
    const [row] = await api.db
      .select()
      .from(orders)
      .where(eq(orders.id, body.id as string))
    expect(row).toMatchObject({ kind: 'StandoffOrder', surplus: 7, gameAccountId: '12345678' })
  })

  it('accepts the surplus as a string or number from 0.00 to 0.23 in steps of 0.01', async () => {
    for (const [surplus, stored] of [
      [0, 0],
      ['0.00', 0],
      [0.1, 10],
      ['0.1', 10],
      [0.23, 23],
      ['0.23', 23],
      [0.07, 7],
    ] as const) {
      await api.db.update(orders).set({ status: 'failed' }).where(eq(orders.kind, 'StandoffOrder'))
      const r = await post('/api/orders/standoff/', {
        products: products(),
        email: 'so@example.com',
        game_account_id: '1',
        surplus,
      })
      expect(r.status, String(surplus)).toBe(201)
      const [row] = await api.db
        .select()
        .from(orders)
        .where(eq(orders.id, (r.body as { id: string }).id))
      expect(row!.surplus).toBe(stored)
      // the buyer's surplus is kept while no other open order lists at that price (issue 31)
      await api.db.update(orders).set({ status: 'failed' }).where(eq(orders.kind, 'StandoffOrder'))
    }
    for (const surplus of ['0.24', 0.24, '0.005', 0.005, -0.01, '-0.01', '1', 'abc', ' 0.1x', '0,1', true]) {
      const r = await post('/api/orders/standoff/', {
        products: products(),
        email: 'so@example.com',
        game_account_id: '1',
        surplus,
      })
      expect(`${String(surplus)} → ${r.status}`).toBe(`${String(surplus)} → 400`)
      expect((r.body as Err).code).toMatch(/^(surplus_invalid|validation_error)$/)
    }
  })

  it('stores 0 when no surplus is sent, and none while the settings switch the surplus off', async () => {
    const body = { products: products(), email: 'so@example.com', game_account_id: '1' }
    // no other open order of this pack holds the price (issue 31: unique among open orders)
    await api.db.update(orders).set({ status: 'failed' }).where(eq(orders.kind, 'StandoffOrder'))
    const r = await post('/api/orders/standoff/', body)
    const [row] = await api.db
      .select()
      .from(orders)
      .where(eq(orders.id, (r.body as { id: string }).id))
    expect(row!.surplus).toBe(0)
    await api.db.update(standoffSettings).set({ isSurplusEnabled: false })
    const off = await post('/api/orders/standoff/', { ...body, surplus: '0.05' })
    const [offRow] = await api.db
      .select()
      .from(orders)
      .where(eq(orders.id, (off.body as { id: string }).id))
    expect(offRow!.surplus).toBeNull()
    await api.db.update(standoffSettings).set({ isSurplusEnabled: true })
  })

  it('requires the game account id', async () => {
    for (const game_account_id of [undefined, '', '   ', null]) {
      const r = await post('/api/orders/standoff/', {
        products: products(),
        email: 'so@example.com',
        game_account_id,
      })
      await expectRefusal(r, 400, 'game_account_id_required')
    }
  })

  it('refuses PUBG products', async () => {
    const r = await post('/api/orders/standoff/', {
      products: [{ quantity: 1, product_id: uc60.id }],
      email: 'so@example.com',
      game_account_id: '1',
    })
    await expectRefusal(r, 400, 'order_wrong_game_kind')
  })
})

describe('POST /api/orders/steam/', () => {
  let steam: Awaited<ReturnType<typeof makeGame>>
  beforeAll(async () => {
    steam = await makeGame(api, 'Steam')
    await onlyActive(api, 'Steam', steam.id)
  })

  it('adds the commission to the amount (8 % of 1000.00 → 1080.00) and answers {id, total}', async () => {
    const r = await post('/api/orders/steam/', {
      amount: '1000.00',
      steam_account_id: 'gaben',
      email: 's@example.com',
    })
    expect(r.status).toBe(201)
    expect(Object.keys(r.body as object).sort()).toEqual(['id', 'number', 'total'])
    expect((r.body as { total: string }).total).toBe('1080.00')
    const [row] = await api.db
      .select()
      .from(orders)
      .where(eq(orders.id, (r.body as { id: string }).id))
    expect(row).toMatchObject({
      kind: 'SteamOrder',
      steamAmount: 100000,
      steamAccountId: 'gaben',
      gameId: steam.id,
    })
  })

  it('rounds the commission to the kopeck, half up (123.45 → 9.88 → 133.33)', async () => {
    const r = await post('/api/orders/steam/', {
      amount: 123.45,
      steam_account_id: 'gaben',
      email: 's@example.com',
    })
    expect((r.body as { total: string }).total).toBe('133.33')
  })

  it('keeps the amount within the settings bounds', async () => {
    const base = { steam_account_id: 'gaben', email: 's@example.com' }
    expect((await post('/api/orders/steam/', { ...base, amount: '100.00' })).status).toBe(201)
    expect((await post('/api/orders/steam/', { ...base, amount: '15000' })).status).toBe(201)
    const low = await expectRefusal(
      await post('/api/orders/steam/', { ...base, amount: '99.99' }),
      400,
      'steam_amount_below_min',
    )
    expect(low.detail).toContain('100.00')
    await expectRefusal(
      await post('/api/orders/steam/', { ...base, amount: '15000.01' }),
      400,
      'steam_amount_above_max',
    )
    for (const amount of ['12.345', '-5', 'abc', '', '1e3', Number.POSITIVE_INFINITY]) {
      const r = await post('/api/orders/steam/', { ...base, amount })
      expect(r.status, String(amount)).toBe(400)
    }
    await expectRefusal(await post('/api/orders/steam/', { ...base }), 400, 'validation_error')
  })

  it('requires the Steam account id and the guest email', async () => {
    await expectRefusal(
      await post('/api/orders/steam/', { amount: 500, email: 's@example.com' }),
      400,
      'steam_account_required',
    )
    await expectRefusal(
      await post('/api/orders/steam/', { amount: 500, steam_account_id: 'g' }),
      400,
      'order_email_required',
    )
  })

  it("takes the spec's body without `game` when several Steam games are active: the catalogue's first", async () => {
    const base = { amount: 500, steam_account_id: 'g', email: 's@example.com' }
    const idOf = async (r: { status: number; body: unknown }) => {
      expect(r.status, JSON.stringify(r.body)).toBe(201)
      const [row] = await api.db
        .select()
        .from(orders)
        .where(eq(orders.id, (r.body as { id: string }).id))
      return row!.gameId
    }
    // a second Steam game listed after the first, then one listed before it
    const second = await makeGame(api, 'Steam', { sortOrder: steam.sortOrder + 1 })
    expect(await idOf(await post('/api/orders/steam/', base))).toBe(steam.id)
    expect(await idOf(await post('/api/orders/steam/', { ...base, game: null }))).toBe(steam.id)
    const first = await makeGame(api, 'Steam', { sortOrder: steam.sortOrder - 1 })
    expect(await idOf(await post('/api/orders/steam/', base))).toBe(first.id)
    // `game` given: that one
    expect(await idOf(await post('/api/orders/steam/', { ...base, game: second.id }))).toBe(second.id)
    await expectRefusal(
      await post('/api/orders/steam/', { ...base, game: pubg.id }),
      400,
      'order_game_unavailable',
    )
    await expectRefusal(await post('/api/orders/steam/', { ...base, game: 'abc' }), 400, 'validation_error')
    await onlyActive(api, 'Steam', steam.id)
    // none active: a clear refusal
    await api.db.update(games).set({ isActive: false }).where(eq(games.id, steam.id))
    await expectRefusal(await post('/api/orders/steam/', base), 400, 'steam_unavailable')
    await api.db.update(games).set({ isActive: true }).where(eq(games.id, steam.id))
  })
})

describe('POST /api/orders/supply_channel/', () => {
  it('takes a server from the list when the game enumerates them', async () => {
    const game = await makeGame(api, 'SupplyGame', { isServerNeeded: true, isServerEnum: true })
    const p = await makeProduct(api, game.id, 'SupplyProduct', { price: 5000 })
    const server = await makeServer(api, game.id, 'Asia')
    const foreign = await makeServer(api, (await makeGame(api, 'SupplyGame')).id, 'EU')
    const base = {
      products: [{ quantity: 3, product_id: p.id }],
      email: 'm@example.com',
      supply_channel_user_id: '777',
    }
    const ok = await post('/api/orders/supply_channel/', { ...base, supply_channel_server: server.id })
    expect(ok.status).toBe(201)
    expect(ok.body).toMatchObject({ total: '150.00', products: [{ quantity: 3, product: p.id }] })
    const [row] = await api.db
      .select()
      .from(orders)
      .where(eq(orders.id, (ok.body as Created).id))
    expect(row).toMatchObject({
      kind: 'MooGoldOrder',
      moogoldUserId: '777',
      moogoldServer: server.id,
      moogoldServerCustomId: null,
    })
    const asText = await post('/api/orders/supply_channel/', {
      ...base,
      supply_channel_server: String(server.id),
    })
    expect(asText.status).toBe(201)
    await expectRefusal(await post('/api/orders/supply_channel/', base), 400, 'supply_server_required')
    await expectRefusal(
      await post('/api/orders/supply_channel/', { ...base, supply_channel_server: foreign.id }),
      400,
      'supply_server_unknown',
    )
    await expectRefusal(
      await post('/api/orders/supply_channel/', { ...base, supply_channel_server: 'eu' }),
      400,
      'validation_error',
    )
    await expectRefusal(
      await post('/api/orders/supply_channel/', {
        ...base,
        supply_channel_user_id: '',
        supply_channel_server: server.id,
      }),
      400,
      'supply_user_id_required',
    )
  })

  it('takes a free-text server id when the game needs a server but lists none', async () => {
    const game = await makeGame(api, 'SupplyGame', { isServerNeeded: true, isServerEnum: false })
    const p = await makeProduct(api, game.id, 'SupplyProduct')
    const base = {
      products: [{ quantity: 1, product_id: p.id }],
      email: 'm@example.com',
      supply_channel_user_id: '777',
    }
    await expectRefusal(await post('/api/orders/supply_channel/', base), 400, 'supply_server_custom_required')
    const ok = await post('/api/orders/supply_channel/', { ...base, supply_channel_server_custom_id: 'S-12' })
    const [row] = await api.db
      .select()
      .from(orders)
      .where(eq(orders.id, (ok.body as Created).id))
    expect(row).toMatchObject({ moogoldServer: null, moogoldServerCustomId: 'S-12' })
  })

  it('stores no server for a game that needs none', async () => {
    const game = await makeGame(api, 'SupplyGame', { isServerNeeded: false })
    const p = await makeProduct(api, game.id, 'SupplyProduct')
    const ok = await post('/api/orders/supply_channel/', {
      products: [{ quantity: 1, product_id: p.id }],
      email: 'm@example.com',
      supply_channel_user_id: '777',
      supply_channel_server: 5,
      supply_channel_server_custom_id: 'x',
    })
    expect(ok.status).toBe(201)
    const [row] = await api.db
      .select()
      .from(orders)
      .where(eq(orders.id, (ok.body as Created).id))
    expect(row).toMatchObject({ moogoldServer: null, moogoldServerCustomId: null })
  })

  it('refuses products of a PUBG game', async () => {
    const r = await post('/api/orders/supply_channel/', {
      products: [{ quantity: 1, product_id: uc60.id }],
      email: 'm@example.com',
      supply_channel_user_id: '1',
    })
    await expectRefusal(r, 400, 'order_wrong_game_kind')
  })
})

describe('the demo catalogue', () => {
  it('sells the first active seeded PUBG product', async () => {
    const page = await api.call<{
      results: Array<{
        id: number
        resourcetype: string
        products: Array<{ id: number; min_quantity: number }>
      }>
    }>('GET', '/api/games/?limit=100')
    const game = page.body.results.find(
      (g) => g.resourcetype === 'PUBGGame' && g.products.length > 0 && g.id !== pubg.id,
    )
    expect(game).toBeDefined()
    const product = game!.products[0]!
    const r = await post('/api/orders/pubg/', {
      products: [{ quantity: product.min_quantity, product_id: product.id }],
      email: 'demo@example.com',
    })
    expect(r.status).toBe(201)
  })
})
