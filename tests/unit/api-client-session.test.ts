// Token cookies, the cart-clear signal, the storefront env and the pure parts of the API client.
import { parseSetCookie } from 'cookie'
import { describe, expect, it } from 'vitest'
import { loadStorefrontEnv } from '#app/env.server'
import { CART_CLEAR_COOKIE, consumeCartClearSignal } from '#app/lib/api/cart-signal'
import { errorText } from '#app/lib/api/error-text'
import { contractRequiresBody } from '#app/lib/api/required-params.server'
import {
  assertGameKind,
  assertGiftKind,
  assertOrderKind,
  assertProductKind,
  assertScenarioType,
  UnknownKindError,
} from '#app/lib/api/resourcetypes'
import {
  cartClearCookie,
  clearTokenCookies,
  logoutCookies,
  readTokens,
  tokenCookies,
} from '#app/lib/session.server'
import contract from '../../openapi/schema.json'

const page = (url: string, cookie?: string) => new Request(url, { headers: cookie ? { cookie } : {} })

describe('token cookies', () => {
  it('reads access and refresh from the Cookie header; empty or missing ones are null', () => {
    expect(readTokens(page('http://localhost/', 'i18n_redirected=ru; access=a%2Eb; refresh=r1'))).toEqual({
      access: 'a.b',
      refresh: 'r1',
    })
    expect(readTokens(page('http://localhost/', 'access=; other=1'))).toEqual({ access: null, refresh: null })
    expect(readTokens(page('http://localhost/'))).toEqual({ access: null, refresh: null })
  })

  it('stores both tokens HttpOnly, SameSite=Lax, path /, for 30 days, Secure over https', () => {
    const cookies = tokenCookies({ access: 'a1', refresh: 'r1' }, page('https://shop.example/profile'))
    expect(cookies.map((c) => parseSetCookie(c))).toEqual([
      {
        name: 'access',
        value: 'a1',
        httpOnly: true,
        sameSite: 'lax',
        secure: true,
        path: '/',
        maxAge: 30 * 24 * 60 * 60,
      },
      {
        name: 'refresh',
        value: 'r1',
        httpOnly: true,
        sameSite: 'lax',
        secure: true,
        path: '/',
        maxAge: 30 * 24 * 60 * 60,
      },
    ])
  })

  it.each([
    ['http://localhost:3000/', false],
    ['http://127.0.0.1:3200/', false],
    ['http://[::1]:3000/', false],
    ['http://shop.example/', true],
    ['https://localhost/', true],
  ])('on %s the Secure flag is %s', (url, secure) => {
    for (const c of [...tokenCookies({ access: 'a', refresh: 'r' }, page(url)), cartClearCookie(page(url))]) {
      expect(parseSetCookie(c).secure ?? false).toBe(secure)
    }
  })

  it('clearing expires both token cookies', () => {
    const cleared = clearTokenCookies(page('https://shop.example/')).map((c) => parseSetCookie(c))
    expect(cleared.map((c) => [c.name, c.value, c.maxAge, c.path, c.httpOnly])).toEqual([
      ['access', '', 0, '/', true],
      ['refresh', '', 0, '/', true],
    ])
    for (const c of cleared) expect(c.expires?.getTime()).toBe(0)
  })

  it('logout also sets a cart_clear signal that scripts can read, kept until one does', () => {
    const cookies = logoutCookies(page('http://localhost/')).map((c) => parseSetCookie(c))
    expect(cookies.map((c) => c.name)).toEqual(['access', 'refresh', CART_CLEAR_COOKIE])
    const signal = cookies[2]!
    expect(signal).toMatchObject({ value: '1', path: '/', sameSite: 'lax' })
    expect(signal.httpOnly).toBeUndefined()
    // a logout with JavaScript off is honoured by the next page that runs scripts, however late
    expect(signal.maxAge).toBe(30 * 24 * 60 * 60)
  })

  it('the browser consumes the cart_clear signal once', () => {
    const writes: string[] = []
    let jar = 'i18n_redirected=ru; cart_clear=1'
    const doc = {
      get cookie() {
        return jar
      },
      set cookie(value: string) {
        writes.push(value)
        if (value.startsWith('cart_clear=;')) jar = 'i18n_redirected=ru'
      },
    }
    expect(consumeCartClearSignal(doc)).toBe(true)
    expect(writes).toEqual(['cart_clear=; Path=/; Max-Age=0; SameSite=Lax'])
    expect(consumeCartClearSignal(doc)).toBe(false)
    expect(writes).toHaveLength(1)
  })
})

describe('storefront env', () => {
  it('defaults API_TIMEOUT_MS to 30 000 and accepts a number of milliseconds', () => {
    expect(loadStorefrontEnv({}).API_TIMEOUT_MS).toBe(30_000)
    expect(loadStorefrontEnv({ API_TIMEOUT_MS: '' }).API_TIMEOUT_MS).toBe(30_000)
    expect(loadStorefrontEnv({ API_TIMEOUT_MS: '5000' }).API_TIMEOUT_MS).toBe(5000)
  })

  it.each(['abc', '1.5', '0', '-3', '9999999'])(
    'rejects API_TIMEOUT_MS=%s with a message naming it',
    (value) => {
      expect(() => loadStorefrontEnv({ API_TIMEOUT_MS: value })).toThrow(
        /Invalid storefront environment:\n {2}API_TIMEOUT_MS: API_TIMEOUT_MS must/,
      )
    },
  )
})

describe('errorText', () => {
  it.each([
    [{ detail: 'Нет доступа', code: 'no_access' }, 'Нет доступа'],
    [{ code: 'x', detail: 'Сначала код' }, 'Сначала код'],
    [
      { fields: { email: ['Введите email'] }, detail: 'Ошибка проверки', code: 'validation_error' },
      'Ошибка проверки',
    ],
    [{ email: ['Введите email'] }, 'Введите email'],
    [{ non_field_errors: ['', 'Вторая строка'] }, 'Вторая строка'],
    [['Список'], 'Список'],
    ['Строка', 'Строка'],
    [{ detail: 'Без кода' }, 'Без кода'],
    [{ code: 'only_code' }, null],
    [{ code: 'x', detail: '', other: 'Другое' }, 'Другое'],
    [{ count: 3, ok: false }, null],
    [null, null],
    [undefined, null],
    ['', null],
  ])('%j → %j', (body, expected) => {
    expect(errorText(body)).toBe(expected)
  })
})

describe('resourcetypes', () => {
  it('accepts exactly the kinds of the spec', () => {
    for (const k of ['PUBGGame', 'StandoffGame', 'Steam', 'SupplyGame']) expect(assertGameKind(k)).toBe(k)
    for (const k of ['PUBGProduct', 'StandoffProduct', 'SteamProduct', 'SupplyProduct']) {
      expect(assertProductKind(k)).toBe(k)
    }
    for (const k of ['MooGoldOrder', 'PUBGOrder', 'RokkyOrder', 'StandoffOrder', 'SteamOrder']) {
      expect(assertOrderKind(k)).toBe(k)
    }
    expect(assertGiftKind('RokkyGift')).toBe('RokkyGift')
    const scenarios = [
      'external',
      'form',
      'invoice_qr',
      'p2p',
      'p2p_redirect',
      'qr',
      'redirect',
      'wait_order_state',
    ]
    for (const s of scenarios) expect(assertScenarioType(s)).toBe(s)
  })

  it.each([
    [assertGameKind, 'SteamGame'],
    [assertGameKind, undefined],
    [assertProductKind, 'PUBGGame'],
    [assertOrderKind, 'SupplyOrder'],
    [assertGiftKind, 'Gift'],
    [assertScenarioType, 'QR'],
    [assertScenarioType, null],
  ] as const)('%o rejects %j', (assert, value) => {
    expect(() => assert(value)).toThrow(UnknownKindError)
  })
})

describe('contractRequiresBody', () => {
  it('follows requestBody.required of the committed contract', () => {
    const doc = contract as unknown as {
      paths: Record<string, Record<string, { requestBody?: { required?: boolean } }>>
    }
    let checked = 0
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (method === 'parameters') continue
        expect(contractRequiresBody(method.toUpperCase(), path)).toBe(op.requestBody?.required === true)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(0)
    expect(contractRequiresBody('POST', '/api/no/such/path/')).toBe(false)
  })
})
