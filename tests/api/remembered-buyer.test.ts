// Issue 50: a guest's email and player ids are remembered on the device by a signed HttpOnly cookie
// the storefront writes when the order is created, pre-filled on the next visit to the game page,
// and forgotten by «Забыть мои данные на этом устройстве». Against the real API in process, through
// the game page's own loader and action. Also: a repeat carries the repeated order's method.
import type { AppLoadContext } from '@remix-run/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { games, gifts, products } from '#api/db/schema'
import { loadGiftDetail } from '#app/components/gifts/gift-loaders.server'
import { purchaseGift } from '#app/components/gifts/gift-purchase.server'
import { productAction, productLoader } from '#app/components/order-form/product-page.server'
import { FIELD, qtyField } from '#app/lib/order-form/fields'
import {
  encodeRemembered,
  forgetCookies,
  REMEMBER_COOKIE,
  rememberCookies,
  SECURE_REMEMBER_COOKIE,
} from '#app/lib/remembered-buyer.server'
import { SHARED_PAGE_HEADER, sharedPageHeaders } from '#app/lib/shared-page.server'
import { loadPayPage } from '#app/components/payment/pay-page.server'
import { action as forgetAction, loader as forgetPage } from '#app/routes/buyer.forget'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { eligibleAccess } from '../../server/personal-fill'
import { createPubgOrder, hex, makePubgStock, makeSandboxMethod, pressOnCheckout } from './payments-fixtures'

let api: TestApi
beforeAll(async () => {
  api = await createTestApi()
})
/** One storefront request's context (the storefront keeps one API session per context). */
const ctx = () =>
  ({
    api: { baseUrl: 'http://shop.internal', fetch: async (req: Request) => api.app.fetch(req) },
    clientAddress: '127.0.0.1',
  }) as AppLoadContext
afterAll(() => api.close())

const ORIGIN = 'http://localhost:3000'

/** A supply game without a server and without a live player check, and one product of it. */
async function supplyGame() {
  const [g] = await api.db
    .insert(games)
    .values({ kind: 'SupplyGame', title: `Supply ${hex()}`, supplier: 'manual', isServerNeeded: false })
    .returning()
  const [p] = await api.db
    .insert(products)
    .values({ gameId: g!.id, kind: 'SupplyProduct', title: `P ${hex(2)}`, price: 1000 })
    .returning()
  return { game: g!, product: p! }
}

/** The cookies a response set, as the next request's Cookie header. */
const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')

/** The cookies a response set that a browser sends to `path` (as it matches a cookie's Path). */
const cookiesFor = (res: Response, path: string) =>
  res.headers
    .getSetCookie()
    .filter((c) => {
      const p = /;\s*Path=([^;]*)/i.exec(c)?.[1] ?? '/'
      return path === p || path.startsWith(p.endsWith('/') ? p : `${p}/`)
    })
    .map((c) => c.split(';')[0])
    .join('; ')

async function loadWhole(gameId: number, cookie = '', query = '', origin = ORIGIN) {
  const request = new Request(`${origin}/products/${gameId}${query}`, { headers: cookie ? { cookie } : {} })
  return productLoader({ request, params: { id: String(gameId) }, context: ctx() })
}

async function load(gameId: number, cookie = '', query = '') {
  return (await loadWhole(gameId, cookie, query)).data
}

/** The Cache-Control the game page's answer gets (its route's `headers` passes the loader's on). */
async function cacheControlOf(gameId: number, cookie = '') {
  const init = (await loadWhole(gameId, cookie)).init
  return (
    sharedPageHeaders({
      loaderHeaders: new Headers(init?.headers),
      parentHeaders: new Headers(),
    } as never) as Headers
  ).get('cache-control')
}

async function post(gameId: number, fields: Record<string, string>, cookie = '') {
  const form = new FormData()
  form.set(FIELD.idempotencyKey, crypto.randomUUID())
  for (const [k, v] of Object.entries(fields)) form.set(k, v)
  const request = new Request(`${ORIGIN}/products/${gameId}`, {
    method: 'POST',
    body: form,
    headers: cookie ? { cookie } : {},
  })
  return (await productAction({
    request,
    params: { id: String(gameId) },
    context: ctx(),
  })) as unknown as Response
}

describe('the device remembers a guest (issue 50)', () => {
  it('writes the cookie on a guest’s order and pre-fills the email and the player id next time', async () => {
    const { game, product } = await supplyGame()
    const email = `guest-${hex()}@example.com`
    const res = await post(game.id, {
      [qtyField(product.id)]: '1',
      [FIELD.userId]: '700123456',
      [FIELD.email]: email,
      [FIELD.consent]: 'on',
    })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toMatch(/^\/orders\/[0-9a-f-]{36}\/pay$/)
    const set = res.headers.getSetCookie().find((c) => c.startsWith(`${REMEMBER_COOKIE}=`))
    expect(set).toBeDefined()
    expect(set).toMatch(/HttpOnly/i)
    expect(set).toMatch(/SameSite=Lax/i)
    expect(set).toMatch(/Max-Age=31536000/)
    // sent only to the game pages, so the rest of the shop stays served from its caches
    expect(set).toMatch(/Path=\/products(;|$)/)
    // readable by nobody but the server: the value is signed, not the plain email
    expect(set).not.toContain(email)
    expect(set!.length).toBeLessThan(1024)

    const again = await load(game.id, cookiesOf(res))
    expect(again.prefill).toMatchObject({ email, userId: '700123456' })
    expect(again.rememberedHere).toBe(true)
    // another game gets the email but not this game's id
    const { game: other } = await makePubgStock(api, { codes: 1 })
    const elsewhere = await load(other.id, cookiesOf(res))
    expect(elsewhere.prefill.email).toBe(email)
    expect(elsewhere.prefill.userId).toBeUndefined()
  })

  it('keeps the cookie readable when long Cyrillic ids would outgrow it: the oldest games drop off', async () => {
    const { game } = await supplyGame()
    const email = `long-${hex()}@example.com`
    let cookie = ''
    // five other games, then this one, each with four 64-letter Cyrillic fields: encoded, each
    // letter takes two bytes, so six such games outgrow what the reader accepts
    for (const gameId of [900001, 900002, 900003, 900004, 900005, game.id]) {
      const [set] = rememberCookies(new Request(`${ORIGIN}/products/${gameId}`, { headers: { cookie } }), {
        gameId,
        email,
        player: {
          userId: `${'ж'.repeat(60)}${gameId % 10_000}`.slice(0, 64),
          serverId: 'ш'.repeat(64),
          serverCustomId: 'щ'.repeat(64),
          steamAccountId: 'ы'.repeat(64),
        },
      })
      expect(set).toMatch(/Path=\/products(;|$)/)
      cookie = set!.split(';')[0]!
    }
    expect(cookie.length - `${REMEMBER_COOKIE}=`.length).toBeLessThanOrEqual(2048)
    // the newest game's id and the email still come back: a write never makes a value its reader refuses
    const page = await load(game.id, cookie)
    expect(page.prefill.email).toBe(email)
    expect(page.prefill.userId).toBe(`${'ж'.repeat(60)}${game.id % 10_000}`.slice(0, 64))
  })

  it('a visitor without the cookie gets empty fields and no forget control', async () => {
    const { game } = await supplyGame()
    const page = await load(game.id)
    expect(page.prefill.email).toBeUndefined()
    expect(page.prefill.userId).toBeUndefined()
    expect(page.rememberedHere).toBe(false)
  })

  it('ignores a garbage, tampered or oversized cookie without an error', async () => {
    const { game } = await supplyGame()
    const signed = encodeRemembered({
      email: 'someone@example.com',
      games: [{ game: game.id, player: { userId: '42' } }],
    })
    const [payload, sig] = signed.split('.')
    const forged = Buffer.from(
      JSON.stringify({ email: 'evil@example.com', games: [{ game: game.id, player: { userId: '1' } }] }),
    ).toString('base64url')
    for (const value of [
      'garbage',
      '%E0%A4%A',
      `${forged}.${sig}`,
      `${payload}.`,
      `${payload}x.${sig}`,
      'a'.repeat(5000),
      `${Buffer.from('not json').toString('base64url')}.${sig}`,
    ]) {
      const page = await load(game.id, `${REMEMBER_COOKIE}=${value}`)
      expect(page.prefill.email, value.slice(0, 40)).toBeUndefined()
      expect(page.prefill.userId).toBeUndefined()
    }
    // a signed value of the wrong shape keeps only what is valid, HTML and all as plain text
    const odd = encodeRemembered({
      email: '<img src=x onerror=alert(1)>@example.com',
      games: [{ game: game.id, player: { userId: `${'9'.repeat(65)}` } }],
    } as never)
    const page = await load(game.id, `${REMEMBER_COOKIE}=${odd}`)
    expect(page.prefill.email).toBe('<img src=x onerror=alert(1)>@example.com')
    expect(page.prefill.userId).toBeUndefined()
    // and the real one still works
    expect((await load(game.id, `${REMEMBER_COOKIE}=${signed}`)).prefill).toMatchObject({
      email: 'someone@example.com',
      userId: '42',
    })
  })

  it('«Забыть» expires the cookie and goes back to the page, after which nothing is pre-filled', async () => {
    const { game, product } = await supplyGame()
    const res = await post(game.id, {
      [qtyField(product.id)]: '1',
      [FIELD.userId]: '555',
      [FIELD.email]: `forget-${hex()}@example.com`,
      [FIELD.consent]: 'on',
    })
    const form = new FormData()
    form.set('returnTo', `/products/${game.id}`)
    const forgot = (await forgetAction({
      request: new Request(`${ORIGIN}/buyer/forget`, {
        method: 'POST',
        body: form,
        headers: { cookie: cookiesOf(res) },
      }),
      params: {},
      context: ctx(),
    })) as Response
    expect(forgot.status).toBe(302)
    expect(forgot.headers.get('location')).toBe(`/products/${game.id}`)
    // both cookies, the game pages' and the gift pages'
    const expired = forgot.headers.getSetCookie().filter((c) => c.startsWith(`${REMEMBER_COOKIE}=`))
    expect(expired).toHaveLength(2)
    for (const c of expired) {
      expect(c).toMatch(/^buyer=;/)
      expect(c).toMatch(/Max-Age=0/)
    }
    expect(expired.map((c) => /Path=([^;]*)/.exec(c)?.[1]).sort()).toEqual(['/gifts/detalis', '/products'])
    // the browser drops the cookie: the page comes back empty
    const page = await load(game.id)
    expect(page.prefill.userId).toBeUndefined()
    // an address elsewhere is not followed
    form.set('returnTo', '//evil.example/x')
    const safe = (await forgetAction({
      request: new Request(`${ORIGIN}/buyer/forget`, { method: 'POST', body: form }),
      params: {},
      context: ctx(),
    })) as Response
    expect(safe.headers.get('location')).toBe('/')
  })

  it('a pre-filled page may be kept by no cache, the browser’s included (review L-a: Back after «Забыть»)', async () => {
    const { game, product } = await supplyGame()
    const res = await post(game.id, {
      [qtyField(product.id)]: '1',
      [FIELD.userId]: '8080',
      [FIELD.email]: `nostore-${hex()}@example.com`,
      [FIELD.consent]: 'on',
    })
    expect(await cacheControlOf(game.id, cookiesOf(res))).toBe('private, no-store')
    // a page without the cookie is the shared one, with the entry's default
    expect(await cacheControlOf(game.id)).toBeNull()
  })

  it('over https the cookie is __Secure-buyer: a plain `buyer` planted over http is not read (review L-b)', async () => {
    const { game } = await supplyGame()
    const https = 'https://shop.example'
    const [set] = rememberCookies(new Request(`${https}/products/${game.id}`), {
      gameId: game.id,
      email: 'secure@example.com',
      player: { userId: '31337' },
    })
    expect(set).toMatch(new RegExp(`^${SECURE_REMEMBER_COOKIE}=`))
    expect(set).toMatch(/; Secure/i)
    const value = set!.split(';')[0]!.slice(SECURE_REMEMBER_COOKIE.length + 1)
    const read = await loadWhole(game.id, `${SECURE_REMEMBER_COOKIE}=${value}`, '', https)
    expect(read.data.prefill).toMatchObject({ email: 'secure@example.com', userId: '31337' })
    // the same validly signed value under the plain name (what an http response could set)
    const planted = await loadWhole(game.id, `${REMEMBER_COOKIE}=${value}`, '', https)
    expect(planted.data.prefill.userId).toBeUndefined()
    expect(planted.data.rememberedHere).toBe(false)
    // «Забыть» over https expires both names on both paths
    const forget = forgetCookies(new Request(`${https}/buyer/forget`, { method: 'POST' }))
    expect(forget.map((c) => c.split('=')[0]).sort()).toEqual(
      [REMEMBER_COOKIE, REMEMBER_COOKIE, SECURE_REMEMBER_COOKIE, SECURE_REMEMBER_COOKIE].sort(),
    )
  })

  it('the footer’s «Данные на этом устройстве» page is one page for everyone, kept by the page cache', async () => {
    const page = forgetPage({ request: new Request(`${ORIGIN}/buyer/forget`), params: {}, context: ctx() })
    expect(page.data).toBeNull()
    expect(new Headers(page.init?.headers).get(SHARED_PAGE_HEADER)).toBe('1')
  })

  it('a signed-in buyer’s order writes no device cookie', async () => {
    const signup = await api.call<{ access: string }>('POST', '/api/auth/jwt/create/', {
      body: { email: `signed-${hex()}@example.com`, password: 'password 123' },
    })
    expect(signup.status, JSON.stringify(signup.body)).toBe(200)
    const { game, product } = await supplyGame()
    const res = await post(
      game.id,
      { [qtyField(product.id)]: '1', [FIELD.userId]: '777' },
      `access=${signup.body.access}`,
    )
    expect(res.status).toBe(302)
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${REMEMBER_COOKIE}=`))).toBe(false)
  })

  it('a signed-in buyer’s page ignores a cookie left from their guest days: the shared page, may be filled', async () => {
    const signup = await api.call<{ access: string }>('POST', '/api/auth/jwt/create/', {
      body: { email: `was-guest-${hex()}@example.com`, password: 'password 123' },
    })
    const { game } = await supplyGame()
    const [left] = rememberCookies(new Request(`${ORIGIN}/products/${game.id}`), {
      gameId: game.id,
      email: 'old-guest@example.com',
      player: { userId: '4242' },
    })
    const access = `access=${signup.body.access}`
    const withCookie = await loadWhole(game.id, `${access}; ${left!.split(';')[0]}`)
    const without = await loadWhole(game.id, access)
    // what server/personal-fill.ts relies on when it lets this cookie through: the page is the same
    expect(withCookie.data.prefill).toEqual(without.data.prefill)
    expect(withCookie.data.prefill.userId).toBeUndefined()
    expect(withCookie.data.rememberedHere).toBe(false)
    expect(new Headers(withCookie.init?.headers).get(SHARED_PAGE_HEADER)).toBe(
      new Headers(without.init?.headers).get(SHARED_PAGE_HEADER),
    )
    expect(
      eligibleAccess(
        new Request(`${ORIGIN}/products/${game.id}`, {
          headers: { cookie: `${access}; ${left!.split(';')[0]}` },
        }),
      ),
    ).toBe(signup.body.access)
    // any other cookie still gets a whole render
    expect(
      eligibleAccess(
        new Request(`${ORIGIN}/products/${game.id}`, { headers: { cookie: `${access}; toast=1` } }),
      ),
    ).toBeNull()
  })
})

describe('gift orders use the remembered email (issue 50)', () => {
  async function activeGift() {
    const [gift] = await api.db.select().from(gifts).where(eq(gifts.isActive, true)).limit(1)
    return gift!
  }

  async function loadGift(id: number, cookie = '') {
    const request = new Request(`${ORIGIN}/gifts/detalis/${id}`, { headers: cookie ? { cookie } : {} })
    const page = await loadGiftDetail({ request, params: { id: String(id) }, context: ctx() })
    return {
      data: page.data,
      shared: page.init?.headers ? new Headers(page.init.headers).has(SHARED_PAGE_HEADER) : false,
    }
  }

  async function buyGift(id: number, email: string, cookie = '') {
    const form = new FormData()
    form.set('idempotency_key', crypto.randomUUID())
    form.set('email', email)
    form.set(FIELD.consent, 'on')
    const request = new Request(`${ORIGIN}/gifts/detalis/${id}`, {
      method: 'POST',
      body: form,
      headers: cookie ? { cookie } : {},
    })
    try {
      return (await purchaseGift({
        request,
        params: { id: String(id) },
        context: ctx(),
      })) as unknown as Response
    } catch (thrown) {
      if (thrown instanceof Response) return thrown
      throw thrown
    }
  }

  it('a game order’s email pre-fills the gift form: the gift pages get their own cookie, email only', async () => {
    const { game, product } = await supplyGame()
    const email = `gift-from-game-${hex()}@example.com`
    const res = await post(game.id, {
      [qtyField(product.id)]: '1',
      [FIELD.userId]: '700123457',
      [FIELD.email]: email,
      [FIELD.consent]: 'on',
    })
    expect(res.status).toBe(302)
    const gift = await activeGift()
    const giftCookie = cookiesFor(res, `/gifts/detalis/${gift.id}`)
    // what the browser sends there: one cookie, not the game pages' (their player ids stay there)
    expect(giftCookie.split('; ')).toHaveLength(1)
    const page = await loadGift(gift.id, giftCookie)
    expect(page.data.rememberedEmail).toBe(email)
    expect(page.data.rememberedHere).toBe(true)
    // that guest's own page is not offered to the page cache
    expect(page.shared).toBe(false)
    // the game pages' cookie does not reach the gift lists or the home page: they stay shared
    expect(cookiesFor(res, '/gifts')).toBe('')
    expect(cookiesFor(res, '/')).toBe('')
    expect(cookiesFor(res, '/gifts/2')).toBe('')
  })

  it('a guest’s gift order remembers its email for the next gift; without a cookie the page is shared and empty', async () => {
    const gift = await activeGift()
    const fresh = await loadGift(gift.id)
    expect(fresh.data.rememberedEmail).toBeNull()
    expect(fresh.data.rememberedHere).toBe(false)
    expect(fresh.shared).toBe(true)

    const email = `gift-${hex()}@example.com`
    const res = await buyGift(gift.id, email)
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toMatch(/^\/orders\/[0-9a-f-]{36}\/pay$/)
    const set = res.headers.getSetCookie().filter((c) => c.startsWith(`${REMEMBER_COOKIE}=`))
    expect(set).toHaveLength(1)
    expect(set[0]).toMatch(/Path=\/gifts\/detalis(;|$)/)
    expect(set[0]).toMatch(/HttpOnly/i)
    expect(set[0]).not.toContain(encodeURIComponent(email))
    const page = await loadGift(gift.id, cookiesFor(res, `/gifts/detalis/${gift.id}`))
    expect(page.data.rememberedEmail).toBe(email)
  })

  it('a signed-in buyer’s gift order writes no device cookie', async () => {
    const signup = await api.call<{ access: string }>('POST', '/api/auth/jwt/create/', {
      body: { email: `gift-signed-${hex()}@example.com`, password: 'password 123' },
    })
    const gift = await activeGift()
    const res = await buyGift(gift.id, '', `access=${signup.body.access}`)
    expect(res.status).toBe(302)
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${REMEMBER_COOKIE}=`))).toBe(false)
  })
})

describe('a repeat reuses the last method (issue 50)', () => {
  it('carries the repeated order’s method to the new order’s pay page, checked, at the methods', async () => {
    const signup = await api.call<{ access: string }>('POST', '/api/auth/jwt/create/', {
      body: { email: `repeat-${hex()}@example.com`, password: 'password 123' },
    })
    const token = signup.body.access
    const cookie = `access=${token}`
    const { game, product } = await makePubgStock(api, { codes: 5 })
    // two methods: the one paid with last time is not the cheapest
    const { method: dear } = await makeSandboxMethod(api, 'redirect', { fee: 500 })
    await makeSandboxMethod(api, 'redirect', { fee: 0 })
    const first = await createPubgOrder(api, product.id, { token })
    const paid = await api.call<{ payment_id: string }>('POST', `/api/payments/${dear.name}/`, {
      token,
      body: { order_id: first, currency: 'RUB', email: null, phone: null },
    })
    expect(paid.status).toBe(200)
    expect((await pressOnCheckout(api, paid.body.payment_id, 'confirm')).status).toBe(303)

    const page = await load(game.id, cookie, `?repeat=${first}`)
    expect(page.repeating).toBe(true)
    expect(page.prefill.repeatMethod).toBe(dear.name)

    const res = await post(
      game.id,
      { [qtyField(product.id)]: '1', [FIELD.repeatMethod]: page.prefill.repeatMethod! },
      cookie,
    )
    expect(res.status).toBe(302)
    const location = res.headers.get('location')!
    expect(location).toMatch(new RegExp(`^/orders/[0-9a-f-]{36}/pay\\?method=${dear.name}#methods-heading$`))
    const url = new URL(location, ORIGIN)
    const pay = await loadPayPage(
      new Request(url, { headers: { cookie } }),
      ctx(),
      url.pathname.split('/')[2]!,
    )
    expect(pay.page.defaultMethod).toBe(dear.name)
    // without the carried method, the cheapest is checked
    const plain = await loadPayPage(
      new Request(new URL(url.pathname, ORIGIN), { headers: { cookie } }),
      ctx(),
      url.pathname.split('/')[2]!,
    )
    expect(plain.page.defaultMethod).not.toBe(dear.name)

    // a made-up method name is not carried; the repeat still lands at the methods
    const odd = await post(
      game.id,
      { [qtyField(product.id)]: '1', [FIELD.repeatMethod]: '"><script>' },
      cookie,
    )
    expect(odd.headers.get('location')).toMatch(/^\/orders\/[0-9a-f-]{36}\/pay#methods-heading$/)
  })
})
