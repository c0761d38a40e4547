// Kind settings in the back-office (issue 31): the owner saves the Standoff and Steam settings
// through admin operations, support cannot, bad input is refused with Russian messages, and a
// Steam game added in the back-office is sellable as soon as the Steam settings are saved.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, games, standoffSettings, steamSettings } from '#api/db/schema'
import { grantRole } from '#api/services/admin/roles'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeUser } from './orders-fixtures'

type Err = { detail: string; code: string; fields?: Record<string, string[]> }
let api: TestApi
let owner: Awaited<ReturnType<typeof makeUser>>
let support: Awaited<ReturnType<typeof makeUser>>
let shopper: Awaited<ReturnType<typeof makeUser>>

beforeAll(async () => {
  api = await createTestApi({ env: { PUBLIC_URL: 'https://shop.example', SANDBOX_PAYMENTS: '0' } })
  await api.db.delete(steamSettings)
  await api.db.delete(standoffSettings)
  owner = await makeUser(api)
  support = await makeUser(api)
  shopper = await makeUser(api)
  await grantRole(api.db, owner.email, 'owner', 'test')
  await grantRole(api.db, support.email, 'support', 'test')
})
afterAll(() => api?.close())

const steamBody = { commission_bp: 800, currency: 'KZT', min_amount: '100.00', max_amount: '15000.00' }
const standoffBody = {
  skin_name: 'AKR «Carbon»',
  skin_picture: '/images/standoff/skin.svg',
  market_fee_bp: 1000,
  is_surplus_enabled: true,
  need_refund: false,
}

describe('Steam settings', () => {
  it('a Steam game added in the back-office is sold once the owner saves the settings', async () => {
    await api.db.update(games).set({ isActive: false }).where(eq(games.kind, 'Steam'))
    const created = await api.call<{ id: number }>('POST', '/api/admin/games/', {
      token: owner.token,
      body: { kind: 'Steam', title: 'Steam (Казахстан)', supplier: 'manual', is_active: true },
    })
    expect(created.status).toBe(200)
    const order = () =>
      api.call<{ id: string; amount: string } & Err>('POST', '/api/orders/steam/', {
        body: { amount: '500.00', steam_account_id: 'gaben', email: 'steam@example.com' },
      })
    const before = await order()
    expect(before.status).toBe(400)
    expect(before.body.detail).toBe('Пополнение Steam сейчас недоступно')
    const unsaved = await api.call<{ configured: boolean }>('GET', '/api/admin/settings/steam/', {
      token: owner.token,
    })
    expect(unsaved.status).toBe(200)
    expect(unsaved.body.configured).toBe(false)

    const saved = await api.call<Record<string, unknown>>('PUT', '/api/admin/settings/steam/', {
      token: owner.token,
      body: steamBody,
    })
    expect(saved.status).toBe(200)
    expect(saved.body).toEqual({ ...steamBody, configured: true })
    const after = await order()
    expect(after.status).toBe(201)
    // the public settings the form reads say the same
    const pub = await api.call<{ commission: string; min_amount: string; max_amount: string }>(
      'GET',
      '/api/orders/steam/settings/',
    )
    expect(pub.body).toMatchObject({ commission: '8.00', min_amount: '100.00', max_amount: '15000.00' })
    // a second save changes the row, never adds one
    const again = await api.call('PUT', '/api/admin/settings/steam/', {
      token: owner.token,
      body: { ...steamBody, max_amount: '400.00' },
    })
    expect(again.status).toBe(200)
    expect(await api.db.select().from(steamSettings)).toHaveLength(1)
    const tooMuch = await order()
    expect(tooMuch.status).toBe(400)
    const audits = await api.db.select().from(auditLog).where(eq(auditLog.action, 'settings.steam'))
    expect(audits).toHaveLength(2)
    expect(audits.every((a) => a.actorEmail === owner.email)).toBe(true)
  })

  it('refuses bad limits and a currency outside the list, with Russian messages', async () => {
    const bounds = await api.call<Err>('PUT', '/api/admin/settings/steam/', {
      token: owner.token,
      body: { ...steamBody, min_amount: '500.00', max_amount: '100.00' },
    })
    expect(bounds.status).toBe(400)
    expect(bounds.body.detail).toMatch(/Минимальная сумма/)
    const currency = await api.call<Err>('PUT', '/api/admin/settings/steam/', {
      token: owner.token,
      body: { ...steamBody, currency: 'BTC' },
    })
    expect(currency.status).toBe(400)
    expect(currency.body.detail).toMatch(/валют/)
  })
})

describe('Standoff settings', () => {
  it('the owner saves them; new Standoff orders are listed at the new fee', async () => {
    const r = await api.call<Record<string, unknown>>('PUT', '/api/admin/settings/standoff/', {
      token: owner.token,
      body: standoffBody,
    })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({ ...standoffBody, configured: true })
    const pub = await api.call<{ skin_name: string; market_fee: string }>(
      'GET',
      '/api/orders/standoff/settings/',
    )
    expect(pub.body).toMatchObject({ skin_name: 'AKR «Carbon»', market_fee: '10.00' })
    const read = await api.call<Record<string, unknown>>('GET', '/api/admin/settings/standoff/', {
      token: owner.token,
    })
    expect(read.body).toEqual({ ...standoffBody, configured: true })
    const bad = await api.call<Err>('PUT', '/api/admin/settings/standoff/', {
      token: owner.token,
      body: { ...standoffBody, market_fee_bp: 10000, skin_picture: 'javascript:alert(1)' },
    })
    expect(bad.status).toBe(400)
    expect(Object.keys(bad.body.fields ?? {})).toEqual(
      expect.arrayContaining(['market_fee_bp', 'skin_picture']),
    )
  })

  it('support and shoppers cannot read or save kind settings', async () => {
    for (const path of ['/api/admin/settings/standoff/', '/api/admin/settings/steam/']) {
      const body = path.includes('steam') ? steamBody : standoffBody
      expect((await api.call('PUT', path, { token: support.token, body })).status).toBe(403)
      expect((await api.call('GET', path, { token: support.token })).status).toBe(403)
      expect((await api.call('PUT', path, { token: shopper.token, body })).status).toBe(404)
      expect((await api.call('PUT', path, { body })).status).toBe(404)
    }
  })
})
