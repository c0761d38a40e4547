// POST /api/games/{id}/check_player/ (our extension) and the check at order creation, on a real
// database, with the sandbox adapter and the Smile One / apigames adapters pointed at local fakes.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '#api/app'
import { orders, playerChecks } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { type FakeSuppliers, PLAYERS, startFakeSuppliers } from '#tests/fakes/player-suppliers'
import { type Err, ensureSettings, makeGame, makeProduct, makeServer, makeUser } from './orders-fixtures'

type Found = { user_id: string; nickname: string; cached: boolean }

let api: TestApi
let fake: FakeSuppliers
let ip = 0
/** A fresh client address, so the per-address limit only bites where a test wants it. */
const from = () => ({ 'x-shop-client-ip': `10.0.0.${++ip}` })

let standoff: number
let standoffProduct: number
let supply: number
let supplyProduct: number
let euServer: number
let smile: number
let pubg: number
let unconfigured: number

beforeAll(async () => {
  fake = await startFakeSuppliers({ slowMs: 5000 })
  api = await createTestApi({
    seed: false,
    env: {
      ...fake.env,
      // roomy for a loaded machine; the slow player answers after 5 s
      PLAYER_CHECK_TIMEOUT_MS: '1500',
      PLAYER_CHECK_LIMIT_PER_ADDRESS: '5',
      PLAYER_CHECK_SANDBOX: '1',
    },
  })
  await ensureSettings(api)
  standoff = (await makeGame(api, 'StandoffGame', { playerCheck: 'sandbox' })).id
  standoffProduct = (await makeProduct(api, standoff, 'StandoffProduct', { gold: 100 })).id
  const g = await makeGame(api, 'SupplyGame', {
    playerCheck: 'apigames',
    playerCheckRef: 'mobilelegend',
    isServerNeeded: true,
    isServerEnum: true,
  })
  supply = g.id
  supplyProduct = (await makeProduct(api, supply, 'SupplyProduct')).id
  euServer = (await makeServer(api, supply, 'EU')).id
  smile = (
    await makeGame(api, 'SupplyGame', {
      playerCheck: 'smileone',
      playerCheckRef: 'mobilelegends/13',
      isServerNeeded: true,
      isServerEnum: false,
    })
  ).id
  pubg = (await makeGame(api, 'PUBGGame')).id
  // names an adapter this shop has no credentials for
  unconfigured = (await makeGame(api, 'SupplyGame', { playerCheck: 'nosuch' })).id
})
afterAll(async () => {
  await api?.close()
  await fake?.close()
})

const check = (game: number, body: unknown, headers = from()) =>
  api.call<Found & Err>('POST', `/api/games/${game}/check_player/`, { body, headers })

describe('the game says whether it has a check', () => {
  it('player_check is true only where a configured adapter checks the game', async () => {
    const flag = async (id: number) =>
      (await api.call<{ player_check?: boolean }>('GET', `/api/games/${id}/`)).body.player_check
    expect(await flag(standoff)).toBe(true)
    expect(await flag(supply)).toBe(true)
    expect(await flag(unconfigured)).toBe(false)
    expect(await flag(pubg)).toBeUndefined()
  })
})

describe('POST /api/games/{id}/check_player/', () => {
  it('answers the nickname, then the same answer from the cache', async () => {
    const first = await check(standoff, { user_id: '100000001' })
    expect(first.status).toBe(200)
    expect(first.body).toEqual({ user_id: '100000001', nickname: 'Тестовый игрок', cached: false })
    const again = await check(standoff, { user_id: ' 100000001 ' })
    expect(again.body).toEqual({ user_id: '100000001', nickname: 'Тестовый игрок', cached: true })
  })

  it('shares the cache between instances: a second API over the same database does not ask again', async () => {
    const asked = () => fake.calls.filter((c) => c.provider === 'apigames').length
    const before = asked()
    const one = await check(supply, { user_id: PLAYERS.found, server: euServer })
    expect(one.body).toMatchObject({ nickname: 'Api Hero', cached: false })
    expect(asked()).toBe(before + 1)
    expect(fake.calls.at(-1)?.params.user_id).toBe(`${PLAYERS.found}eu`)
    const other = createApi(api.deps)
    const res = await other.request(`/api/games/${supply}/check_player/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from() },
      body: JSON.stringify({ user_id: PLAYERS.found, server: String(euServer) }),
    })
    expect(await res.json()).toMatchObject({ nickname: 'Api Hero', cached: true })
    expect(asked()).toBe(before + 1)
  })

  it('asks the supplier again once the cached answer has expired', async () => {
    await check(smile, { user_id: PLAYERS.found, server_custom_id: '2041' })
    await api.db.update(playerChecks).set({ expiresAt: new Date(Date.now() - 1000) })
    const before = fake.calls.length
    const r = await check(smile, { user_id: PLAYERS.found, server_custom_id: '2041' })
    expect(r.body).toMatchObject({ nickname: 'Smile Hero 2041', cached: false })
    expect(fake.calls.length).toBe(before + 1)
  })

  it('not found: 404 player_not_found with a Russian message naming the id (cached too)', async () => {
    const r = await check(smile, { user_id: PLAYERS.missing, server_custom_id: '2041' })
    expect(r.status).toBe(404)
    expect(r.body.code).toBe('player_not_found')
    expect(r.body.detail).toBe(`Игрок с ID ${PLAYERS.missing} не найден. Проверьте ID (и сервер)`)
    expect(r.body.fields?.user_id).toEqual([r.body.detail])
    const before = fake.calls.length
    expect((await check(smile, { user_id: PLAYERS.missing, server_custom_id: '2041' })).status).toBe(404)
    expect(fake.calls.length).toBe(before)
  })

  it('malformed: 400 player_id_malformed on user_id', async () => {
    const r = await check(standoff, { user_id: 'abc' })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('player_id_malformed')
    expect(r.body.fields?.user_id?.[0]).toMatch(/проверьте/)
  })

  it('a supplier that does not answer: 503 with Retry-After, and nothing is cached', async () => {
    const started = Date.now()
    const r = await check(supply, { user_id: PLAYERS.slow, server: euServer })
    expect(r.status).toBe(503)
    expect(r.body.code).toBe('player_check_unavailable')
    expect(r.body.detail).toMatch(/не отвечает/)
    expect(r.headers.get('retry-after')).toBe('30')
    expect(Date.now() - started).toBeLessThan(4500)
    const broken = await check(supply, { user_id: PLAYERS.broken, server: euServer })
    expect(broken.status).toBe(503)
    const rows = await api.db.select().from(playerChecks)
    expect(rows.map((row) => row.outcome).filter((o) => o !== 'found' && o !== 'not_found')).toEqual([])
  })

  it('games without a check, unknown games and bad bodies get clear 4xx answers', async () => {
    for (const id of [pubg, unconfigured]) {
      const r = await check(id, { user_id: '100000001' })
      expect(r.status).toBe(404)
      expect(r.body).toMatchObject({
        code: 'player_check_not_offered',
        detail: 'Для этой игры проверка игрока недоступна',
      })
    }
    expect((await check(999_999, { user_id: '100000001' })).body.code).toBe('game_not_found')
    for (const body of [{}, { user_id: '' }, { user_id: 'x'.repeat(65) }, { user_id: 5 }, [], 'text']) {
      const r = await check(standoff, body)
      expect(r.status, JSON.stringify(body)).toBe(400)
      expect(typeof r.body.detail).toBe('string')
    }
  })

  it('a game with servers needs one of its own', async () => {
    const none = await check(supply, { user_id: PLAYERS.found })
    expect(none.status).toBe(400)
    expect(none.body.fields?.server).toBeDefined()
    const alien = await check(supply, { user_id: PLAYERS.found, server: 999_999 })
    expect(alien.status).toBe(400)
    expect(alien.body.fields?.server).toBeDefined()
    const custom = await check(smile, { user_id: PLAYERS.found })
    expect(custom.status).toBe(400)
    expect(custom.body.fields?.server_custom_id).toBeDefined()
  })

  it('is limited per client address (429 with Retry-After); another address is not affected', async () => {
    const me = from()
    for (let i = 0; i < 5; i++) expect((await check(standoff, { user_id: '100000001' }, me)).status).toBe(200)
    const over = await check(standoff, { user_id: '100000001' }, me)
    expect(over.status).toBe(429)
    expect(over.body.code).toBe('rate_limited')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await check(standoff, { user_id: '100000001' })).status).toBe(200)
  })
})

describe('order creation uses the same check with the contract fields only', () => {
  const supplyOrder = (user: string, extra: Record<string, unknown> = {}) =>
    api.call<{ id: string } & Err>('POST', '/api/orders/supply_channel/', {
      headers: from(),
      body: {
        products: [{ product_id: supplyProduct, quantity: 1 }],
        email: 'buyer@example.com',
        supply_channel_user_id: user,
        supply_channel_server: euServer,
        ...extra,
      },
    })

  it('keeps the nickname on the order: order page, history', async () => {
    const user = await makeUser(api)
    const r = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
      headers: from(),
      body: { products: [{ product_id: standoffProduct, quantity: 1 }], game_account_id: '100000001' },
      token: user.token,
    })
    expect(r.status).toBe(201)
    const page = await api.call<{ player_nickname: string | null }>('GET', `/api/orders/${r.body.id}/`, {
      token: user.token,
    })
    expect(page.body.player_nickname).toBe('Тестовый игрок')
    const history = await api.call<{ results: Array<{ id: string; player_nickname?: string | null }> }>(
      'GET',
      '/api/orders/',
      { token: user.token },
    )
    expect(history.body.results.find((o) => o.id === r.body.id)?.player_nickname).toBe('Тестовый игрок')
    const supplyOk = await supplyOrder(PLAYERS.found)
    expect(supplyOk.status).toBe(201)
    const [row] = await api.db.select().from(orders).where(eq(orders.id, supplyOk.body.id))
    expect(row?.playerNickname).toBe('Api Hero')
  })

  it('refuses a player the supplier does not know, and a malformed id, on the field that holds it', async () => {
    const count = async () => (await api.db.select({ id: orders.id }).from(orders)).length
    const before = await count()
    const missing = await supplyOrder(PLAYERS.missing)
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('player_not_found')
    expect(missing.body.fields?.supply_channel_user_id?.[0]).toContain(PLAYERS.missing)
    const malformed = await api.call<Err>('POST', '/api/orders/standoff/', {
      headers: from(),
      body: {
        products: [{ product_id: standoffProduct, quantity: 1 }],
        email: 'buyer@example.com',
        game_account_id: 'acc-1',
      },
    })
    expect(malformed.status).toBe(400)
    expect(malformed.body.code).toBe('player_id_malformed')
    expect(malformed.body.fields?.game_account_id).toBeDefined()
    const sandboxMissing = await api.call<Err>('POST', '/api/orders/standoff/', {
      headers: from(),
      body: {
        products: [{ product_id: standoffProduct, quantity: 1 }],
        email: 'buyer@example.com',
        game_account_id: '100000000',
      },
    })
    expect(sandboxMissing.body.code).toBe('player_not_found')
    expect(await count()).toBe(before)
  })

  it('a supplier that does not answer does not block buying: the order is made without a nickname', async () => {
    const r = await supplyOrder(PLAYERS.slow)
    expect(r.status).toBe(201)
    const [row] = await api.db.select().from(orders).where(eq(orders.id, r.body.id))
    expect(row?.playerNickname).toBeNull()
    expect(row?.moogoldUserId).toBe(PLAYERS.slow)
  })

  it('a retry with the same Idempotency-Key gets its order without asking the supplier again', async () => {
    const body = {
      products: [{ product_id: supplyProduct, quantity: 1 }],
      email: 'buyer@example.com',
      supply_channel_user_id: PLAYERS.slow,
      supply_channel_server: euServer,
    }
    const headers = { 'idempotency-key': 'retry-slow-player-1', ...from() }
    const first = await api.call<{ id: string }>('POST', '/api/orders/supply_channel/', {
      body,
      headers,
    })
    expect(first.status).toBe(201)
    const before = fake.calls.length
    const again = await api.call<{ id: string }>('POST', '/api/orders/supply_channel/', {
      body,
      headers,
    })
    expect(again.status).toBe(200)
    expect(again.body.id).toBe(first.body.id)
    expect(fake.calls.length).toBe(before) // the slow supplier was not waited for a second time
  })

  it('games without a check take any id, as before', async () => {
    const plain = await makeGame(api, 'StandoffGame')
    const p = await makeProduct(api, plain.id, 'StandoffProduct', { gold: 10 })
    const r = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
      headers: from(),
      body: {
        products: [{ product_id: p.id, quantity: 1 }],
        email: 'b@example.com',
        game_account_id: 'acc-1',
      },
    })
    expect(r.status).toBe(201)
    const [row] = await api.db.select().from(orders).where(eq(orders.id, r.body.id))
    expect(row?.playerNickname).toBeNull()
  })

  it('changing the player id of an unpaid order forgets the checked nickname', async () => {
    const made = await supplyOrder(PLAYERS.found)
    const r = await api.call('POST', `/api/orders/supply_channel/${made.body.id}/delivery_details/update/`, {
      body: { moogold_user_id: '55555555' },
    })
    expect(r.status).toBeLessThan(300)
    const [row] = await api.db.select().from(orders).where(eq(orders.id, made.body.id))
    expect(row?.moogoldUserId).toBe('55555555')
    expect(row?.playerNickname).toBeNull()
  })

  it('counts against the per-address limit of the check: past it, order creation asks no supplier (finding 5 of issue 38)', async () => {
    const me = from()
    for (let i = 0; i < 5; i++) expect((await check(standoff, { user_id: '100000001' }, me)).status).toBe(200)
    expect((await check(standoff, { user_id: '100000001' }, me)).status).toBe(429)
    // the attack: new ids through order creation, from the same address
    const before = fake.calls.length
    const r = await api.call<{ id: string } & Err>('POST', '/api/orders/supply_channel/', {
      headers: me,
      body: {
        products: [{ product_id: supplyProduct, quantity: 1 }],
        email: 'buyer@example.com',
        // an id nobody checked yet (a cached answer would still be used)
        supply_channel_user_id: '98765432',
        supply_channel_server: euServer,
      },
    })
    // no look-up, so no answer about the id: the order is made unchecked, without a nickname
    expect(fake.calls.length).toBe(before)
    expect(r.status).toBe(201)
    const [row] = await api.db.select().from(orders).where(eq(orders.id, r.body.id))
    expect(row?.playerNickname).toBeNull()
    // and order creation's own look-ups count: five orders from a fresh address use up its checks
    const other = from()
    for (let i = 0; i < 5; i++) {
      const made = await api.call('POST', '/api/orders/standoff/', {
        headers: other,
        body: {
          products: [{ product_id: standoffProduct, quantity: 1 }],
          email: 'buyer@example.com',
          game_account_id: '100000001',
        },
      })
      expect(made.status).toBe(201)
    }
    expect((await check(standoff, { user_id: '100000001' }, other)).status).toBe(429)
  })
})
