import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { countries, payments, products, users } from '#api/db/schema'
import { SCENARIO_TYPES } from '#api/providers/types'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeUser } from './orders-fixtures'
import {
  checkoutPost,
  createPubgOrder,
  type Err,
  formFields,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  pay,
  pressOnCheckout,
  signedFields,
  soldCodes,
  status,
} from './payments-fixtures'

let api: TestApi
let product: { id: number; price: number }
beforeAll(async () => {
  api = await createTestApi()
  product = (await makePubgStock(api, { codes: 200, price: 9900 })).product
})
afterAll(() => api.close())

const SCENARIOS = SCENARIO_TYPES

async function paymentRow(id: string) {
  const [p] = await api.db.select().from(payments).where(eq(payments.id, id))
  return p!
}

describe('countries', () => {
  it('lists countries with id, flag and name', async () => {
    const r = await api.call<Array<{ id: number; flag: string; name: string }>>(
      'GET',
      '/api/payments/countries/',
    )
    expect(r.status).toBe(200)
    expect(r.body.length).toBeGreaterThanOrEqual(2)
    for (const c of r.body) expect(Object.keys(c).sort()).toEqual(['flag', 'id', 'name'])
  })

  it('answers the default country with currency, rate and method groups ordered, covering all 8 scenario types', async () => {
    const r = await api.call<{
      currency: string
      rate: string
      method_groups: Array<{ order: number; methods: Array<Record<string, unknown>> }>
    }>('GET', '/api/payments/countries/active/')
    expect(r.status).toBe(200)
    expect(r.body.currency).toBe('RUB')
    expect(r.body.rate).toBe('1.000000')
    const orders = r.body.method_groups.map((g) => g.order)
    expect(orders).toEqual([...orders].sort((a, b) => a - b))
    const m = r.body.method_groups[0]!.methods[0]!
    expect(Object.keys(m).sort()).toEqual(
      [
        'can_retrieve_payment_data',
        'currencies',
        'fee',
        'fix_fee',
        'icon',
        'is_active',
        'is_secondary',
        'min_amount',
        'name',
        'required_fields',
        'title',
        'uri',
      ].sort(),
    )
    expect(m.fee).toMatch(/^\d+\.\d{2}$/)
    expect(m.min_amount).toMatch(/^\d+\.\d{2}$/)
  })

  it('remembers the selection in an HttpOnly cookie that /active/ reads back; unknown id → 404', async () => {
    const all = await api.call<Array<{ id: number; name: string }>>('GET', '/api/payments/countries/')
    const kz = all.body.find((c) => c.name === 'Казахстан')!
    const sel = await api.call<{ id: number; currency: string; rate: string }>(
      'POST',
      '/api/payments/countries/active/select/',
      { body: { country_id: kz.id } },
    )
    expect(sel.status).toBe(200)
    expect(sel.body.currency).toBe('KZT')
    expect(sel.body.rate).toBe('5.600000')
    const cookie = sel.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^country_id=\d+/)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).toContain(`Max-Age=${365 * 24 * 3600}`)
    const back = await api.call<{ id: number }>('GET', '/api/payments/countries/active/', {
      headers: { cookie: cookie.split(';')[0]! },
    })
    expect(back.body.id).toBe(kz.id)
    expect((await api.call<{ id: number }>('GET', '/api/payments/countries/active/')).body.id).not.toBe(kz.id)

    const bad = await api.call<Err>('POST', '/api/payments/countries/active/select/', {
      body: { country_id: 99999 },
    })
    expect(bad.status).toBe(404)
    expect(bad.body.code).toBe('country_not_found')
    expect(
      (await api.call('POST', '/api/payments/countries/active/select/', { body: { country_id: 'x' } }))
        .status,
    ).toBe(400)
  })

  it('refuses a country id beyond the integer range with a 400, not a crash', async () => {
    const q = await api.call<Err>('GET', '/api/payments/countries/active/?country_id=2147483648')
    expect(q.status).toBe(400)
    const b = await api.call<Err>('POST', '/api/payments/countries/active/select/', {
      body: { country_id: 99999999999 },
    })
    expect(b.status).toBe(400)
  })

  it('stores a signed-in user’s choice on the account', async () => {
    const user = await makeUser(api)
    const [by] = await api.db.select().from(countries).where(eq(countries.currency, 'BYN'))
    await api.call('POST', '/api/payments/countries/active/select/', {
      body: { country_id: by!.id },
      token: user.token,
    })
    const [u] = await api.db.select().from(users).where(eq(users.id, user.id))
    expect(u!.countryId).toBe(by!.id)
    const r = await api.call<{ id: number }>('GET', '/api/payments/countries/active/', { token: user.token })
    expect(r.body.id).toBe(by!.id)
  })
})

describe('starting a payment', () => {
  it.each(SCENARIOS)(
    'sandbox %s: returns its scenario and is confirmable to done with codes delivered',
    async (type) => {
      const { method } = await makeSandboxMethod(api, type)
      const orderId = await createPubgOrder(api, product.id)
      const r = await pay(api, method.name, orderId)
      expect(r.status).toBe(200)
      expect(r.body.type).toBe(type)
      const checkout = `${api.config.publicUrl}/api/payments/sandbox/checkout/${r.body.payment_id}/`
      const expected: Record<string, Record<string, unknown>> = {
        external: { help_text: expect.stringContaining('тестов') },
        form: {
          method: 'POST',
          action: checkout,
          fields: expect.objectContaining({ token: expect.any(String) }),
        },
        invoice_qr: { qr_str: checkout },
        p2p: { card_number: expect.stringMatching(/^[\d ]{16,23}$/), card_name: expect.any(String) },
        p2p_redirect: { url: checkout },
        qr: { url: checkout },
        redirect: { url: checkout },
        wait_order_state: { order_id: orderId },
      }
      expect(r.body).toMatchObject({
        ...expected[type],
        sandbox_checkout_url: checkout,
        amount: '99.00',
        currency: 'RUB',
      })
      expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')

      const data = await api.call<Record<string, unknown>>('GET', `/api/orders/payment_data/${orderId}/`)
      expect(data.status).toBe(200)
      expect(data.body).toMatchObject({ type, payment_id: r.body.payment_id, payment_status: 'pending' })
      expect(data.body.url).toBe(type === 'form' ? checkout : checkout)

      const done = await pressOnCheckout(api, r.body.payment_id, 'confirm')
      expect(done.status).toBe(303)
      expect(done.location).toBe(`${api.config.publicUrl}/orders/${orderId}/pay`)
      const s = await status(api, orderId)
      expect(s.body).toMatchObject({
        id: orderId,
        status: 'done',
        payment_id: r.body.payment_id,
        payment_status: 'succeeded',
      })
      expect(s.body.is_payment_active).toBe(false)
    },
  )

  it('charges total + percent fee + fixed fee exactly, and converts by the country rate', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect', { fee: 300, fixFee: 1000 })
    const orderId = await createPubgOrder(api, product.id, { quantity: 3 })
    const r = await pay(api, method.name, orderId)
    // 297.00 + 3 % (8.91) + 10.00
    expect(r.body.amount).toBe('315.91')
    expect((await paymentRow(r.body.payment_id)).amount).toBe(31591)

    const [kz] = await api.db.select().from(countries).where(eq(countries.currency, 'KZT'))
    const kzMethod = await makeSandboxMethod(api, 'redirect', { fee: 250, currencies: ['KZT'] })
    await api.db.update(payments).set({ status: 'failed' }).where(eq(payments.id, r.body.payment_id))
    const k = await pay(api, kzMethod.method.name, orderId, { currency: 'KZT' })
    // 29700 kopecks × 5.6 = 166320 tiyn; + 2.5 % = 4158 → 170478
    expect(k.status).toBe(200)
    expect(k.body).toMatchObject({ amount: '1704.78', currency: 'KZT' })
    expect(kz).toMatchObject({ currency: 'KZT' })
  })

  it('refuses unknown and inactive methods, a foreign currency, amounts below the minimum', async () => {
    const orderId = await createPubgOrder(api, product.id)
    const unknown = await pay(api, 'no-such-method', orderId)
    expect([unknown.status, unknown.body.code]).toEqual([404, 'payment_method_not_found'])

    const off = await makeSandboxMethod(api, 'redirect', { isActive: false })
    const inactive = await pay(api, off.method.name, orderId)
    expect([inactive.status, inactive.body.code]).toEqual([400, 'payment_method_inactive'])

    const rub = await makeSandboxMethod(api, 'redirect')
    const cur = await pay(api, rub.method.name, orderId, { currency: 'USD' })
    expect([cur.status, cur.body.code]).toEqual([400, 'payment_currency_not_supported'])
    expect(cur.body.fields?.currency).toBeTruthy()

    const big = await makeSandboxMethod(api, 'redirect', { minAmount: 100000 })
    const min = await pay(api, big.method.name, orderId)
    expect([min.status, min.body.code]).toEqual([400, 'payment_amount_below_minimum'])
    expect(min.body.detail).toContain('1000.00')
  })

  it('checks the fields a method requires', async () => {
    const orderId = await createPubgOrder(api, product.id)
    const { method } = await makeSandboxMethod(api, 'external', { requiredFields: ['email', 'phone'] })
    const noPhone = await pay(api, method.name, orderId, { email: 'a@b.ru' })
    expect([noPhone.status, noPhone.body.code]).toEqual([400, 'payment_phone_required'])
    expect(noPhone.body.fields?.phone).toBeTruthy()
    const badPhone = await pay(api, method.name, orderId, { phone: '12', email: 'a@b.ru' })
    expect(badPhone.body.code).toBe('payment_phone_invalid')
    const badMail = await pay(api, method.name, orderId, { phone: '+7 900 000-00-00', email: 'nope' })
    expect(badMail.body.code).toBe('payment_email_invalid')
    const ok = await pay(api, method.name, orderId, { phone: '+7 900 000-00-00', email: 'a@b.ru' })
    expect(ok.status).toBe(200)
  })

  it('refuses malformed and unknown orders, and another user’s order', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect')
    expect((await pay(api, method.name, 'not-a-uuid')).status).toBe(400)
    expect((await pay(api, method.name, '00000000-0000-4000-8000-000000000000')).status).toBe(404)
    const owner = await makeUser(api)
    const other = await makeUser(api)
    const orderId = await createPubgOrder(api, product.id, { token: owner.token })
    const r = await api.call<Err>('POST', `/api/payments/${method.name}/`, {
      body: { order_id: orderId, currency: 'RUB' },
      token: other.token,
    })
    expect(r.status).toBe(404)
    expect((await status(api, orderId, other.token)).status).toBe(404)
    expect((await status(api, orderId, owner.token)).status).toBe(200)
  })

  it('never pays a paid order twice', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect')
    const orderId = await createPubgOrder(api, product.id)
    const first = await pay(api, method.name, orderId)
    const second = await pay(api, method.name, orderId)
    expect(second.status).toBe(200)
    // only the latest payment can be confirmed: the first one was superseded
    const stale = await pressOnCheckout(api, first.body.payment_id, 'confirm').catch(() => null)
    expect(stale?.status ?? 409).not.toBe(303)
    expect((await pressOnCheckout(api, second.body.payment_id, 'confirm')).status).toBe(303)
    const again = await pay(api, method.name, orderId)
    expect([again.status, again.body.code]).toEqual([409, 'order_already_paid'])
    // a confirm form replayed against the first payment changes nothing
    const p1 = await paymentRow(first.body.payment_id)
    const replay = await checkoutPost(api, p1.id, 'confirm', signedFields(api, p1))
    expect(replay.status).toBe(409)
    expect(
      await soldCodes(api, product.id).then((c) => c.filter((x) => x.orderProductId !== null).length),
    ).toBeGreaterThan(0)
  })

  it('refuses to pay a Standoff order until its avatar is uploaded (§5)', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect')
    const [so] = await api.db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.kind, 'StandoffProduct'), eq(products.isActive, true)))
      .limit(1)
    const created = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
      body: {
        products: [{ product_id: so!.id, quantity: 1 }],
        email: 'so@example.com',
        game_account_id: '51234567',
      },
    })
    expect(created.status).toBe(201)
    const refused = await pay(api, method.name, created.body.id)
    expect([refused.status, refused.body.code]).toEqual([400, 'avatar_required'])
    expect(refused.body.detail).toBe('Загрузите аватар игрового аккаунта')

    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    )
    const form = new FormData()
    form.append('game_avatar', new Blob([png], { type: 'image/png' }), 'avatar.png')
    const upload = await api.app.request(`/api/orders/standoff/avatar/${created.body.id}/`, {
      method: 'POST',
      body: form,
    })
    expect(upload.status).toBe(200)
    expect((await pay(api, method.name, created.body.id)).status).toBe(200)
  })

  it('pays an order at once when balance covers it, spending the balance', async () => {
    const user = await makeUser(api, { balance: 50000 })
    const { method } = await makeSandboxMethod(api, 'redirect')
    const orderId = await createPubgOrder(api, product.id, { token: user.token, quantity: 2 })
    const r = await api.call<Record<string, unknown>>('POST', `/api/payments/${method.name}/`, {
      body: { order_id: orderId, currency: 'RUB' },
      token: user.token,
    })
    expect(r.status).toBe(200)
    expect(r.body).toMatchObject({ type: 'wait_order_state', order_id: orderId, amount: '0.00' })
    expect((await status(api, orderId, user.token)).body.status).toBe('done')
    const [u] = await api.db.select().from(users).where(eq(users.id, user.id))
    expect(u!.balance).toBe(50000 - 19800)
  })
})

describe('sandbox checkout', () => {
  it('serves a Russian page with «Оплатить» and «Отклонить» forms, no scripts', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect')
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, method.name, orderId)
    const page = await api.app.request(`/api/payments/sandbox/checkout/${r.body.payment_id}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'")
    const html = await page.text()
    expect(html).toContain('lang="ru"')
    expect(html).toContain('Оплатить')
    expect(html).toContain('Отклонить')
    expect(html).toContain('99.00 RUB')
    expect(html).not.toContain('<script')
    expect(html).not.toContain('<style')
    expect(html).not.toMatch(/ style=/)
    const css = await api.app.request('/api/payments/sandbox/checkout.css')
    expect(css.status).toBe(200)
    expect(css.headers.get('content-type')).toContain('text/css')
    expect(
      (await api.app.request('/api/payments/sandbox/checkout/00000000-0000-4000-8000-000000000000/')).status,
    ).toBe(404)
  })

  it('decline: payment failed, order stays payable with a message, and can be paid again', async () => {
    const { method } = await makeSandboxMethod(api, 'qr')
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, method.name, orderId)
    const d = await pressOnCheckout(api, r.body.payment_id, 'decline')
    expect(d.status).toBe(303)
    const s = await status(api, orderId)
    expect(s.body).toMatchObject({
      status: 'waiting_for_payment',
      payment_status: 'failed',
      is_payment_active: true,
    })
    expect(s.body.payment_message).toMatch(/не прошла/)
    // a declined payment cannot be confirmed afterwards
    const p = await paymentRow(r.body.payment_id)
    expect((await checkoutPost(api, p.id, 'confirm', signedFields(api, p))).status).toBe(409)
    const again = await pay(api, method.name, orderId)
    expect((await pressOnCheckout(api, again.body.payment_id, 'confirm')).status).toBe(303)
    expect((await status(api, orderId)).body.status).toBe('done')
  })

  it('refuses a bad signature (403) and a wrong amount on the page (400); a replayed confirm is processed once', async () => {
    const { method } = await makeSandboxMethod(api, 'redirect')
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, method.name, orderId)
    const p = await paymentRow(r.body.payment_id)
    const good = signedFields(api, p)

    const forged = await checkoutPost(api, p.id, 'confirm', { ...good, token: 'a'.repeat(64) })
    expect(forged.status).toBe(403)
    expect(forged.text).toContain('Подпись')
    expect((await checkoutPost(api, p.id, 'confirm', { amount: good.amount, currency: 'RUB' })).status).toBe(
      403,
    )
    expect((await checkoutPost(api, p.id, 'decline', { ...good, token: 'x' })).status).toBe(403)
    // signed, but for another amount than the payment's: the page refuses it (400)
    const cheap = signedFields(api, { ...p, amount: 100 })
    expect((await checkoutPost(api, p.id, '', cheap)).status).toBe(400)
    expect((await status(api, orderId)).body.status).toBe('waiting_for_payment')

    expect((await checkoutPost(api, p.id, 'confirm', good)).status).toBe(303)
    expect((await checkoutPost(api, p.id, 'confirm', good)).status).toBe(303)
    const [o] = [await orderRow(api, orderId)]
    expect(o.status).toBe('done')
    const codes = (await soldCodes(api, product.id)).filter((c) => c.soldAt !== null)
    const mine = await api.db.query.orderProducts.findMany({ where: (op, { eq }) => eq(op.orderId, orderId) })
    expect(codes.filter((c) => c.orderProductId === mine[0]!.id)).toHaveLength(1)
  })

  it('the form scenario posts its signed fields to the checkout page; tampered fields are refused', async () => {
    const { method } = await makeSandboxMethod(api, 'form')
    const orderId = await createPubgOrder(api, product.id)
    const r = await pay(api, method.name, orderId)
    const fields = r.body.fields as unknown as Record<string, string>
    const page = await checkoutPost(api, r.body.payment_id, '', fields)
    expect(page.status).toBe(200)
    expect(formFields(page.text, 'confirm').token).toBe(fields.token)
    expect((await checkoutPost(api, r.body.payment_id, '', { ...fields, amount: '1' })).status).toBe(403)
  })

  it('refuses (and gives back) a payment started for a total that has since changed', async () => {
    const own = await makePubgStock(api, { codes: 3, price: 10000 })
    const { method } = await makeSandboxMethod(api, 'redirect')
    const orderId = await createPubgOrder(api, own.product.id)
    const r = await pay(api, method.name, orderId)
    expect(r.body.amount).toBe('100.00')
    const data = await api.call<Record<string, unknown>>('GET', `/api/orders/payment_data/${orderId}/`)
    expect(Object.keys(data.body).some((k) => k.startsWith('_'))).toBe(false)
    // the price goes up; reading the order recalculates it
    await api.db.update(products).set({ price: 12000 }).where(eq(products.id, own.product.id))
    expect((await api.call<{ total: string }>('GET', `/api/orders/${orderId}/`)).body.total).toBe('120.00')
    // the money taken for the old total cannot pay the order: refused and given back (decision 037)
    const stale = await pressOnCheckout(api, r.body.payment_id, 'confirm')
    expect(stale.status).toBe(303)
    expect((await orderRow(api, orderId)).status).toBe('waiting_for_payment')
    expect((await status(api, orderId)).body).toMatchObject({
      payment_status: 'failed',
      returned_payments: [{ amount: '100.00', currency: 'RUB', method: 'provider' }],
    })
    const fresh = await pay(api, method.name, orderId)
    expect(fresh.body.amount).toBe('120.00')
    expect((await pressOnCheckout(api, fresh.body.payment_id, 'confirm')).status).toBe(303)
    expect((await status(api, orderId)).body.status).toBe('done')
  })

  it('payment_data is 404 before any payment', async () => {
    const orderId = await createPubgOrder(api, product.id)
    const r = await api.call<Err>('GET', `/api/orders/payment_data/${orderId}/`)
    expect([r.status, r.body.code]).toEqual([404, 'payment_not_found'])
    expect((await status(api, orderId)).body).toMatchObject({
      status: 'created',
      payment_id: null,
      payment_status: null,
    })
  })
})
