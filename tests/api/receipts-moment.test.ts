// Receipts by the moment of delivery (54-ФЗ; issue 45, decision 059): an order a person delivers
// later gets «предоплата 100 %» when paid and «полный расчёт» offsetting the advance when delivered;
// codes handed over at payment keep one «полный расчёт». Both transports against their fakes: ATOL
// Online v5 (payment_method full_prepayment, then full_payment with payments of type 2) and YooKassa
// (payment_mode full_prepayment in the payment's receipt, then POST /receipts with settlements of
// type prepayment). A refund before delivery gives back the advance, after it the settlement.
import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { jobs, paymentMethods, payments, receipts } from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { ensureYookassaMethods } from '#api/services/payments/yookassa-setup'
import { type FakeAtol, startFakeAtol } from '#tests/fakes/atol'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { ensureSettings, makeGame, type makeUser, onlyActive } from './orders-fixtures'
import {
  checkoutPost,
  createPubgOrder,
  makePubgStock,
  makeSandboxMethod,
  type PayAnswer,
  pay,
  signedFields,
} from './payments-fixtures'

let api: TestApi
let atol: FakeAtol
let yk: FakeYookassa
let owner: Awaited<ReturnType<typeof makeUser>>
let sandboxMethod: string
let pubgProduct: number

const seller = (transport: 'atol' | 'with_payment') => ({
  legal_form: 'ООО',
  company_name: 'Тест Шоп',
  inn: '7707083893',
  ogrn: '1027700132195',
  address: 'Москва, ул. Тестовая, 1',
  email: 'shop@example.com',
  phone: '+7 900 000-00-00',
  extra: '',
  tax_system: 'usn_income',
  receipts_enabled: true,
  receipt_transport: transport,
  item_rules: {
    codes: { vat: 'none', payment_object: 'commodity' },
    topup: { vat: 'none', payment_object: 'service' },
    gift: { vat: 'none', payment_object: 'commodity' },
    steam_topup: { vat: 'none', payment_object: 'payment' },
    commission: { vat: 'none', payment_object: 'service' },
  },
})
const useTransport = async (transport: 'atol' | 'with_payment') => {
  const r = await api.call('PUT', '/api/admin/seller/', { body: seller(transport), token: owner.token })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
}

beforeAll(async () => {
  atol = await startFakeAtol()
  yk = await startFakeYookassa()
  api = await createTestApi({
    env: { ...atol.env, ...yk.env, PUBLIC_URL: 'https://shop.example', YOOKASSA_NOTIFY_FROM: '127.0.0.1/32' },
  })
  await ensureSettings(api) // Steam commission 8 %
  owner = await makeStaff(api, 'owner')
  const steam = await makeGame(api, 'Steam', { supplier: 'manual' })
  await onlyActive(api, 'Steam', steam.id)
  pubgProduct = (await makePubgStock(api, { codes: 10, price: 9900 })).product.id
  sandboxMethod = (await makeSandboxMethod(api, 'redirect')).method.name
  await ensureYookassaMethods(api.db)
  const [card] = await api.db.select().from(paymentMethods).where(eq(paymentMethods.name, 'yookassa_card'))
  await api.call('PATCH', `/api/admin/payments/methods/${card!.id}/`, {
    token: owner.token,
    body: { is_active: true },
  })
}, 240_000)
afterAll(async () => {
  await api?.close()
  await atol?.close()
  await yk?.close()
})

/** Runs due receipt and refund jobs as a worker would. */
async function runJobs() {
  const deps: ApiDeps = api.deps
  for (let round = 0; round < 3; round++) {
    const due = await api.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(inArray(jobs.kind, ['receipt.send', 'refund.provider']), eq(jobs.status, 'pending')))
    if (!due.length) return
    await api.db
      .update(jobs)
      .set({ runAt: new Date(0) })
      .where(
        inArray(
          jobs.id,
          due.map((d) => d.id),
        ),
      )
    await createJobWorker(deps, { handlers: JOB_HANDLERS, onError: () => {} }).runDue({
      only: due.map((d) => d.id),
    })
  }
}

async function steamOrder() {
  const r = await api.call<{ id: string }>('POST', '/api/orders/steam/', {
    body: { amount: '1000.00', steam_account_id: 'gaben', email: 'buyer@example.com' },
  })
  expect(r.status).toBe(201)
  return r.body.id
}

/** Pays an order by the sandbox checkout (a provider without receipts of its own). */
async function paySandbox(orderId: string) {
  const r = await pay(api, sandboxMethod, orderId)
  expect(r.status).toBe(200)
  const [p] = await api.db
    .select()
    .from(payments)
    .where(eq(payments.id, (r.body as PayAnswer).payment_id))
  expect((await checkoutPost(api, p!.id, 'confirm', signedFields(api, p!))).status).toBe(303)
  return p!
}

const rowsOf = (orderId: string) =>
  api.db.select().from(receipts).where(eq(receipts.orderId, orderId)).orderBy(receipts.id)
const deliver = (orderId: string) =>
  api.call<{ status: string }>('POST', `/api/admin/orders/${orderId}/delivered/`, { token: owner.token })
const refund = (orderId: string) =>
  api.call('POST', `/api/admin/orders/${orderId}/refund/`, {
    token: owner.token,
    body: { reason: 'Возврат' },
  })
type OrderReceipt = { kind: string; payment_method?: string; status: string; total: string }
const receiptsShown = async (orderId: string) =>
  (await api.call<{ receipts?: OrderReceipt[] }>('GET', `/api/orders/status/${orderId}/`)).body.receipts ?? []

type AtolBody = {
  receipt: { items: Array<{ payment_method: string }>; payments: Array<{ type: number; sum: number }> }
}
const atolBody = (externalId: string) => atol.registrations.get(externalId)?.body as AtolBody | undefined

describe('ATOL Online v5', () => {
  beforeAll(() => useTransport('atol'))

  it('a manual order: «предоплата 100 %» when paid, «полный расчёт» offsetting it when delivered', async () => {
    const orderId = await steamOrder()
    const payment = await paySandbox(orderId)
    await runJobs()
    let rows = await rowsOf(orderId)
    expect(rows.map((r) => [r.kind, r.paymentMethod, r.status])).toEqual([
      ['sell', 'full_prepayment', 'registered'],
    ])
    const advance = atolBody(`sell:${payment.id}`)!
    expect(advance.receipt.items.every((i) => i.payment_method === 'full_prepayment')).toBe(true)
    expect(advance.receipt.payments).toEqual([{ type: 1, sum: 1080 }])

    expect((await deliver(orderId)).body.status).toBe('done')
    await runJobs()
    rows = await rowsOf(orderId)
    expect(rows.map((r) => [r.kind, r.paymentMethod, r.status, r.externalId])).toEqual([
      ['sell', 'full_prepayment', 'registered', `sell:${payment.id}`],
      ['sell', 'full_payment', 'registered', `settle:${payment.id}`],
    ])
    expect(rows[1]!.items).toEqual(rows[0]!.items)
    const settlement = atolBody(`settle:${payment.id}`)!
    expect(settlement.receipt.items.every((i) => i.payment_method === 'full_payment')).toBe(true)
    // paid by the advance: «предварительная оплата (зачёт аванса)»
    expect(settlement.receipt.payments).toEqual([{ type: 2, sum: 1080 }])
    // the buyer's order says which is which
    expect((await receiptsShown(orderId)).map((r) => [r.kind, r.payment_method, r.status])).toEqual([
      ['sell', 'full_prepayment', 'registered'],
      ['sell', 'full_payment', 'registered'],
    ])
    // a repeated delivery call writes no third receipt
    await deliver(orderId)
    await runJobs()
    expect(await rowsOf(orderId)).toHaveLength(2)
  })

  it('codes handed over at payment keep one «полный расчёт» receipt', async () => {
    const orderId = await createPubgOrder(api, pubgProduct, { email: 'buyer@example.com' })
    const payment = await paySandbox(orderId)
    await runJobs()
    const rows = await rowsOf(orderId)
    expect(rows.map((r) => [r.kind, r.paymentMethod])).toEqual([['sell', 'full_payment']])
    expect(atolBody(`sell:${payment.id}`)!.receipt.payments).toEqual([{ type: 1, sum: 99 }])
    expect(atolBody(`settle:${payment.id}`)).toBeUndefined()
  })

  it('a refund before delivery gives back the advance', async () => {
    const orderId = await steamOrder()
    await paySandbox(orderId)
    await runJobs()
    expect((await refund(orderId)).status).toBe(200)
    await runJobs()
    const rows = await rowsOf(orderId)
    expect(rows.map((r) => [r.kind, r.paymentMethod, r.status])).toEqual([
      ['sell', 'full_prepayment', 'registered'],
      ['sell_refund', 'full_prepayment', 'registered'],
    ])
    const body = atolBody(rows[1]!.externalId)!
    expect(atol.registrations.get(rows[1]!.externalId)?.kind).toBe('sell_refund')
    expect(body.receipt.items.every((i) => i.payment_method === 'full_prepayment')).toBe(true)
    expect(body.receipt.payments).toEqual([{ type: 1, sum: 1080 }])
  })

  it('a refund after delivery gives back the settlement', async () => {
    const orderId = await steamOrder()
    await paySandbox(orderId)
    await runJobs()
    await deliver(orderId)
    await runJobs()
    expect((await refund(orderId)).status).toBe(200)
    await runJobs()
    const rows = await rowsOf(orderId)
    expect(rows.map((r) => [r.kind, r.paymentMethod])).toEqual([
      ['sell', 'full_prepayment'],
      ['sell', 'full_payment'],
      ['sell_refund', 'full_payment'],
    ])
    const body = atolBody(rows[2]!.externalId)!
    expect(body.receipt.items.every((i) => i.payment_method === 'full_payment')).toBe(true)
    expect(body.receipt.payments).toEqual([{ type: 1, sum: 1080 }])
  })
})

describe('YooKassa (the receipt with the payment)', () => {
  beforeAll(() => useTransport('with_payment'))
  afterAll(() => useTransport('atol'))

  async function payYookassa(orderId: string) {
    const r = await pay(api, 'yookassa_card', orderId, { email: 'buyer@example.com' })
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    const remote = yk.paymentOf((r.body as PayAnswer).payment_id)!
    yk.succeed(remote.id)
    const res = await api.app.request('/api/payments/yookassa/notify/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-shop-client-ip': '127.0.0.1' },
      body: JSON.stringify(yk.notification('payment.succeeded', remote)),
    })
    expect(res.status).toBe(200)
    return remote
  }

  it('a manual order: payment_mode full_prepayment with the payment, then POST /receipts settling it', async () => {
    const orderId = await steamOrder()
    const remote = await payYookassa(orderId)
    const sent = remote.receipt as { items: Array<{ payment_mode: string }> }
    expect(sent.items.map((i) => i.payment_mode)).toEqual(['full_prepayment', 'full_prepayment'])
    expect((await rowsOf(orderId)).map((r) => [r.kind, r.paymentMethod, r.status])).toEqual([
      ['sell', 'full_prepayment', 'registered'],
    ])

    expect((await deliver(orderId)).body.status).toBe('done')
    await runJobs()
    const made = [...yk.receipts.values()].filter((x) => x.payment_id === remote.id)
    expect(made).toHaveLength(1)
    expect(made[0]!.items.map((i) => i.payment_mode)).toEqual(['full_payment', 'full_payment'])
    expect(made[0]!.settlements).toEqual([
      { type: 'prepayment', amount: { value: '1080.00', currency: 'RUB' } },
    ])
    const rows = await rowsOf(orderId)
    expect(rows.map((r) => [r.kind, r.paymentMethod, r.status])).toEqual([
      ['sell', 'full_prepayment', 'registered'],
      ['sell', 'full_payment', 'registered'],
    ])
    expect((rows[1]!.fiscal as { fiscal_document_number: string }).fiscal_document_number).toMatch(/^\d+$/)
    // run again (a restart): YooKassa is not asked for a second receipt
    await api.db
      .update(jobs)
      .set({ status: 'pending' })
      .where(eq(jobs.dedupeKey, `receipt:settle:${rows[0]!.paymentId}`))
    await runJobs()
    expect([...yk.receipts.values()].filter((x) => x.payment_id === remote.id)).toHaveLength(1)
  })

  it('a refund before delivery sends the advance back in the refund call', async () => {
    const orderId = await steamOrder()
    const remote = await payYookassa(orderId)
    expect((await refund(orderId)).status).toBe(200)
    await runJobs()
    const r = [...yk.refunds.values()].find((x) => x.payment_id === remote.id)!
    expect(
      (r.receipt as { items: Array<{ payment_mode: string }> }).items.map((i) => i.payment_mode),
    ).toEqual(['full_prepayment', 'full_prepayment'])
  })

  it('a refund after delivery sends the settlement back in the refund call', async () => {
    const orderId = await steamOrder()
    const remote = await payYookassa(orderId)
    await deliver(orderId)
    await runJobs()
    expect((await refund(orderId)).status).toBe(200)
    await runJobs()
    const r = [...yk.refunds.values()].find((x) => x.payment_id === remote.id)!
    expect(
      (r.receipt as { items: Array<{ payment_mode: string }> }).items.map((i) => i.payment_mode),
    ).toEqual(['full_payment', 'full_payment'])
  })
})
