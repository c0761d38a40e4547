import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderProducts, orders, products, promoCodes, uploads, users } from '#api/db/schema'
import { transitionOrder } from '#api/services/orders/state-machine'
import { GIF, JPEG, PNG, WEBP } from '#tests/helpers/images'
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

type Order = {
  id: string
  resourcetype: string
  status: string
  total: string
  total_without_promocode: string
  total_with_promocode: string
  total_to_pay: string
  balance_used: string
  is_payment_active: boolean
  email: string | null
  products: Array<{ id: number; product: number; quantity: number; price: string; total: string }>
  game: { id: number; resourcetype: string } | null
  [k: string]: unknown
}

let api: TestApi
let pubg: Awaited<ReturnType<typeof makeGame>>
let uc60: Awaited<ReturnType<typeof makeProduct>>
let uc325: Awaited<ReturnType<typeof makeProduct>>
let standoffProduct: Awaited<ReturnType<typeof makeProduct>>
let supplyGame: Awaited<ReturnType<typeof makeGame>>
let supplyProduct: Awaited<ReturnType<typeof makeProduct>>
let server: Awaited<ReturnType<typeof makeServer>>
let steam: Awaited<ReturnType<typeof makeGame>>

async function expectRefusal(r: { status: number; body: unknown }, status: number, code: string) {
  expect({ status: r.status, code: (r.body as Err).code }).toEqual({ status, code })
  expect((r.body as Err).detail).toMatch(/[А-Яа-яЁё]/)
}

async function newOrder(kind: 'pubg' | 'standoff' | 'steam' | 'supply_channel', token?: string, extra = {}) {
  const bodies = {
    pubg: { products: [{ quantity: 2, product_id: uc60.id }] },
    standoff: {
      products: [{ quantity: 1, product_id: standoffProduct.id }],
      game_account_id: 'acc-1',
      surplus: 0.05,
    },
    steam: { amount: '500.00', steam_account_id: 'steam-1' },
    supply_channel: {
      products: [{ quantity: 1, product_id: supplyProduct.id }],
      supply_channel_user_id: 'mg-1',
      supply_channel_server: server.id,
    },
  }
  const r = await api.call<{ id: string }>('POST', `/api/orders/${kind}/`, {
    body: { ...bodies[kind], ...(token ? {} : { email: 'guest@example.com' }), ...extra },
    token,
  })
  expect(r.status).toBe(201)
  return r.body.id
}

async function upload(orderId: string, form: FormData, token?: string) {
  const res = await api.app.request(`/api/orders/standoff/avatar/${orderId}/`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

const fileForm = (bytes: Uint8Array, name: string, type = 'image/png') => {
  const f = new FormData()
  f.set('game_avatar', new File([Buffer.from(bytes)], name, { type }))
  return f
}

beforeAll(async () => {
  api = await createTestApi({ env: { UPLOAD_LIMIT_PER_ADDRESS: '100000' } })
  await ensureSettings(api)
  pubg = await makeGame(api, 'PUBGGame')
  uc60 = await makeProduct(api, pubg.id, 'PUBGProduct', { price: 9900, amountUc: 60, maxQuantity: 5 })
  uc325 = await makeProduct(api, pubg.id, 'PUBGProduct', {
    price: 49900,
    discountPrice: 44900,
    amountUc: 325,
  })
  const standoff = await makeGame(api, 'StandoffGame')
  standoffProduct = await makeProduct(api, standoff.id, 'StandoffProduct', { price: 12000, gold: 100 })
  supplyGame = await makeGame(api, 'SupplyGame', { isServerNeeded: true, isServerEnum: true })
  supplyProduct = await makeProduct(api, supplyGame.id, 'SupplyProduct', { price: 5000 })
  server = await makeServer(api, supplyGame.id, 'Asia')
  steam = await makeGame(api, 'Steam')
  await onlyActive(api, 'Steam', steam.id)
})
afterAll(() => api.close())

describe('GET /api/orders/{id}/', () => {
  it('returns the recalculated order of a guest to anyone holding its id', async () => {
    const id = await newOrder('pubg')
    const r = await api.call<Order>('GET', `/api/orders/${id}/`)
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({
      id,
      resourcetype: 'PUBGOrder',
      status: 'created',
      total: '198.00',
      total_without_promocode: '198.00',
      total_with_promocode: '198.00',
      total_to_pay: '198.00',
      balance_used: '0.00',
      is_payment_active: true,
      reject_reason: null,
      email: 'guest@example.com',
      game: { id: pubg.id, resourcetype: 'PUBGGame' },
      gift: null,
      products: [{ product: uc60.id, quantity: 2, price: '99.00', total: '198.00', amount_uc: 60 }],
    })
    const someone = await makeUser(api)
    expect((await api.call('GET', `/api/orders/${id}/`, { token: someone.token })).status).toBe(200)
  })

  it("hides a user's order from everyone else with a 404", async () => {
    const owner = await makeUser(api)
    const id = await newOrder('pubg', owner.token)
    expect((await api.call('GET', `/api/orders/${id}/`, { token: owner.token })).status).toBe(200)
    const other = await makeUser(api)
    await expectRefusal(
      await api.call('GET', `/api/orders/${id}/`, { token: other.token }),
      404,
      'order_not_found',
    )
    await expectRefusal(await api.call('GET', `/api/orders/${id}/`), 404, 'order_not_found')
    await expectRefusal(
      await api.call('GET', '/api/orders/6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f/'),
      404,
      'order_not_found',
    )
    expect((await api.call('GET', '/api/orders/not-a-uuid/')).status).toBe(400)
    expect((await api.call('GET', '/api/orders/123/')).status).toBe(400)
  })

  it('follows current prices while unpaid and keeps the paid prices afterwards', async () => {
    const id = await newOrder('pubg')
    await api.db.update(products).set({ discountPrice: 8900 }).where(eq(products.id, uc60.id))
    const live = await api.call<Order>('GET', `/api/orders/${id}/`)
    expect(live.body.total).toBe('178.00')
    const [row] = await api.db.select().from(orders).where(eq(orders.id, id))
    expect(row).toMatchObject({ total: 17800, totalToPay: 17800 })
    const [line] = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, id))
    expect(line!.price).toBe(8900)

    await transitionOrder(api.db, id, 'paid')
    await api.db.update(products).set({ discountPrice: null }).where(eq(products.id, uc60.id))
    const paid = await api.call<Order>('GET', `/api/orders/${id}/`)
    expect(paid.body).toMatchObject({ status: 'paid', total: '178.00', is_payment_active: false })
    expect(paid.body.products[0]!.price).toBe('89.00')
  })

  it("applies a promo percent, then the user's balance, never below zero", async () => {
    const user = await makeUser(api, { balance: 5000 })
    const id = await newOrder('pubg', user.token)
    const [promo] = await api.db
      .insert(promoCodes)
      .values({ code: `TEN${Date.now()}`, kind: 'PromoCode', percent: 10, gameId: pubg.id })
      .returning()
    await api.db.update(orders).set({ promoCodeId: promo!.id }).where(eq(orders.id, id))
    const r = await api.call<Order>('GET', `/api/orders/${id}/`, { token: user.token })
    // 198.00 − 10 % = 178.20, minus the 50.00 balance
    expect(r.body).toMatchObject({
      total_without_promocode: '198.00',
      total_with_promocode: '178.20',
      promo_percent: 10,
      balance_used: '50.00',
      total_to_pay: '128.20',
    })
    await api.db.update(users).set({ balance: 1_000_000 }).where(eq(users.id, user.id))
    const rich = await api.call<Order>('GET', `/api/orders/${id}/`, { token: user.token })
    expect(rich.body).toMatchObject({ balance_used: '178.20', total_to_pay: '0.00' })
  })

  it('shows the Steam amount and commission, and the Standoff and supply fields', async () => {
    const steamId = await newOrder('steam')
    const s = await api.call<Order>('GET', `/api/orders/${steamId}/`)
    expect(s.body).toMatchObject({
      resourcetype: 'SteamOrder',
      amount: '500.00',
      commission: '40.00',
      total: '540.00',
      steam_account_id: 'steam-1',
      products: [],
    })
    const so = await api.call<Order>('GET', `/api/orders/${await newOrder('standoff')}/`)
    expect(so.body).toMatchObject({
      resourcetype: 'StandoffOrder',
      game_account_id: 'acc-1',
      surplus: '0.05',
    })
    const mg = await api.call<Order>('GET', `/api/orders/${await newOrder('supply_channel')}/`)
    expect(mg.body).toMatchObject({
      resourcetype: 'MooGoldOrder',
      moogold_user_id: 'mg-1',
      moogold_server: server.id,
    })
  })
})

describe('POST /api/orders/{kind}/{id}/update/', () => {
  it('replaces the lines with the creation rules and answers the recalculated order', async () => {
    const id = await newOrder('pubg')
    const r = await api.call<Order>('POST', `/api/orders/pubg/${id}/update/`, {
      body: {
        products: [
          { id: uc60.id, quantity: 0 },
          { id: uc325.id, quantity: 2 },
        ],
      },
    })
    expect(r.status).toBe(200)
    expect(r.body.products.map((l) => [l.product, l.quantity])).toEqual([[uc325.id, 2]])
    expect(r.body.total).toBe('898.00')
    const lines = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, id))
    expect(lines).toHaveLength(1)
  })

  it('refuses bad lines like creation does', async () => {
    const id = await newOrder('pubg')
    const url = `/api/orders/pubg/${id}/update/`
    await expectRefusal(await api.call('POST', url, { body: { products: [] } }), 400, 'order_empty')
    await expectRefusal(
      await api.call('POST', url, { body: { products: [{ id: uc60.id, quantity: 6 }] } }),
      400,
      'order_quantity_above_max',
    )
    await expectRefusal(
      await api.call('POST', url, { body: { products: [{ id: standoffProduct.id, quantity: 1 }] } }),
      400,
      'order_products_mixed_games',
    )
    const otherPubg = await makeProduct(api, (await makeGame(api, 'PUBGGame')).id, 'PUBGProduct')
    await expectRefusal(
      await api.call('POST', url, { body: { products: [{ id: otherPubg.id, quantity: 1 }] } }),
      400,
      'order_products_mixed_games',
    )
    await expectRefusal(
      await api.call('POST', url, { body: { products: [{ id: 'x', quantity: 1 }] } }),
      400,
      'validation_error',
    )
    await expectRefusal(
      await api.call('POST', url, { body: { products: [{ id: uc60.id, quantity: -1 }] } }),
      400,
      'validation_error',
    )
  })

  it('changes a Steam amount within bounds', async () => {
    const id = await newOrder('steam')
    const r = await api.call<Order>('POST', `/api/orders/steam/${id}/update/`, { body: { amount: 1000 } })
    expect(r.body).toMatchObject({ amount: '1000.00', total: '1080.00' })
    await expectRefusal(
      await api.call('POST', `/api/orders/steam/${id}/update/`, { body: { amount: '1' } }),
      400,
      'steam_amount_below_min',
    )
  })

  it('refuses an order of another kind and an order that is paid', async () => {
    const id = await newOrder('pubg')
    await expectRefusal(
      await api.call('POST', `/api/orders/standoff/${id}/update/`, {
        body: { products: [{ id: standoffProduct.id, quantity: 1 }] },
      }),
      400,
      'order_wrong_kind',
    )
    await expectRefusal(
      await api.call('POST', `/api/orders/steam/${id}/update/`, { body: { amount: 500 } }),
      400,
      'order_wrong_kind',
    )
    await transitionOrder(api.db, id, 'waiting_for_payment')
    const waiting = await api.call('POST', `/api/orders/pubg/${id}/update/`, {
      body: { products: [{ id: uc60.id, quantity: 1 }] },
    })
    expect(waiting.status).toBe(200)
    await transitionOrder(api.db, id, 'paid')
    await expectRefusal(
      await api.call('POST', `/api/orders/pubg/${id}/update/`, {
        body: { products: [{ id: uc60.id, quantity: 3 }] },
      }),
      409,
      'order_not_editable',
    )
    await expectRefusal(
      await api.call('POST', `/api/orders/pubg/${id}/delivery_details/update/`, {
        body: { email: 'n@example.com' },
      }),
      409,
      'order_not_editable',
    )
    const [line] = await api.db.select().from(orderProducts).where(eq(orderProducts.orderId, id))
    expect(line!.quantity).toBe(1)
  })

  it("never lets another user change a user's order", async () => {
    const owner = await makeUser(api)
    const id = await newOrder('pubg', owner.token)
    const other = await makeUser(api)
    const body = { products: [{ id: uc60.id, quantity: 5 }] }
    await expectRefusal(
      await api.call('POST', `/api/orders/pubg/${id}/update/`, { body, token: other.token }),
      404,
      'order_not_found',
    )
    await expectRefusal(
      await api.call('POST', `/api/orders/pubg/${id}/update/`, { body }),
      404,
      'order_not_found',
    )
    await expectRefusal(
      await api.call('POST', `/api/orders/pubg/${id}/delivery_details/update/`, {
        body: { email: 'thief@example.com' },
        token: other.token,
      }),
      404,
      'order_not_found',
    )
    const [row] = await api.db.select().from(orders).where(eq(orders.id, id))
    expect(row!.email).toBe(owner.email)
    expect(
      (await api.call('POST', `/api/orders/pubg/${id}/update/`, { body, token: owner.token })).status,
    ).toBe(200)
  })
})

describe('POST /api/orders/{kind}/{id}/delivery_details/update/', () => {
  it('changes only the given fields of the kind', async () => {
    const so = await newOrder('standoff')
    const r = await api.call<Order>('POST', `/api/orders/standoff/${so}/delivery_details/update/`, {
      body: { game_account_id: ' acc-2 ' },
    })
    expect(r.body).toMatchObject({ game_account_id: 'acc-2', email: 'guest@example.com' })
    const st = await newOrder('steam')
    const s = await api.call<Order>('POST', `/api/orders/steam/${st}/delivery_details/update/`, {
      body: { steam_account_id: 'steam-2', email: 'New@Example.com' },
    })
    expect(s.body).toMatchObject({ steam_account_id: 'steam-2', email: 'new@example.com' })
    const pg = await newOrder('pubg')
    const p = await api.call<Order>('POST', `/api/orders/pubg/${pg}/delivery_details/update/`, {
      body: { email: 'p@example.com', steam_account_id: 'ignored' },
    })
    expect(p.body).toMatchObject({ email: 'p@example.com', steam_account_id: null })
  })

  it('checks the supply server rules on change', async () => {
    const id = await newOrder('supply_channel')
    const url = `/api/orders/supply_channel/${id}/delivery_details/update/`
    const second = await makeServer(api, supplyGame.id, 'Europe')
    const r = await api.call<Order>('POST', url, {
      body: { moogold_user_id: 'mg-2', moogold_server: second.id },
    })
    expect(r.body).toMatchObject({ moogold_user_id: 'mg-2', moogold_server: second.id })
    const foreign = await makeServer(api, (await makeGame(api, 'SupplyGame')).id)
    await expectRefusal(
      await api.call('POST', url, { body: { moogold_server: foreign.id } }),
      400,
      'supply_server_unknown',
    )
    await expectRefusal(
      await api.call('POST', url, { body: { moogold_server: null } }),
      400,
      'supply_server_required',
    )
    await expectRefusal(
      await api.call('POST', url, { body: { moogold_user_id: ' ' } }),
      400,
      'supply_user_id_required',
    )
  })

  it('refuses an invalid email and empty account ids', async () => {
    const id = await newOrder('standoff')
    const url = `/api/orders/standoff/${id}/delivery_details/update/`
    await expectRefusal(await api.call('POST', url, { body: { email: 'nope' } }), 400, 'order_email_invalid')
    await expectRefusal(await api.call('POST', url, { body: { email: '' } }), 400, 'order_email_required')
    await expectRefusal(
      await api.call('POST', url, { body: { game_account_id: '' } }),
      400,
      'game_account_id_required',
    )
    await expectRefusal(
      await api.call('POST', `/api/orders/steam/${id}/delivery_details/update/`, {
        body: { steam_account_id: 'x' },
      }),
      400,
      'order_wrong_kind',
    )
  })
})

describe('POST /api/orders/standoff/avatar/{id}/', () => {
  it('stores a PNG under a generated name and sets it on the order', async () => {
    const id = await newOrder('standoff')
    const r = await upload(id, fileForm(PNG, '../../etc/passwd.png'))
    expect(r.status).toBe(200)
    const avatar = r.body.game_avatar as string
    expect(avatar).toMatch(/^\/media\/[0-9a-f]{32}\.png$/)
    expect(r.body).toMatchObject({ id, game_account_id: 'acc-1', total: '120.00' })
    const [stored] = await api.db.select().from(uploads).where(eq(uploads.orderId, id))
    expect(stored!.name).toBe(avatar.slice('/media/'.length))
    expect(stored!.bytes.equals(PNG)).toBe(true)
    const [row] = await api.db.select().from(orders).where(eq(orders.id, id))
    expect(row!.gameAvatar).toBe(avatar)
  })

  it('recognises JPEG, WebP and GIF by content, whatever the name says', async () => {
    for (const [bytes, ext] of [
      [JPEG, 'jpg'],
      [WEBP, 'webp'],
      [GIF, 'gif'],
    ] as const) {
      const r = await upload(await newOrder('standoff'), fileForm(bytes, 'avatar.png'))
      expect(r.body.game_avatar).toMatch(new RegExp(`^/media/[0-9a-f]{32}\\.${ext}$`))
    }
  })

  it('refuses files that are not images, even when named .png, and oversized files', async () => {
    const id = await newOrder('standoff')
    const stored = async () => (await api.db.select({ name: uploads.name }).from(uploads)).length
    const before = await stored()
    const html = new TextEncoder().encode('<svg onload="alert(1)"></svg>')
    await expectRefusal(await upload(id, fileForm(html, 'avatar.png', 'image/png')), 400, 'avatar_not_image')
    await expectRefusal(await upload(id, fileForm(PNG.slice(0, 4), 'a.png')), 400, 'avatar_not_image')
    const big = new Uint8Array(2 * 1024 * 1024 + 1)
    big.set(PNG)
    await expectRefusal(await upload(id, fileForm(big, 'big.png')), 413, 'avatar_too_large')
    await expectRefusal(await upload(id, new FormData()), 400, 'avatar_required')
    expect(await stored()).toBe(before)
  })

  it('copies the avatar of an earlier own order', async () => {
    const user = await makeUser(api)
    const first = await newOrder('standoff', user.token)
    const up = await upload(first, fileForm(PNG, 'a.png'), user.token)
    const second = await newOrder('standoff', user.token)
    const form = new FormData()
    form.set('history_order_id', first)
    const r = await upload(second, form, user.token)
    expect(r.status).toBe(200)
    // a copy of its own (same picture, another name): replacing one never takes the other's
    expect(r.body.game_avatar).toMatch(/^\/media\/[0-9a-f]{32}\.png$/)
    expect(r.body.game_avatar).not.toBe(up.body.game_avatar)
    for (const p of [up.body.game_avatar, r.body.game_avatar]) {
      const served = await api.app.request(p as string)
      expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true)
    }

    const stranger = await makeUser(api)
    const theirs = await newOrder('standoff', stranger.token)
    const steal = new FormData()
    steal.set('history_order_id', first)
    await expectRefusal(await upload(theirs, steal, stranger.token), 404, 'order_not_found')
    const noAvatar = new FormData()
    noAvatar.set('history_order_id', theirs)
    await expectRefusal(await upload(second, noAvatar, user.token), 404, 'order_not_found')
    const ownNoAvatar = new FormData()
    ownNoAvatar.set('history_order_id', await newOrder('standoff', user.token))
    await expectRefusal(await upload(second, ownNoAvatar, user.token), 400, 'avatar_history_missing')
    const bad = new FormData()
    bad.set('history_order_id', 'nope')
    await expectRefusal(await upload(second, bad, user.token), 400, 'order_id_invalid')
  })

  it("refuses paid orders, other kinds, and other users' orders", async () => {
    const paid = await newOrder('standoff')
    await transitionOrder(api.db, paid, 'paid')
    await expectRefusal(await upload(paid, fileForm(PNG, 'a.png')), 409, 'order_not_editable')
    await expectRefusal(await upload(await newOrder('pubg'), fileForm(PNG, 'a.png')), 400, 'order_wrong_kind')
    const owner = await makeUser(api)
    const theirs = await newOrder('standoff', owner.token)
    const other = await makeUser(api)
    await expectRefusal(await upload(theirs, fileForm(PNG, 'a.png'), other.token), 404, 'order_not_found')
  })
})

describe('last order data, settings and servers', () => {
  it('needs a signed-in user for last order data', async () => {
    for (const url of [
      '/api/orders/standoff/last_order_data/',
      '/api/orders/steam/last_order_data/',
      `/api/orders/supply_channel/last_order_data/${supplyGame.id}/`,
    ]) {
      await expectRefusal(await api.call('GET', url), 401, 'not_authenticated')
    }
  })

  it("returns null fields before the first order and the latest order's data after", async () => {
    const user = await makeUser(api)
    const t = { token: user.token }
    expect((await api.call('GET', '/api/orders/standoff/last_order_data/', t)).body).toEqual({
      game_account_id: null,
      game_avatar: null,
      email: null,
    })
    await newOrder('standoff', user.token)
    await newOrder('standoff', user.token, { game_account_id: 'acc-latest', email: 'latest@example.com' })
    expect((await api.call('GET', '/api/orders/standoff/last_order_data/', t)).body).toEqual({
      game_account_id: 'acc-latest',
      game_avatar: null,
      email: 'latest@example.com',
    })
    await newOrder('steam', user.token)
    expect((await api.call('GET', '/api/orders/steam/last_order_data/', t)).body).toEqual({
      steam_account_id: 'steam-1',
      email: user.email,
    })
    const supplyUrl = `/api/orders/supply_channel/last_order_data/${supplyGame.id}/`
    expect((await api.call('GET', supplyUrl, t)).body).toMatchObject({
      moogold_user_id: null,
      moogold_server: null,
    })
    await newOrder('supply_channel', user.token)
    expect((await api.call('GET', supplyUrl, t)).body).toEqual({
      moogold_user_id: 'mg-1',
      moogold_server: server.id,
      moogold_server_custom_id: null,
      email: user.email,
    })
    const other = await makeUser(api)
    expect((await api.call('GET', supplyUrl, { token: other.token })).body).toMatchObject({
      moogold_user_id: null,
    })
    expect((await api.call('GET', '/api/orders/supply_channel/last_order_data/abc/', t)).status).toBe(400)
  })

  it('serves the Standoff and Steam settings', async () => {
    expect((await api.call('GET', '/api/orders/standoff/settings/')).body).toEqual({
      id: 1,
      need_refund: false,
      is_surplus_enabled: true,
      skin_name: 'AKR "Carbon"',
      skin_picture: '/images/skin.png',
      market_fee: '5.00',
    })
    expect((await api.call('GET', '/api/orders/steam/settings/')).body).toEqual({
      id: 1,
      commission: '8.00',
      min_amount: '100.00',
      max_amount: '15000.00',
    })
  })

  it('pages the servers of an active SupplyGame', async () => {
    const game = await makeGame(api, 'SupplyGame', { isServerNeeded: true, isServerEnum: true })
    for (const name of ['A', 'B', 'C']) await makeServer(api, game.id, name)
    const r = await api.call<{ count: number; next: string | null; results: Array<{ name: string }> }>(
      'GET',
      `/api/orders/supply_channel/servers/${game.id}/?limit=2`,
    )
    expect(r.body.count).toBe(3)
    expect(r.body.results.map((s) => s.name)).toEqual(['A', 'B'])
    expect(r.body.next).toBe(`/api/orders/supply_channel/servers/${game.id}/?limit=2&offset=2`)
    await expectRefusal(
      await api.call('GET', `/api/orders/supply_channel/servers/${pubg.id}/`),
      404,
      'game_not_found',
    )
    expect((await api.call('GET', '/api/orders/supply_channel/servers/x/')).status).toBe(400)
  })
})
