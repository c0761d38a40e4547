// «Чеки» for an accountant (issue 47): GET /api/admin/receipts/ lists every receipt in full (seller,
// lines with VAT, totals, ФН/ФД/ФП, the operator's link) filtered by status, kind and the shop's days,
// found by the order's short number or id, paged; owner only; bad filters answer 400 with a code.
// The order card (GET /api/admin/orders/{id}/) carries the same receipts.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, payments, receipts } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'
import {
  checkoutPost,
  createPubgOrder,
  type Err,
  makePubgStock,
  makeSandboxMethod,
  type PayAnswer,
  pay,
  signedFields,
} from './payments-fixtures'

type Receipt = {
  id: number
  order_id: string
  order_number: number | null
  kind: string
  operation: string
  payment_method: string
  status: string
  total: string
  seller: { name: string; inn: string; tax_system: string }
  items: Array<{
    name: string
    quantity: number
    price: string
    sum: string
    vat: string
    vat_sum: string | null
    payment_object: string
    payment_method: string
  }>
  vat_totals: Array<{ vat: string; sum: string; vat_sum: string | null }>
  fiscal: { fn_number: string; fiscal_document_number: string; fiscal_document_attribute: string } | null
  ofd_url: string | null
  reason: string | null
  registered_at: string | null
}
type Page = { count: number; next: string | null; previous: string | null; results: Receipt[] }

let api: TestApi
let owner: Awaited<ReturnType<typeof makeUser>>
let support: Awaited<ReturnType<typeof makeUser>>
let shopper: Awaited<ReturnType<typeof makeUser>>
let paidOrder: { id: string; number: number }
let oldOrder: { id: string; number: number }

const list = (query: string, token = owner.token) =>
  api.call<Page & Err>('GET', `/api/admin/receipts/${query}`, { token })

beforeAll(async () => {
  api = await createTestApi()
  owner = await makeStaff(api, 'owner')
  support = await makeStaff(api, 'support')
  shopper = await makeUser(api)
  const seller = await api.call('PUT', '/api/admin/seller/', {
    token: owner.token,
    body: {
      legal_form: 'ООО',
      company_name: 'Чековый магазин',
      inn: '7707083893',
      ogrn: '1027700132195',
      address: 'Москва, ул. Тестовая, 1',
      email: 'shop@example.com',
      phone: '',
      extra: '',
      tax_system: 'osn',
      receipts_enabled: true,
      receipt_transport: 'sandbox',
      item_rules: {
        codes: { vat: 'vat20', payment_object: 'commodity' },
        topup: { vat: 'none', payment_object: 'service' },
        gift: { vat: 'none', payment_object: 'commodity' },
        steam_topup: { vat: 'none', payment_object: 'payment' },
        commission: { vat: 'none', payment_object: 'service' },
      },
    },
  })
  expect(seller.status, JSON.stringify(seller.body)).toBe(200)

  // a real payment: the sandbox registers its receipt at once with made-up ФН/ФД/ФП
  const { product } = await makePubgStock(api, { codes: 5, price: 110160 })
  const method = (await makeSandboxMethod(api, 'redirect')).method.name
  const id = await createPubgOrder(api, product.id)
  const r = await pay(api, method, id)
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  const [p] = await api.db
    .select()
    .from(payments)
    .where(eq(payments.id, (r.body as PayAnswer).payment_id))
  expect((await checkoutPost(api, p!.id, 'confirm', signedFields(api, p!))).status).toBe(303)
  const [o] = await api.db.select({ number: orders.number }).from(orders).where(eq(orders.id, id))
  paidOrder = { id, number: o!.number }

  // an older order with the other kinds of receipt, written as the outbox writes them, in 2020
  const oldId = await createPubgOrder(api, product.id)
  const [old] = await api.db.select({ number: orders.number }).from(orders).where(eq(orders.id, oldId))
  oldOrder = { id: oldId, number: old!.number }
  const base = {
    orderId: oldId,
    transport: 'atol',
    email: 'buyer@example.com',
    total: 50000,
    items: [
      {
        name: 'PUBG: 600 UC',
        kind: 'codes',
        quantity: 2,
        price: 25000,
        sum: 50000,
        vat: 'none',
        payment_object: 'commodity',
      },
    ],
    seller: {
      name: 'Чековый магазин',
      inn: '7707083893',
      tax_system: 'osn',
      email: 'shop@example.com',
      payment_address: 'https://shop.example',
    },
  }
  const fiscal = {
    fn_number: '7380440700123456',
    fiscal_document_number: '4321',
    fiscal_document_attribute: '2468013579',
    receipt_datetime: '10.03.2020 12:00:00',
  }
  await api.db.insert(receipts).values([
    {
      ...base,
      kind: 'sell',
      paymentMethod: 'full_prepayment',
      status: 'registered',
      externalId: `sell:old-${oldId}`,
      fiscal,
      created: new Date('2020-03-10T09:00:00Z'),
      registeredAt: new Date('2020-03-10T09:00:05Z'),
    },
    {
      ...base,
      kind: 'sell',
      paymentMethod: 'full_payment',
      status: 'registered',
      externalId: `settle:old-${oldId}`,
      fiscal: {
        ...fiscal,
        fiscal_document_number: '4322',
        ofd_receipt_url: 'https://ofd.example/check/4322',
      },
      created: new Date('2020-03-11T09:00:00Z'),
      registeredAt: new Date('2020-03-11T09:00:05Z'),
    },
    {
      ...base,
      kind: 'sell_refund',
      paymentMethod: 'full_payment',
      status: 'failed',
      externalId: `sell_refund:old-${oldId}`,
      lastError: 'ИНН не совпадает с ККТ',
      // 23:30 on the 12th in UTC is the 13th in Moscow: the shop's days decide
      created: new Date('2020-03-12T23:30:00Z'),
    },
    {
      // written before the advance rule (decision 059): no payment method stored, a «полный расчёт»
      ...base,
      kind: 'sell',
      paymentMethod: null,
      status: 'registered',
      externalId: `sell:legacy-${oldId}`,
      created: new Date('2020-02-10T09:00:00Z'),
    },
  ])
}, 240_000)
afterAll(async () => {
  await api?.close()
})

describe('GET /api/admin/receipts/', () => {
  it('finds a paid order’s receipt by its short number, in full', async () => {
    for (const q of [String(paidOrder.number), `№ ${paidOrder.number}`, paidOrder.id.toUpperCase()]) {
      const r = await list(`?q=${encodeURIComponent(q)}`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      expect(r.body.count, q).toBe(1)
    }
    const { body } = await list(`?q=${paidOrder.number}`)
    const receipt = body.results[0]!
    expect(receipt).toMatchObject({
      order_id: paidOrder.id,
      order_number: paidOrder.number,
      kind: 'payment',
      operation: 'sell',
      payment_method: 'full_payment',
      status: 'registered',
      total: '1101.60',
      seller: { name: 'ООО Чековый магазин', inn: '7707083893', tax_system: 'osn' },
      ofd_url: null,
      reason: null,
    })
    expect(receipt.items).toEqual([
      expect.objectContaining({
        quantity: 1,
        price: '1101.60',
        sum: '1101.60',
        vat: 'vat20',
        vat_sum: '183.60',
        payment_object: 'commodity',
        payment_method: 'full_payment',
      }),
    ])
    expect(receipt.vat_totals).toEqual([{ vat: 'vat20', sum: '1101.60', vat_sum: '183.60' }])
    expect(receipt.fiscal?.fn_number).toBe('9999999999999999')
    expect(receipt.fiscal?.fiscal_document_number).toMatch(/^\d+$/)
    expect(receipt.fiscal?.fiscal_document_attribute).toMatch(/^\d+$/)
    expect(receipt.registered_at).not.toBeNull()
  })

  it('filters by kind, status and the shop’s days', async () => {
    const period = '&from=2020-03-01&to=2020-03-31'
    const kinds = async (query: string) => {
      const r = await list(`?${query}${period}`)
      expect(r.status, JSON.stringify(r.body)).toBe(200)
      return r.body.results.map((x) => x.kind)
    }
    expect(await kinds('')).toEqual(['refund', 'settlement', 'prepayment'])
    expect(await kinds('kind=prepayment')).toEqual(['prepayment'])
    expect(await kinds('kind=settlement')).toEqual(['settlement'])
    expect(await kinds('kind=refund')).toEqual(['refund'])
    expect(await kinds('kind=payment')).toEqual([])
    // the legacy row is a payment, in the list as under its filter
    expect(
      (await list('?kind=payment&from=2020-02-01&to=2020-02-29')).body.results.map((x) => x.kind),
    ).toEqual(['payment'])
    expect(await kinds('status=failed')).toEqual(['refund'])
    expect(await kinds('status=registered&kind=settlement')).toEqual(['settlement'])
    // the refund was written at 02:30 Moscow time on the 13th
    expect((await list('?from=2020-03-13&to=2020-03-13')).body.results.map((x) => x.kind)).toEqual(['refund'])
    expect((await list('?from=2020-03-11&to=2020-03-12')).body.results.map((x) => x.kind)).toEqual([
      'settlement',
    ])
    // the paid order is today's, not 2020's
    expect((await list(`?kind=payment${period}`)).body.count).toBe(0)
    expect((await list('?kind=payment&from=2021-01-01')).body.results.map((x) => x.order_id)).toContain(
      paidOrder.id,
    )

    const settlement = (await list(`?kind=settlement&q=${oldOrder.number}`)).body.results[0]!
    expect(settlement.ofd_url).toBe('https://ofd.example/check/4322')
    expect(settlement.fiscal?.fiscal_document_number).toBe('4322')
    const refund = (await list(`?kind=refund&q=${oldOrder.number}`)).body.results[0]!
    expect(refund).toMatchObject({
      status: 'failed',
      reason: 'ИНН не совпадает с ККТ',
      fiscal: null,
      registered_at: null,
    })
  })

  it('pages with a size cap', async () => {
    const first = await list('?from=2020-03-01&to=2020-03-31&page_size=2')
    expect(first.body.count).toBe(3)
    expect(first.body.results).toHaveLength(2)
    expect(first.body.previous).toBeNull()
    expect(first.body.next).toContain('page=2')
    const second = await list(first.body.next!.replace('/api/admin/receipts/', ''))
    expect(second.status).toBe(200)
    expect(second.body.results).toHaveLength(1)
    expect(second.body.next).toBeNull()
    const ids = [...first.body.results, ...second.body.results].map((x) => x.id)
    expect(new Set(ids).size).toBe(3)
    const big = await list('?page_size=101')
    expect(big.status).toBe(400)
    expect(big.body.code).toBe('validation_error')
  })

  it('answers bad filters with 400 and a code', async () => {
    const cases: Array<[string, string, string?]> = [
      ['?status=lost', 'validation_error', 'status'],
      ['?kind=sell', 'validation_error', 'kind'],
      ['?from=2020-13-01', 'validation_error', 'from'],
      // a day that does not exist is refused, not rolled over to March
      ['?to=2026-02-31', 'validation_error', 'to'],
      ['?from=0050-01-01', 'validation_error', 'from'],
      ['?to=yesterday', 'validation_error', 'to'],
      ['?page=0', 'validation_error', 'page'],
      ['?from=2020-03-02&to=2020-03-01', 'admin_date_range'],
      ['?q=buyer%40example.com', 'admin_receipt_search'],
      [`?q=${'1'.repeat(65)}`, 'validation_error', 'q'],
    ]
    for (const [query, code, field] of cases) {
      const r = await list(query)
      expect(r.status, query).toBe(400)
      expect(r.body.code, query).toBe(code)
      expect(r.body.detail, query).toMatch(/[а-яё]/i)
      if (field) expect(Object.keys(r.body.fields ?? {}), query).toContain(field)
    }
  })

  it('is the owner’s: support gets 403, a shopper and a guest the unknown address', async () => {
    const s = await list('', support.token)
    expect(s.status).toBe(403)
    expect(s.body.code).toBe('admin_forbidden')
    expect((await list('', shopper.token)).status).toBe(404)
    expect((await api.call('GET', '/api/admin/receipts/')).status).toBe(404)
  })
})

describe('the order card', () => {
  it('carries the order’s receipts in the same shape, for support too', async () => {
    const card = await api.call<{ receipts?: Receipt[] }>('GET', `/api/admin/orders/${oldOrder.id}/`, {
      token: support.token,
    })
    expect(card.status).toBe(200)
    // oldest written first (the legacy payment was written last, dated back)
    expect(card.body.receipts?.map((x) => x.kind)).toEqual(['prepayment', 'settlement', 'refund', 'payment'])
    const fromList = (await list(`?q=${oldOrder.id}`)).body.results
    expect(card.body.receipts).toEqual([...fromList].sort((a, b) => a.id - b.id))
  })
})
