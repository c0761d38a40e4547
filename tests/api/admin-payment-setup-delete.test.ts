// Issue 32: the currency rule (a system that cannot charge the country's currency is refused),
// deleting countries, method groups and methods from the back-office (refused while payments name
// them, never the default country, audited), and a method's uploaded icon.
import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  auditLog,
  countries,
  paymentMethodGroups,
  paymentMethods,
  payments,
  uploads,
  users,
} from '#api/db/schema'
import { message } from '#api/lib/errors'
import { grantRole } from '#api/services/admin/roles'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { PNG, pngWithMetadata, SECRET } from '#tests/helpers/images'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeUser } from './orders-fixtures'
import { createPubgOrder, type Err, makePubgStock } from './payments-fixtures'

let api: TestApi
let yk: FakeYookassa
let owner: Awaited<ReturnType<typeof makeUser>>
let support: Awaited<ReturnType<typeof makeUser>>
let productId = 0

beforeAll(async () => {
  yk = await startFakeYookassa()
  api = await createTestApi({ seed: false, env: { ...yk.env, SANDBOX_PAYMENTS: '0' } })
  owner = await makeUser(api)
  support = await makeUser(api)
  await grantRole(api.db, owner.email, 'owner', 'test')
  await grantRole(api.db, support.email, 'support', 'test')
  productId = (await makePubgStock(api, { codes: 5 })).product.id
})
afterAll(async () => {
  await api?.close()
  await yk?.close()
})

const asOwner = <T>(method: string, url: string, body?: unknown) =>
  api.call<T & Err>(method, url, { body, token: owner.token })

async function created(url: string, body: unknown) {
  const r = await asOwner<{ id: number }>('POST', url, body)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return r.body.id
}
const country = (name: string, currency: string, extra: object = {}) =>
  created('/api/admin/payments/countries/', { name, currency, ...extra })
const group = (countryId: number, name = 'Карты') =>
  created(`/api/admin/payments/countries/${countryId}/method_groups/`, { name })
const method = (groupId: number, name: string, extra: object = {}) =>
  created(`/api/admin/payments/method_groups/${groupId}/methods/`, {
    name,
    title: `Способ ${name}`,
    provider: 'payselection',
    ...extra,
  })

/** A payment of some order that names the method (as every started payment does). */
async function paidWith(methodName: string) {
  const orderId = await createPubgOrder(api, productId)
  await api.db
    .insert(payments)
    .values({ id: randomUUID(), orderId, methodName, provider: 'yookassa', amount: 10000, currency: 'RUB' })
}

const auditOf = (action: string, id: number) =>
  api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(id))))

let rub = 0
let kzt = 0
describe('currency rule', () => {
  it('refuses a YooKassa method in a country of another currency, in Russian, by the provider field', async () => {
    rub = await country('Россия', 'RUB')
    kzt = await country('Казахстан', 'KZT', { rate_micro: 5_600_000 })
    const g = await group(kzt)
    const r = await asOwner('POST', `/api/admin/payments/method_groups/${g}/methods/`, {
      name: 'kz_sbp',
      title: 'СБП',
      provider: 'yookassa',
      kind: 'sbp',
    })
    expect([r.status, r.body.code]).toEqual([400, 'payment_provider_currency'])
    expect(r.body.detail).toBe(
      message('payment_provider_currency', { provider: 'yookassa', currency: 'KZT', currencies: 'RUB' }),
    )
    expect(r.body.detail).toContain('не принимает оплату в валюте страны (KZT)')
    expect(r.body.fields?.provider).toEqual([r.body.detail])
    expect(await api.db.select().from(paymentMethods).where(eq(paymentMethods.name, 'kz_sbp'))).toEqual([])
    // the same method in roubles is fine
    await method(await group(rub), 'ru_sbp', { provider: 'yookassa', kind: 'sbp', is_active: true })
  })

  it('refuses moving a method to YooKassa and switching on one that cannot charge the currency', async () => {
    const g = await group(kzt, 'Другие')
    const id = await method(g, 'kz_other')
    const moved = await asOwner('PATCH', `/api/admin/payments/methods/${id}/`, {
      provider: 'yookassa',
      kind: 'bank_card',
    })
    expect([moved.status, moved.body.code]).toEqual([400, 'payment_provider_currency'])
    // a method left from before the rule: switched off it may be edited, never switched on
    const [legacy] = await api.db
      .insert(paymentMethods)
      .values({
        groupId: g,
        name: 'kz_legacy',
        title: 'Старый',
        provider: 'yookassa',
        scenario: 'bank_card',
        isActive: false,
        currencies: ['KZT'],
      })
      .returning()
    const on = await asOwner('PATCH', `/api/admin/payments/methods/${legacy!.id}/`, { is_active: true })
    expect([on.status, on.body.code]).toEqual([400, 'payment_provider_currency'])
    const [row] = await api.db.select().from(paymentMethods).where(eq(paymentMethods.id, legacy!.id))
    expect(row!.isActive).toBe(false)
    const renamed = await asOwner('PATCH', `/api/admin/payments/methods/${legacy!.id}/`, {
      title: 'Старый 2',
    })
    expect(renamed.status).toBe(200)
  })
})

describe('deleting', () => {
  it('is for the owner only: support 403, a guest the unknown address', async () => {
    const g = await group(rub, 'Чужая')
    for (const url of [
      `/api/admin/payments/countries/${kzt}/`,
      `/api/admin/payments/method_groups/${g}/`,
      `/api/admin/payments/methods/1/`,
    ]) {
      expect((await api.call('DELETE', url, { token: support.token })).status).toBe(403)
      expect((await api.call('DELETE', url)).status).toBe(404)
    }
    expect((await asOwner('DELETE', '/api/admin/payments/methods/999999/')).status).toBe(404)
  })

  it('deletes an unused method and audits what it was', async () => {
    const g = await group(rub, 'Пробная')
    const id = await method(g, 'ru_unused')
    const r = await asOwner('DELETE', `/api/admin/payments/methods/${id}/`)
    expect([r.status, r.body]).toEqual([200, { ok: true }])
    expect(await api.db.select().from(paymentMethods).where(eq(paymentMethods.id, id))).toEqual([])
    const [a] = await auditOf('payment_method.delete', id)
    expect(a!.actorEmail).toBe(owner.email)
    expect(a!.before).toMatchObject({ name: 'ru_unused', provider: 'payselection' })
  })

  it('refuses a method a payment names with a Russian 409 that offers switching it off', async () => {
    const g = await group(rub, 'Платили')
    const id = await method(g, 'ru_paid')
    await paidWith('ru_paid')
    const r = await asOwner('DELETE', `/api/admin/payments/methods/${id}/`)
    expect([r.status, r.body.code]).toEqual([409, 'payment_method_has_payments'])
    expect(r.body.detail).toContain('Выключите способ')
    const g409 = await asOwner('DELETE', `/api/admin/payments/method_groups/${g}/`)
    expect([g409.status, g409.body.code]).toEqual([409, 'payment_group_has_payments'])
    expect(await api.db.select().from(paymentMethods).where(eq(paymentMethods.id, id))).toHaveLength(1)
    expect(await auditOf('payment_method.delete', id)).toEqual([])
  })

  it('refuses YooKassa’s own methods while its keys are set (start-up would make them again)', async () => {
    const g = await group(rub, 'ЮKassa')
    const id = await method(g, 'yookassa_card', { provider: 'yookassa', kind: 'bank_card' })
    const r = await asOwner('DELETE', `/api/admin/payments/methods/${id}/`)
    expect([r.status, r.body.code]).toEqual([409, 'payment_method_builtin'])
    expect(r.body.detail).toContain('выключите его')
  })

  it('deletes a group with its unused methods', async () => {
    const g = await group(rub, 'Удаляемая')
    const a = await method(g, 'ru_gone_a')
    const b = await method(g, 'ru_gone_b')
    const r = await asOwner('DELETE', `/api/admin/payments/method_groups/${g}/`)
    expect(r.status).toBe(200)
    expect(await api.db.select().from(paymentMethodGroups).where(eq(paymentMethodGroups.id, g))).toEqual([])
    for (const id of [a, b])
      expect(await api.db.select().from(paymentMethods).where(eq(paymentMethods.id, id))).toEqual([])
    const [audit] = await auditOf('payment_method_group.delete', g)
    expect(audit!.before).toMatchObject({
      name: 'Удаляемая',
      methods: [{ name: 'ru_gone_a' }, { name: 'ru_gone_b' }],
    })
  })

  it('never deletes the default country; a country whose methods were paid with offers hiding', async () => {
    const [def] = await api.db.select().from(countries).where(eq(countries.isDefault, true))
    expect(def!.id).toBe(rub)
    const d = await asOwner('DELETE', `/api/admin/payments/countries/${rub}/`)
    expect([d.status, d.body.code]).toEqual([409, 'payment_country_default_delete'])
    expect(d.body.detail).toBe(message('payment_country_default_delete', { name: 'Россия' }))

    const by = await country('Беларусь', 'BYN', { rate_micro: 35_000 })
    await method(await group(by), 'by_paid')
    await paidWith('by_paid')
    const p = await asOwner('DELETE', `/api/admin/payments/countries/${by}/`)
    expect([p.status, p.body.code]).toEqual([409, 'payment_country_has_payments'])
    expect(p.body.detail).toContain('Скройте страну')
    expect(await api.db.select().from(countries).where(eq(countries.id, by))).toHaveLength(1)
  })

  it('deletes an unused country with its groups and methods; users who chose it fall back', async () => {
    const buyer = await makeUser(api)
    await api.db.update(users).set({ countryId: kzt }).where(eq(users.id, buyer.id))
    const r = await asOwner('DELETE', `/api/admin/payments/countries/${kzt}/`)
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(await api.db.select().from(countries).where(eq(countries.id, kzt))).toEqual([])
    const left = await api.db.select().from(paymentMethods).where(eq(paymentMethods.name, 'kz_other'))
    expect(left).toEqual([])
    const [u] = await api.db.select().from(users).where(eq(users.id, buyer.id))
    expect(u!.countryId).toBeNull()
    const active = await api.call<{ id: number }>('GET', '/api/payments/countries/active/', {
      token: buyer.token,
    })
    expect(active.body.id).toBe(rub)
    const [a] = await auditOf('country.delete', kzt)
    expect(a!.before).toMatchObject({
      name: 'Казахстан',
      method_groups: [{ name: 'Карты' }, { name: 'Другие' }],
    })
  })
})

describe('a method’s icon', () => {
  async function upload(id: number, file: Buffer | string | null, token = owner.token, type = 'image/png') {
    const form = new FormData()
    if (file !== null)
      form.set(
        'icon',
        new Blob([typeof file === 'string' ? file : new Uint8Array(file)], { type }),
        'icon.png',
      )
    const res = await api.app.request(`/api/admin/payments/methods/${id}/icon/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    return { status: res.status, body: (await res.json()) as { icon: string } & Err }
  }

  it('is stored without metadata, served from /media/, replaces the previous one, audited; goes with the method', async () => {
    const id = await method(await group(rub, 'Значки'), 'ru_icon')
    const first = await upload(id, pngWithMetadata())
    expect(first.status, JSON.stringify(first.body)).toBe(200)
    expect(first.body.icon).toMatch(/^\/media\/[0-9a-f]{32}\.png$/)
    const served = await api.app.request(first.body.icon)
    expect(served.status).toBe(200)
    expect(Buffer.from(await served.arrayBuffer()).includes(SECRET)).toBe(false)
    const [row] = await api.db.select().from(paymentMethods).where(eq(paymentMethods.id, id))
    expect(row!.icon).toBe(first.body.icon)
    const admin = await asOwner<
      Array<{ method_groups: Array<{ methods: Array<{ id: number; icon: string }> }> }>
    >('GET', '/api/admin/payments/')
    const shown = admin.body
      .flatMap((c) => c.method_groups.flatMap((g) => g.methods))
      .find((m) => m.id === id)
    expect(shown!.icon).toBe(first.body.icon)

    const second = await upload(id, PNG)
    expect(second.status).toBe(200)
    expect((await api.app.request(first.body.icon)).status).toBe(404)
    const [a] = await auditOf('payment_method.icon', id)
    expect(a!.after).toEqual({ icon: first.body.icon })
    expect(await api.db.select().from(uploads).where(eq(uploads.paymentMethodId, id))).toHaveLength(1)

    // deleting the method deletes its icon
    expect((await asOwner('DELETE', `/api/admin/payments/methods/${id}/`)).status).toBe(200)
    expect(await api.db.select().from(uploads).where(eq(uploads.paymentMethodId, id))).toEqual([])
    expect((await api.app.request(second.body.icon)).status).toBe(404)
  })

  it('refuses SVG (it can carry script), a non-image, an empty form, more than 256 KB; owner only', async () => {
    const id = await method(await group(rub, 'Значки 2'), 'ru_icon2')
    const svg = await upload(
      id,
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>',
      owner.token,
      'image/svg+xml',
    )
    expect([svg.status, svg.body.code]).toEqual([400, 'admin_icon_not_image'])
    expect(svg.body.fields?.icon?.[0]).toBe(message('admin_icon_not_image'))
    expect(svg.body.detail).toContain('SVG не принимаем')
    const text = await upload(id, 'just text')
    expect(text.status).toBe(400)
    const none = await upload(id, null)
    expect([none.status, none.body.fields?.icon?.[0]]).toEqual([400, 'Выберите файл значка'])
    const big = await upload(id, Buffer.concat([PNG, Buffer.alloc(256 * 1024)]))
    expect([big.status, big.body.code, big.body.detail]).toEqual([
      413,
      'admin_icon_too_large',
      'Файл значка больше 256 КБ',
    ])
    expect((await upload(999_999, PNG)).status).toBe(404)
    expect((await upload(id, PNG, support.token)).status).toBe(403)
    const [row] = await api.db.select().from(paymentMethods).where(eq(paymentMethods.id, id))
    expect(row!.icon).not.toMatch(/^\/media\//)
  })
})
