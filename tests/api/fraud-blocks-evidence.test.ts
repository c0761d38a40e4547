// Fraud limits, the rest of issue 34: the owner's block lists through the API (email, domain,
// network, card; audited; checked at order creation, payment start and settlement; everything of
// a held order in one action), the code-view log with its dispute export, the review metrics by
// rule, and the card rules fed by what YooKassa (the local fake) says about the card.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, codeViews, orderReviews, orders, paymentMethods } from '#api/db/schema'
import { signLookupToken } from '#api/services/mail/lookup-token'
import { ensureYookassaMethods } from '#api/services/payments/yookassa-setup'
import { reviewCountsByRule } from '#api/services/risk/queue'
import { RISK_RULES } from '#api/services/risk/settings'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'
import { type Err, hex, makePubgStock, makeSandboxMethod, pressOnCheckout } from './payments-fixtures'

let api: TestApi
let yk: FakeYookassa
let method: string
let cheap: number
let dear: number
let owner: Awaited<ReturnType<typeof makeUser>>
let support: Awaited<ReturnType<typeof makeUser>>
let ip = 0
const from = () => ({ 'x-shop-client-ip': `10.35.${Math.floor(++ip / 250)}.${ip % 250}` })

beforeAll(async () => {
  yk = await startFakeYookassa()
  api = await createTestApi({
    env: { ...yk.env, YOOKASSA_NOTIFY_FROM: '127.0.0.1/32, ::1', RISK_RULES: RISK_RULES.join(',') },
  })
  method = (await makeSandboxMethod(api, 'redirect')).method.name
  cheap = (await makePubgStock(api, { codes: 60, price: 9900 })).product.id
  dear = (await makePubgStock(api, { codes: 20, price: 350000 })).product.id
  owner = await makeStaff(api, 'owner')
  support = await makeStaff(api, 'support')
  await ensureYookassaMethods(api.db)
  await api.db.update(paymentMethods).set({ isActive: true }).where(eq(paymentMethods.name, 'yookassa_card'))
})
afterAll(async () => {
  await api?.close()
  await yk?.close()
})

const order = (productId: number, email: string, headers: Record<string, string>, token?: string) =>
  api.call<{ id: string } & Err>('POST', '/api/orders/pubg/', {
    body: { products: [{ product_id: productId, quantity: 1 }], ...(token ? {} : { email }) },
    headers,
    ...(token ? { token } : {}),
  })

/** Orders and pays with the sandbox from `headers`' address; the order id. */
async function buy(productId: number, email: string, headers = from(), token?: string) {
  const o = await order(productId, email, headers, token)
  expect(o.status, JSON.stringify(o.body)).toBe(201)
  const p = await api.call<{ payment_id: string }>('POST', `/api/payments/${method}/`, {
    body: { order_id: o.body.id, currency: 'RUB', email: null, phone: null },
    headers,
    ...(token ? { token } : {}),
  })
  expect(p.status, JSON.stringify(p.body)).toBe(200)
  expect((await pressOnCheckout(api, p.body.payment_id, 'confirm')).status).toBe(303)
  return o.body.id
}

/** Orders and pays by card at YooKassa; the fake reports `card`. The order id. */
async function buyByCard(
  productId: number,
  email: string,
  card: { first6: string; last4: string; issuer_country?: string },
) {
  const headers = from()
  const o = await order(productId, email, headers)
  expect(o.status, JSON.stringify(o.body)).toBe(201)
  const p = await api.call<{ payment_id: string } & Err>('POST', '/api/payments/yookassa_card/', {
    body: { order_id: o.body.id, currency: 'RUB', email: null, phone: null },
    headers,
  })
  expect(p.status, JSON.stringify(p.body)).toBe(200)
  const remote = yk.paymentOf(p.body.payment_id)!
  const r = await api.app.request('/api/payments/yookassa/notify/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shop-client-ip': '127.0.0.1' },
    body: JSON.stringify(yk.notification('payment.succeeded', yk.succeed(remote.id, undefined, card))),
  })
  expect(r.status).toBe(200)
  return o.body.id
}

const rulesOf = async (id: string) =>
  (await api.db.select().from(orderReviews).where(eq(orderReviews.orderId, id)))[0]?.rules ?? null

const addBlock = (kind: string, value: string, token = owner.token) =>
  api.call<{ entry: { id: number; kind: string; value: string }; added: boolean } & Err>(
    'POST',
    '/api/admin/blocks/',
    { token, body: { kind, value } },
  )

describe('block lists', () => {
  it('the owner blocks an email, a domain, a network and a card (audited); bad values get Russian errors; support and guests are refused', async () => {
    const email = `blocked-${hex()}@example.com`
    const e = await addBlock('email', `  ${email.toUpperCase()} `)
    expect(e.status, JSON.stringify(e.body)).toBe(200)
    expect(e.body).toMatchObject({ added: true, entry: { kind: 'email', value: email } })
    // a repeat adds nothing
    expect((await addBlock('email', email)).body.added).toBe(false)
    expect((await addBlock('domain', '@Spam-Shop.example')).body.entry.value).toBe('spam-shop.example')
    expect((await addBlock('network', '10.99.0.0/16')).status).toBe(200)
    const card = await addBlock('card', '411111******1111')
    expect(card.body.entry.value).toMatch(/^[0-9a-f]{64}$/)
    expect(card.body.entry.value).not.toContain('1111')

    for (const [kind, value] of [
      ['email', 'not-an-email'],
      ['domain', 'x'],
      ['network', '10.0.0.0/99'],
      ['card', '1234'],
    ]) {
      const bad = await addBlock(kind!, value!)
      expect(bad.status).toBe(400)
      expect(bad.body.detail).toMatch(/[а-я]/)
    }
    expect((await addBlock('email', email, support.token)).status).toBe(403)
    expect((await api.call('GET', '/api/admin/blocks/')).status).toBe(404)

    const list = await api.call<{ results: Array<{ id: number; kind: string; value: string }> }>(
      'GET',
      '/api/admin/blocks/',
      { token: owner.token },
    )
    expect(list.body.results.map((b) => b.kind).sort()).toEqual(['card', 'domain', 'email', 'network'])

    // refused at order creation with the neutral message, whatever the trait
    for (const [mail, headers] of [
      [email, from()],
      [`someone-${hex()}@spam-shop.example`, from()],
      [`fine-${hex()}@example.com`, { 'x-shop-client-ip': '10.99.3.4' }],
    ] as const) {
      const r = await order(cheap, mail, headers)
      expect(r.status).toBe(403)
      expect(r.body.code).toBe('buyer_blocked')
      expect(r.body.detail).not.toMatch(/блок/i)
    }

    // unblock: the email may order again; audited both ways
    const id = list.body.results.find((b) => b.kind === 'email')!.id
    expect((await api.call('DELETE', `/api/admin/blocks/${id}/`, { token: owner.token })).status).toBe(204)
    expect((await api.call<Err>('DELETE', `/api/admin/blocks/${id}/`, { token: owner.token })).status).toBe(
      404,
    )
    expect((await order(cheap, email, from())).status).toBe(201)
    const audits = await api.db.select().from(auditLog).where(eq(auditLog.entity, 'block'))
    expect(audits.filter((a) => a.action === 'block.add')).toHaveLength(4)
    expect(audits.filter((a) => a.action === 'block.remove')).toHaveLength(1)
  })

  it('a payment that succeeds for a blocked card is held; «block everything» of a held order blocks its email, address and card', async () => {
    // the card blocked above (411111…1111) pays for a cheap order of a known-good buyer
    const email = `card-${hex()}@example.com`
    const id = await buyByCard(cheap, email, { first6: '411111', last4: '1111', issuer_country: 'RU' })
    expect(await rulesOf(id)).toContain('block_list')

    // a first-time buyer over the threshold: held; the owner blocks all of it at once
    const buyer = `dear-${hex()}@example.com`
    const held = await buyByCard(dear, buyer, { first6: '555555', last4: '4444', issuer_country: 'RU' })
    expect(await rulesOf(held)).toEqual(['first_order_over'])
    expect(
      (await api.call('POST', `/api/admin/orders/${held}/block/`, { token: support.token })).status,
    ).toBe(403)
    const b = await api.call<{
      results: Array<{ entry: { kind: string; value: string; note: string }; added: boolean }>
    }>('POST', `/api/admin/orders/${held}/block/`, { token: owner.token })
    expect(b.status, JSON.stringify(b.body)).toBe(200)
    expect(b.body.results.map((r) => r.entry.kind).sort()).toEqual(['card', 'email', 'network'])
    expect(b.body.results.every((r) => r.added)).toBe(true)
    // each entry names the order as people read it (decision 135), not a fragment of its UUID
    const [heldRow] = await api.db.select().from(orders).where(eq(orders.id, held))
    expect(b.body.results.map((r) => r.entry.note)).toEqual(Array(3).fill(`заказ № ${heldRow!.number}`))
    // a replay adds nothing
    const again = await api.call<{ results: Array<{ added: boolean }> }>(
      'POST',
      `/api/admin/orders/${held}/block/`,
      { token: owner.token },
    )
    expect(again.body.results.some((r) => r.added)).toBe(false)
    expect((await order(cheap, buyer, from())).status).toBe(403)
    // the same card under another email and address: held at settlement
    const other = await buyByCard(cheap, `other-${hex()}@example.com`, { first6: '555555', last4: '4444' })
    expect(await rulesOf(other)).toContain('block_list')
  })
})

describe('card rules through YooKassa', () => {
  it('one card for more than 2 emails in a day, and a card issued in another country than the payment’s, hold the order', async () => {
    const card = {
      first6: '220220',
      last4: `${1000 + Math.floor(Math.random() * 8999)}`,
      issuer_country: 'RU',
    }
    const a = await buyByCard(cheap, `a-${hex()}@example.com`, card)
    const b = await buyByCard(cheap, `b-${hex()}@example.com`, card)
    expect(await rulesOf(a)).toBeNull()
    expect(await rulesOf(b)).toBeNull()
    const c = await buyByCard(cheap, `c-${hex()}@example.com`, card)
    expect(await rulesOf(c)).toEqual(['card_many_emails'])

    const foreign = await buyByCard(cheap, `kz-${hex()}@example.com`, {
      first6: '440043',
      last4: '0001',
      issuer_country: 'KZ',
    })
    expect(await rulesOf(foreign)).toEqual(['card_country'])
    // the same country, or a provider that says nothing about it: not held
    const home = await buyByCard(cheap, `ru-${hex()}@example.com`, { first6: '440043', last4: '0002' })
    expect(await rulesOf(home)).toBeNull()
  })
})

describe('code views and the dispute export', () => {
  it('each view of a delivered code is logged once a minute per browser (order, history, lookup); staff read it and export it as text', async () => {
    const buyer = await makeUser(api)
    const headers = { ...from(), 'user-agent': 'Mozilla/5.0 (test) dispute-check' }
    const id = await buy(cheap, buyer.email, headers, buyer.token)
    const views = () => api.db.select().from(codeViews).where(eq(codeViews.orderId, id))
    // the answers before the codes were seen (the order is done: codes in it)
    const get = () => api.call('GET', `/api/orders/${id}/`, { token: buyer.token, headers })
    expect((await get()).status).toBe(200)
    // seen again within the minute: answered, not logged again
    expect((await get()).status).toBe(200)
    expect(await views()).toHaveLength(1)
    const [first] = await views()
    expect(first).toMatchObject({
      place: 'order',
      clientAddress: headers['x-shop-client-ip'],
      userAgent: 'Mozilla/5.0 (test) dispute-check',
      userId: buyer.id,
    })
    await api.call('GET', '/api/orders/', { token: buyer.token, headers })
    const token = await signLookupToken(api.config.jwtSecret, buyer.email)
    await api.call('GET', `/api/orders/lookup/${token}/`, { headers: { 'x-shop-client-ip': '10.77.0.1' } })
    const places = (await views()).map((v) => v.place).sort()
    expect(places).toEqual(['history', 'lookup', 'order'])
    expect((await views()).find((v) => v.place === 'lookup')).toMatchObject({ userId: null, userAgent: null })

    // a held order shows no code, so nothing is logged for it
    const held = await buy(dear, `held-${hex()}@example.com`)
    await api.call('GET', `/api/orders/${held}/`)
    expect(await api.db.select().from(codeViews).where(eq(codeViews.orderId, held))).toHaveLength(0)

    // staff read the log (audited); guests do not
    expect((await api.call('GET', `/api/admin/orders/${id}/code_views/`)).status).toBe(404)
    const log = await api.call<{ results: Array<{ place: string; client_address: string }> }>(
      'GET',
      `/api/admin/orders/${id}/code_views/`,
      { token: support.token },
    )
    expect(log.status).toBe(200)
    expect(log.body.results).toHaveLength(3)
    const res = await api.app.request(`/api/admin/orders/${id}/dispute/`, {
      headers: { authorization: `Bearer ${support.token}` },
    })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(res.headers.get('content-disposition')).toMatch(/attachment; filename="dispute-/)
    const text = await res.text()
    expect(text).toContain(`Заказ ${id}`)
    expect(text).toContain('Просмотры кодов (3)')
    expect(text).toContain('Mozilla/5.0 (test) dispute-check')
    expect(text).toContain(headers['x-shop-client-ip'])
    expect(text).toContain('история заказов')
    const audited = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'order.dispute_export')))
    expect(audited).toHaveLength(1)
    const missing = await api.call<Err>('GET', `/api/admin/orders/${crypto.randomUUID()}/dispute/`, {
      token: support.token,
    })
    expect(missing.status).toBe(404)
  })
})

describe('review metrics', () => {
  it('counts held orders by rule and the decisions', async () => {
    const before = await reviewCountsByRule(api.db)
    const n = (rows: typeof before, rule: string, status: string) =>
      rows.find((r) => r.rule === rule && r.status === status)?.n ?? 0
    const one = await buy(dear, `m1-${hex()}@example.com`)
    const two = await buy(dear, `m2-${hex()}@example.com`)
    await buy(dear, `m3-${hex()}@example.com`)
    expect(
      (await api.call('POST', `/api/admin/orders/${one}/approve/`, { token: support.token })).status,
    ).toBe(200)
    expect(
      (
        await api.call('POST', `/api/admin/orders/${two}/reject/`, {
          token: support.token,
          body: { reason: 'stolen card' },
        })
      ).status,
    ).toBe(200)
    const after = await reviewCountsByRule(api.db)
    expect(n(after, 'first_order_over', 'held') - n(before, 'first_order_over', 'held')).toBe(1)
    expect(n(after, 'first_order_over', 'approved') - n(before, 'first_order_over', 'approved')).toBe(1)
    expect(n(after, 'first_order_over', 'rejected') - n(before, 'first_order_over', 'rejected')).toBe(1)
  })
})

describe('«Антифрод» settings', () => {
  it('a value out of range or of the wrong type gets a Russian message by its field', async () => {
    const now = await api.call<Record<string, unknown>>('GET', '/api/admin/antifraud/', {
      token: owner.token,
    })
    const r = await api.call<Err & { fields: Record<string, string[]> }>('PUT', '/api/admin/antifraud/', {
      token: owner.token,
      body: { ...now.body, order_per_address: 0, first_order_over: 'abc', window_minutes: 5000 },
    })
    expect(r.status).toBe(400)
    expect(r.body.fields.order_per_address?.[0]).toBe('не меньше 1')
    expect(r.body.fields.first_order_over?.[0]).toMatch(/^введите сумму/)
    expect(r.body.fields.window_minutes?.[0]).toMatch(/не больше 1440/)
  })
})
