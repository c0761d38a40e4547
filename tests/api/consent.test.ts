// Consent to personal data processing (issue 33, 152-ФЗ): the storefront sends the optional
// `personal_data_consent`; each new order records it (email, time, address, user agent). A client of
// the spec that does not send the field still creates orders, recorded as "no consent given".
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { articleVersions, consents, gifts, users } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makePubgStock } from './payments-fixtures'

let api: TestApi
let productId: number
beforeAll(async () => {
  api = await createTestApi()
  productId = (await makePubgStock(api, { codes: 5 })).product.id
})
afterAll(async () => {
  await api?.close()
})

const order = (extra: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api.call<{ id: string; detail?: string }>('POST', '/api/orders/pubg/', {
    body: { products: [{ product_id: productId, quantity: 1 }], email: 'guest@example.com', ...extra },
    headers,
  })

it('a spec client without the field still creates the order, recorded as no consent given', async () => {
  const r = await order({})
  expect(r.status).toBe(201)
  const [row] = await api.db.select().from(consents).where(eq(consents.orderId, r.body.id))
  expect(row).toMatchObject({ given: false, email: 'guest@example.com', context: 'order' })
})

it('the storefront’s consent is recorded with the email, time, address and user agent; once per order', async () => {
  const headers = { 'user-agent': 'TestBrowser/1.0', 'idempotency-key': 'consent-key-1' }
  const r = await order({ personal_data_consent: true }, headers)
  expect(r.status).toBe(201)
  expect((await order({ personal_data_consent: true }, headers)).status).toBe(200)
  const rows = await api.db.select().from(consents).where(eq(consents.orderId, r.body.id))
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ given: true, email: 'guest@example.com', userAgent: 'TestBrowser/1.0' })
  expect(rows[0]?.ip).toBeTruthy()
  expect(rows[0]?.created).toBeInstanceOf(Date)
})

it('a consent that is not a boolean is a Russian 400', async () => {
  const r = await order({ personal_data_consent: 'yes' })
  expect(r.status).toBe(400)
  expect(r.body.detail).toMatch(/[а-я]/)
})

const newEmail = () => `c${Math.random().toString(16).slice(2, 10)}@example.com`
const signUp = (email: string, extra: Record<string, unknown> = {}) =>
  api.call<{ detail?: string; fields?: Record<string, string[]>; is_signed_up?: boolean }>(
    'POST',
    '/api/auth/jwt/create/',
    {
      body: { email, password: 'Kx9-very-long-pass', ...extra },
      headers: { 'user-agent': 'SignUpBrowser/2' },
    },
  )

it('a sign-up with the box left unticked makes no account; ticked, it is recorded; a spec client still signs up', async () => {
  const refused = newEmail()
  const r = await signUp(refused, { personal_data_consent: false })
  expect(r.status).toBe(400)
  expect(r.body.fields?.personal_data_consent?.[0]).toBe('Нужно согласие на обработку персональных данных')
  expect(await api.db.select().from(users).where(eq(users.email, refused))).toHaveLength(0)

  const given = newEmail()
  const ok = await signUp(given, { personal_data_consent: true })
  expect(ok.status).toBe(200)
  expect(ok.body.is_signed_up).toBe(true)
  const [row] = await api.db.select().from(consents).where(eq(consents.email, given))
  expect(row).toMatchObject({ context: 'sign_up', given: true, userAgent: 'SignUpBrowser/2' })
  expect(row?.userId).toBeTypeOf('number')

  // signing in again (the account exists) with the box unticked is no sign-up: it goes on
  expect((await signUp(given, { personal_data_consent: false })).status).toBe(200)
  expect(await api.db.select().from(consents).where(eq(consents.email, given))).toHaveLength(1)

  const spec = newEmail()
  expect((await signUp(spec)).status).toBe(200)
  const [none] = await api.db.select().from(consents).where(eq(consents.email, spec))
  expect(none).toMatchObject({ context: 'sign_up', given: false, documentVersion: null })
})

it('a gift purchase records the consent; without the field it is recorded as not given', async () => {
  const [gift] = await api.db.select().from(gifts).where(eq(gifts.isActive, true)).limit(1)
  const email = newEmail()
  const r = await api.call<{ id: string }>('POST', '/api/orders/rokky/', {
    body: { gift: gift!.id, email, personal_data_consent: true },
  })
  expect(r.status).toBe(201)
  const [row] = await api.db.select().from(consents).where(eq(consents.orderId, r.body.id))
  expect(row).toMatchObject({ context: 'gift', given: true, email })
  const spec = await api.call<{ id: string }>('POST', '/api/orders/rokky/', {
    body: { gift: gift!.id, email },
  })
  expect(spec.status).toBe(201)
  const [none] = await api.db.select().from(consents).where(eq(consents.orderId, spec.body.id))
  expect(none).toMatchObject({ context: 'gift', given: false })
})

it('each consent points to the version of the consent document shown; an edit keeps the old text', async () => {
  const owner = await makeStaff(api, 'owner')
  const put = (text: string) =>
    api.call('PUT', '/api/admin/articles/consent/', {
      token: owner.token,
      body: { header: 'Согласие на обработку персональных данных', text },
    })
  expect((await put('<p>Первая редакция</p>')).status).toBe(200)
  const first = await order({ personal_data_consent: true, email: newEmail() })
  expect((await put('<p>Вторая редакция</p>')).status).toBe(200)
  const second = await order({ personal_data_consent: true, email: newEmail() })
  const versionOf = async (id: string) =>
    (await api.db.select().from(consents).where(eq(consents.orderId, id)))[0]?.documentVersion
  const v1 = await versionOf(first.body.id)
  const v2 = await versionOf(second.body.id)
  expect(v1).toBeTypeOf('number')
  expect(v2).toBe((v1 as number) + 1)
  const [old] = await api.db
    .select()
    .from(articleVersions)
    .where(and(eq(articleVersions.slug, 'consent'), eq(articleVersions.version, v1 as number)))
  expect(old?.text).toBe('<p>Первая редакция</p>')
  const shown = await api.call<{ text: string }>('GET', '/api/articles/consent/')
  expect(shown.body.text).toBe('<p>Вторая редакция</p>')
})
