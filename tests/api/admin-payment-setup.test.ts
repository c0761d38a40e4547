// Issue 32/37: an owner of a production shop (no demo seed, no sandbox) sets payments up in the
// back-office: a country, a hidden country, a group and YooKassa methods; what it shows as on is
// what a buyer can use, and a buyer then pays by SBP against the local fake of YooKassa.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, countries, orders } from '#api/db/schema'
import { message } from '#api/lib/errors'
import { renderMail } from '#api/services/mail/render'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import type { makeUser } from './orders-fixtures'
import { createPubgOrder, type Err, makePubgStock, pay, status } from './payments-fixtures'

type Method = {
  id: number
  name: string
  provider: string
  provider_ready: boolean
  is_active: boolean
  kind: string | null
}
type Country = {
  id: number
  name: string
  currency: string
  hidden: boolean
  is_default: boolean
  method_groups: { id: number; name: string; methods: Method[] }[]
}
type Provider = { name: string; ready: boolean; kinds: string[] }

let api: TestApi
let yk: FakeYookassa
let owner: Awaited<ReturnType<typeof makeUser>>
let support: Awaited<ReturnType<typeof makeUser>>

beforeAll(async () => {
  yk = await startFakeYookassa()
  api = await createTestApi({
    seed: false,
    env: { ...yk.env, SANDBOX_PAYMENTS: '0', YOOKASSA_NOTIFY_FROM: '127.0.0.1/32, ::1' },
  })
  owner = await makeStaff(api, 'owner')
  support = await makeStaff(api, 'support')
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

const setup = async () => (await asOwner<Country[]>('GET', '/api/admin/payments/')).body

const auditOf = (action: string, id: number) =>
  api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.entityId, String(id))))

describe('payment setup on a production shop', () => {
  let rub = 0
  let kzt = 0
  let group = 0

  it('starts empty; the provider list has no sandbox and says which systems have keys', async () => {
    expect(api.config.sandboxPayments).toBe(false)
    expect(await setup()).toEqual([])
    const p = await asOwner<Provider[]>('GET', '/api/admin/payments/providers/')
    expect(p.status).toBe(200)
    expect(p.body.map((x) => [x.name, x.ready])).toEqual([
      ['yookassa', true],
      ['payselection', false],
      ['getpay', false],
    ])
    expect(p.body[0]!.kinds).toEqual(['bank_card', 'sbp', 'sberbank', 'tinkoff_bank'])
    // the overview's red warning
    const ov = await asOwner<{ payments_usable: number }>('GET', '/api/admin/overview/')
    expect(ov.body.payments_usable).toBe(0)
    // a buyer meets no country at all rather than a failure
    expect((await api.call<unknown[]>('GET', '/api/payments/countries/')).body).toEqual([])
  })

  it('only the owner may add; support gets 403 and a guest the unknown address', async () => {
    const calls: Array<[string, unknown]> = [
      ['/api/admin/payments/countries/', { name: 'Россия', currency: 'RUB' }],
      ['/api/admin/payments/countries/1/method_groups/', { name: 'Карты' }],
      [
        '/api/admin/payments/method_groups/1/methods/',
        { name: 'x_card', title: 'x', provider: 'yookassa', kind: 'sbp' },
      ],
    ]
    for (const [url, body] of calls) {
      expect((await api.call('POST', url, { body, token: support.token })).status).toBe(403)
      expect((await api.call('POST', url, { body })).status).toBe(404)
    }
    expect(await api.db.select().from(countries)).toEqual([])
  })

  it('creates the roubles country, a hidden tenge country, a group and YooKassa card and SBP', async () => {
    rub = await created('/api/admin/payments/countries/', { name: 'Россия', currency: 'rub' })
    kzt = await created('/api/admin/payments/countries/', {
      name: 'Казахстан',
      currency: 'KZT',
      rate_micro: 5_600_000,
      hidden: true,
    })
    group = await created(`/api/admin/payments/countries/${rub}/method_groups/`, { name: 'Карты и СБП' })
    const card = await created(`/api/admin/payments/method_groups/${group}/methods/`, {
      name: 'yk_card',
      title: 'Банковская карта',
      provider: 'yookassa',
      kind: 'bank_card',
      fee_bp: 300,
      is_active: true,
    })
    const sbp = await created(`/api/admin/payments/method_groups/${group}/methods/`, {
      name: 'yk_sbp',
      title: 'СБП',
      provider: 'yookassa',
      kind: 'sbp',
      is_active: true,
    })
    const all = await setup()
    expect(all.map((c) => [c.name, c.currency, c.is_default, c.hidden])).toEqual([
      ['Россия', 'RUB', true, false],
      ['Казахстан', 'KZT', false, true],
    ])
    expect(
      all[0]!.method_groups[0]!.methods.map((m) => [m.name, m.kind, m.is_active, m.provider_ready]),
    ).toEqual([
      ['yk_card', 'bank_card', true, true],
      ['yk_sbp', 'sbp', true, true],
    ])
    const ov = await asOwner<{ payments_usable: number }>('GET', '/api/admin/overview/')
    expect(ov.body.payments_usable).toBe(2)
    expect(await auditOf('country.create', kzt)).toHaveLength(1)
    expect(await auditOf('payment_method_group.create', group)).toHaveLength(1)
    const [entry] = await auditOf('payment_method.create', card)
    expect(entry!.actorEmail).toBe(owner.email)
    expect(entry!.after).toMatchObject({
      name: 'yk_card',
      provider: 'yookassa',
      scenario: 'bank_card',
      fee: 300,
    })
    expect(await auditOf('payment_method.create', sbp)).toHaveLength(1)
  })

  it('refuses in Russian what a buyer could not use, and bad input, with the field named', async () => {
    const url = `/api/admin/payments/method_groups/${group}/methods/`
    const base = { name: 'other', title: 'Другое' }
    const cases: Array<[string, unknown, string, string?]> = [
      [url, { ...base, provider: 'sandbox' }, 'provider', message('payment_provider_sandbox_off')],
      [
        url,
        { ...base, provider: 'payselection', is_active: true },
        'is_active',
        message('payment_provider_not_configured', { provider: 'payselection' }),
      ],
      [url, { ...base, provider: 'yookassa' }, 'kind'],
      [url, { ...base, provider: 'yookassa', kind: 'cash' }, 'kind'],
      [url, { ...base, provider: 'yookassa', kind: 'sbp', name: 'yk_sbp' }, 'name'],
      [url, { ...base, provider: 'yookassa', kind: 'sbp', name: 'Не латиница' }, 'name'],
      [url, { ...base, provider: 'bitcoin' }, 'provider'],
      [url, { ...base, provider: 'yookassa', kind: 'sbp', icon: 'javascript:alert(1)' }, 'icon'],
      ['/api/admin/payments/countries/', { name: 'Нигде', currency: 'рубли' }, 'currency'],
      ['/api/admin/payments/countries/', { name: '', currency: 'USD' }, 'name'],
      [`/api/admin/payments/countries/${rub}/method_groups/`, { name: '' }, 'name'],
    ]
    for (const [u, body, field, detail] of cases) {
      const r = await asOwner('POST', u, body)
      expect(r.status, `${u} ${JSON.stringify(body)}`).toBe(400)
      expect(Object.keys(r.body.fields ?? {}), JSON.stringify(r.body)).toContain(field)
      expect(r.body.detail).toMatch(/[а-яё]/i)
      if (detail) expect(r.body.detail).toBe(detail)
    }
    expect(
      (await asOwner('POST', '/api/admin/payments/countries/999999/method_groups/', { name: 'x' })).status,
    ).toBe(404)
    expect(
      (
        await asOwner('POST', '/api/admin/payments/method_groups/999999/methods/', {
          ...base,
          provider: 'yookassa',
          kind: 'sbp',
        })
      ).status,
    ).toBe(404)
    // a payselection method may exist switched off, and says it cannot be switched on
    const ps = await created(url, { ...base, provider: 'payselection' })
    const on = await asOwner('PATCH', `/api/admin/payments/methods/${ps}/`, { is_active: true })
    expect(on.status).toBe(400)
    expect(on.body.fields?.is_active).toEqual([
      message('payment_provider_not_configured', { provider: 'payselection' }),
    ])
    // moved to YooKassa SBP, it can
    expect(
      (await asOwner('PATCH', `/api/admin/payments/methods/${ps}/`, { provider: 'yookassa', kind: 'sbp' }))
        .status,
    ).toBe(200)
    expect((await asOwner('PATCH', `/api/admin/payments/methods/${ps}/`, { is_active: true })).status).toBe(
      200,
    )
    expect((await asOwner('PATCH', `/api/admin/payments/methods/${ps}/`, { is_active: false })).status).toBe(
      200,
    )
    // the default country cannot be hidden
    const hide = await asOwner('PATCH', `/api/admin/payments/countries/${rub}/`, { hidden: true })
    expect(hide.status).toBe(400)
    expect(hide.body.detail).toBe(message('payment_country_default_hidden'))
  })

  it('a hidden country is not offered; showing it again offers it', async () => {
    const listed = await api.call<{ id: number; name: string }[]>('GET', '/api/payments/countries/')
    expect(listed.body.map((c) => c.name)).toEqual(['Россия'])
    const pick = await api.call<Err>('POST', '/api/payments/countries/active/select/', {
      body: { country_id: kzt },
    })
    expect(pick.status).toBe(404)
    const active = await api.call<{ name: string }>(
      'GET',
      `/api/payments/countries/active/?country_id=${kzt}`,
    )
    expect(active.body.name).toBe('Россия')
    expect((await asOwner('PATCH', `/api/admin/payments/countries/${kzt}/`, { hidden: false })).status).toBe(
      200,
    )
    const again = await api.call<{ name: string }[]>('GET', '/api/payments/countries/')
    expect(again.body.map((c) => c.name)).toEqual(['Россия', 'Казахстан'])
    expect(await auditOf('country.update', kzt)).toHaveLength(1)
    expect((await asOwner('PATCH', `/api/admin/payments/countries/${kzt}/`, { hidden: true })).status).toBe(
      200,
    )
  })

  it('a buyer pays by SBP through the method the owner made, against the fake', async () => {
    const { product } = await makePubgStock(api, { codes: 5 })
    const orderId = await createPubgOrder(api, product.id, { email: 'buyer@example.com' })
    const r = await pay(api, 'yk_sbp', orderId, { email: 'buyer@example.com' })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.type).toBe('invoice_qr')
    expect(r.body.qr_str).toEqual(expect.stringContaining('://'))
    const remote = yk.paymentOf(r.body.payment_id)!
    expect(remote.payment_method.type).toBe('sbp')
    yk.succeed(remote.id)
    const res = await api.app.request('/api/payments/yookassa/notify/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shop-client-ip': '127.0.0.1' },
      body: JSON.stringify(yk.notification('payment.succeeded', remote)),
    })
    expect(res.status).toBe(200)
    const s = await status(api, orderId)
    expect(['paid', 'sending', 'sent', 'done']).toContain(s.body.status)
    const [o] = await api.db.select().from(orders).where(eq(orders.id, orderId))
    expect(o!.status).not.toBe('waiting_for_payment')
  })

  it('a card payment with the 3 % fee: the done mail says the amount charged, fee named', async () => {
    const { product } = await makePubgStock(api, { codes: 5, price: 10_000 })
    const orderId = await createPubgOrder(api, product.id, { email: 'buyer@example.com' })
    const r = await pay(api, 'yk_card', orderId, { email: 'buyer@example.com' })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.type).toBe('redirect')
    const [o] = await api.db.select().from(orders).where(eq(orders.id, orderId))
    const fee = Math.round((o!.totalToPay * 3) / 100)
    // what the provider is asked to charge: the total and the fee
    const remote = yk.paymentOf(r.body.payment_id)!
    expect(remote.amount.value).toBe(((o!.totalToPay + fee) / 100).toFixed(2))
    yk.succeed(remote.id)
    const res = await api.app.request('/api/payments/yookassa/notify/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shop-client-ip': '127.0.0.1' },
      body: JSON.stringify(yk.notification('payment.succeeded', remote)),
    })
    expect(res.status).toBe(200)
    const mail = await renderMail('order_done', { orderId } as never, {
      db: api.db,
      config: api.config,
      to: 'buyer@example.com',
      now: new Date(),
    })
    const rub = (k: number) => `${(k / 100).toFixed(2).replace('.', ',')} ₽`
    expect(mail?.text.replace(/[\u00a0\u202f]/g, ' ')).toContain(
      `${rub(o!.totalToPay + fee)}, в том числе комиссия способа оплаты ${rub(fee)}`,
    )
  })
})
