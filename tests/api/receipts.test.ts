// Fiscal receipts (issue 33): one `sell` per paid payment and one `sell_refund` per provider refund,
// written with the settlement / refund, registered once by the `receipt.send` job through the
// owner's transport — the sandbox, ATOL Online v5 (a local fake of its API), or with the payment
// (Payselection's ReceiptData). A refused receipt is shown to the owner and never touches the payment.
import { and, asc, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { contacts as contactsTable, jobs, orders, payments, receipts, sellerSettings } from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { grantRole } from '#api/services/admin/roles'
import { renderMail } from '#api/services/mail/render'
import { markOrderPaid, settlePaymentSucceeded } from '#api/services/payments/settle'
import { queueSellReceipt } from '#api/services/receipts/outbox'
import { type FakeAtol, startFakeAtol } from '#tests/fakes/atol'
import { type FakePayselection, startFakePayselection } from '#tests/fakes/payselection'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'
import {
  checkoutPost,
  createPubgOrder,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  type PayAnswer,
  signedFields,
} from './payments-fixtures'

const INN = '7707083893'
const OGRN = '1027700132195'

let api: TestApi
let atol: FakeAtol
let ps: FakePayselection
let productId: number
let sandboxMethod: string
let psMethod: string
let owner: Awaited<ReturnType<typeof makeUser>>
/** Outbound HTTP of the job runs: tests swap it to cut a call short. */
let fetchImpl: typeof fetch = globalThis.fetch

const seller = (over: Record<string, unknown> = {}) => ({
  legal_form: 'ООО',
  company_name: 'Тест Шоп',
  inn: INN,
  ogrn: OGRN,
  address: 'Москва, ул. Тестовая, 1',
  email: 'shop@example.com',
  phone: '+7 900 000-00-00',
  extra: '',
  tax_system: 'usn_income',
  receipts_enabled: true,
  receipt_transport: 'atol',
  item_rules: {
    codes: { vat: 'none', payment_object: 'commodity' },
    topup: { vat: 'none', payment_object: 'service' },
    gift: { vat: 'none', payment_object: 'commodity' },
    steam_topup: { vat: 'none', payment_object: 'payment' },
    commission: { vat: 'vat22', payment_object: 'service' },
  },
  ...over,
})

beforeAll(async () => {
  atol = await startFakeAtol()
  ps = await startFakePayselection()
  api = await createTestApi({ env: { ...atol.env, ...ps.env, PUBLIC_URL: 'https://shop.example' } })
  productId = (await makePubgStock(api, { codes: 80, price: 9900 })).product.id
  sandboxMethod = (await makeSandboxMethod(api, 'redirect')).method.name
  psMethod = (await makeSandboxMethod(api, 'redirect', { provider: 'payselection', scenario: null })).method
    .name
  owner = await makeStaff(api, 'owner')
}, 240_000)
afterAll(async () => {
  await api?.close()
  await atol?.close()
  await ps?.close()
})
beforeEach(() => {
  fetchImpl = globalThis.fetch
  atol.mode = 'normal'
  atol.initialState = 'done'
})

const putSeller = (body: Record<string, unknown>, token = owner.token) =>
  api.call<Record<string, unknown> & { detail?: string }>('PUT', '/api/admin/seller/', { body, token })

/** Runs due jobs (receipts, refunds, mail) as a worker would, with `fetchImpl` for outbound calls. */
async function runJobs() {
  const deps: ApiDeps = { db: api.db, config: api.config, fetch: (u, i) => fetchImpl(u, i) }
  const due = await api.db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.kind, ['receipt.send', 'refund.provider']), eq(jobs.status, 'pending')))
  if (!due.length) return 0
  // backed-off retries and report polls are made due now
  await api.db
    .update(jobs)
    .set({ runAt: new Date(0) })
    .where(
      inArray(
        jobs.id,
        due.map((d) => d.id),
      ),
    )
  return createJobWorker(deps, { handlers: JOB_HANDLERS, onError: () => {} }).runDue({
    only: due.map((d) => d.id),
  })
}

async function paidOrder(quantity = 1) {
  const orderId = await createPubgOrder(api, productId, { quantity, email: 'buyer@example.com' })
  const r = await api.call<PayAnswer>('POST', `/api/payments/${sandboxMethod}/`, {
    body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
  })
  expect(r.status).toBe(200)
  const [p] = await api.db.select().from(payments).where(eq(payments.id, r.body.payment_id))
  const confirm = await checkoutPost(api, p!.id, 'confirm', signedFields(api, p!))
  expect(confirm.status).toBe(303)
  return { orderId, payment: p! }
}

const receiptsOfOrder = (orderId: string) =>
  api.db.select().from(receipts).where(eq(receipts.orderId, orderId)).orderBy(receipts.id)

type StatusBody = { status: string; payment_status: string; receipts?: Array<Record<string, unknown>> }
const statusOf = async (orderId: string) =>
  (await api.call<StatusBody>('GET', `/api/orders/status/${orderId}/`)).body

describe('«Реквизиты и чеки» settings', () => {
  it('owner only; ИНН and ОГРН checksums refused in Russian; contacts follow the requisites', async () => {
    const support = await makeStaff(api, 'support')
    expect((await putSeller(seller(), support.token)).status).toBe(403)
    expect((await api.call('GET', '/api/admin/seller/', { token: (await makeUser(api)).token })).status).toBe(
      404,
    )

    const badInn = await putSeller(seller({ inn: '7707083894' }))
    expect(badInn.status).toBe(400)
    expect(badInn.body.detail).toContain('ИНН с ошибкой')
    // check digits are no schema's: their own code, not a request off the contract (issue 44)
    expect(badInn.body).toMatchObject({ code: 'seller_inn_invalid', fields: { inn: [expect.any(String)] } })
    const badOgrn = await putSeller(seller({ ogrn: '1027700132196' }))
    expect(badOgrn.status).toBe(400)
    expect(badOgrn.body.detail).toContain('ОГРН с ошибкой')
    expect(badOgrn.body).toMatchObject({ code: 'seller_ogrn_invalid' })
    expect((await putSeller(seller({ inn: '77070838' }))).body).toMatchObject({ code: 'validation_error' })
    expect((await putSeller(seller({ tax_system: 'envd' }))).status).toBe(400)
    // the sandbox prints no real receipt: refused outside the demo's sandbox payments
    expect((await putSeller(seller({ receipt_transport: 'sandbox' }))).status).toBe(200)

    const ok = await putSeller(seller())
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({ inn: INN, ogrn: OGRN, receipt_transport: 'atol', receipts_enabled: true })
    expect((await api.call('GET', '/api/admin/seller/', { token: owner.token })).body).toEqual(ok.body)
    const contacts = await api.call<Record<string, string>>('GET', '/api/contacts/')
    expect(contacts.body).toEqual({
      company_name: 'ООО Тест Шоп',
      address: 'Москва, ул. Тестовая, 1',
      inn: INN,
      company_id: OGRN,
      extra: 'Почта: shop@example.com\nТелефон: +7 900 000-00-00',
    })
    // requisites saved empty again (a fresh shop's form sent back as it was): the seeded contacts,
    // never a contacts page of blank lines
    if ((await api.db.select().from(contactsTable).limit(1)).length === 0)
      await api.db.insert(contactsTable).values({
        companyName: 'ООО «Посев»',
        address: 'Москва',
        inn: '7703482150',
        companyId: '1197746340516',
        extra: '',
      })
    const [seeded] = await api.db.select().from(contactsTable).orderBy(asc(contactsTable.id)).limit(1)
    const blank = await putSeller({
      ...(ok.body as Record<string, unknown>),
      legal_form: '',
      company_name: '',
      inn: '',
      ogrn: '',
      receipts_enabled: false,
    })
    expect(blank.status, JSON.stringify(blank.body)).toBe(200)
    const fallback = await api.call<Record<string, string>>('GET', '/api/contacts/')
    expect(fallback.body).toMatchObject({ inn: seeded!.inn, company_name: seeded!.companyName })
    expect((await putSeller(seller())).status).toBe(200)
  })

  it('an individual entrepreneur’s number is labelled ОГРНИП in the mails; an organisation’s ОГРН', async () => {
    const mailText = async () =>
      (await renderMail(
        'password_changed',
        {},
        { db: api.db, config: api.config, to: 'b@example.com', now: new Date() },
      ))!.text
    const ip = await putSeller(
      seller({ legal_form: 'ИП', company_name: 'Иванов Иван', inn: '500100732259', ogrn: '304500116000157' }),
    )
    expect(ip.status, JSON.stringify(ip.body)).toBe(200)
    expect(await mailText()).toContain('Продавец: ИП Иванов Иван, ИНН 500100732259, ОГРНИП 304500116000157')
    // the storefront labels it from the number it reads (the contacts call has no legal form)
    const contacts = await api.call<Record<string, string>>('GET', '/api/contacts/')
    expect(contacts.body).toMatchObject({ company_name: 'ИП Иванов Иван', company_id: '304500116000157' })
    expect((await putSeller(seller())).status).toBe(200)
    const org = await mailText()
    expect(org).toContain(`Продавец: ООО Тест Шоп, ИНН ${INN}, ОГРН ${OGRN}`)
    expect(org).not.toContain('ОГРНИП')
  })
})

describe('ATOL Online transport', () => {
  beforeAll(async () => {
    expect((await putSeller(seller())).status).toBe(200)
  })

  it('one sell per paid payment, registered with its fiscal attributes; lines add up to the payment', async () => {
    const { orderId, payment } = await paidOrder(3)
    // a replayed confirmation changes nothing
    await checkoutPost(api, payment.id, 'confirm', signedFields(api, payment))
    const [pending, ...more] = await receiptsOfOrder(orderId)
    expect(more).toEqual([])
    expect(pending).toMatchObject({
      kind: 'sell',
      status: 'pending',
      transport: 'atol',
      total: payment.amount,
    })
    expect((await statusOf(orderId)).receipts).toEqual([
      expect.objectContaining({
        kind: 'sell',
        status: 'pending',
        email: 'buyer@example.com',
        total: '297.00',
        fiscal: null,
      }),
    ])

    await runJobs()
    const reg = atol.registrations.get(`sell:${payment.id}`)
    expect(reg?.kind).toBe('sell')
    const body = reg!.body as {
      receipt: { company: Record<string, string>; items: Array<{ sum: number }>; total: number }
    }
    expect(body.receipt.company).toEqual({
      email: 'shop@example.com',
      sno: 'usn_income',
      inn: INN,
      payment_address: 'https://shop.example',
    })
    expect(body.receipt.total).toBe(297)
    expect(body.receipt.items.reduce((s, i) => s + i.sum, 0)).toBe(297)

    const status = await statusOf(orderId)
    expect(status.status).toBe('done')
    expect(status.receipts).toEqual([
      expect.objectContaining({
        kind: 'sell',
        status: 'registered',
        total: '297.00',
        items: [{ name: expect.stringContaining('60 UC'), quantity: 3, price: '99.00', sum: '297.00' }],
        fiscal: {
          fn_number: '9287440300090728',
          fiscal_document_number: expect.stringMatching(/^\d+$/),
          fiscal_document_attribute: '1234567890',
          receipt_datetime: '27.11.2026 15:00:00',
        },
      }),
    ])
    // the recalculated order carries them too
    const order = await api.call<{ receipts?: unknown[] }>('GET', `/api/orders/${orderId}/`)
    expect(order.body.receipts).toHaveLength(1)
    // the back-office reads the fiscal data operator's link the cash register named (issue 47)
    const listed = await api.call<{
      results: Array<{ ofd_url: string | null; fiscal: { fiscal_document_number: string } }>
    }>('GET', `/api/admin/receipts/?q=${orderId}`, { token: owner.token })
    expect(listed.status).toBe(200)
    const [atolReceipt] = listed.body.results
    expect(atolReceipt?.ofd_url).toBe(
      `https://ofd.example/check/${atolReceipt?.fiscal.fiscal_document_number}`,
    )
    // the done mail says where the receipt went, its fiscal attributes, and who the seller is
    const mail = await renderMail('order_done', { orderId } as never, {
      db: api.db,
      config: api.config,
      to: 'buyer@example.com',
      now: new Date(),
    })
    expect(mail?.text).toContain('Чек отправлен на buyer@example.com. ФН 9287440300090728, ФД ')
    expect(mail?.text).toContain('ФП 1234567890, 27.11.2026 15:00:00')
    expect(mail?.text).toContain(`Продавец: ООО Тест Шоп, ИНН ${INN}, ОГРН ${OGRN}`)
  })

  it('the order history shows each order receipt: pending, then registered with ФН, ФД, ФП', async () => {
    const buyer = await makeUser(api)
    const orderId = await createPubgOrder(api, productId, { token: buyer.token })
    type Page = { results: Array<{ id: string; receipts?: Array<Record<string, unknown>> }> }
    const history = async () =>
      (await api.call<Page>('GET', '/api/orders/', { token: buyer.token })).body.results.find(
        (o) => o.id === orderId,
      )
    // unpaid: no receipt, and no `receipts` key at all
    expect(await history()).not.toHaveProperty('receipts')
    const r = await api.call<PayAnswer>('POST', `/api/payments/${sandboxMethod}/`, {
      body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
      token: buyer.token,
    })
    expect(r.status).toBe(200)
    const [p] = await api.db.select().from(payments).where(eq(payments.id, r.body.payment_id))
    expect((await checkoutPost(api, p!.id, 'confirm', signedFields(api, p!))).status).toBe(303)
    expect((await history())?.receipts).toEqual([
      expect.objectContaining({ kind: 'sell', status: 'pending', email: buyer.email, fiscal: null }),
    ])
    await runJobs()
    expect((await history())?.receipts).toEqual([
      expect.objectContaining({
        kind: 'sell',
        status: 'registered',
        total: '99.00',
        fiscal: expect.objectContaining({
          fn_number: '9287440300090728',
          fiscal_document_attribute: '1234567890',
        }),
      }),
    ])
  })

  it('registered once when the worker stopped between sending and marking', async () => {
    const { orderId, payment } = await paidOrder()
    // ATOL takes the sell, then the worker dies before it records the answer
    fetchImpl = async (u, i) => {
      const res = await globalThis.fetch(u, i)
      if (String(u).endsWith('/sell')) throw new Error('worker killed')
      return res
    }
    await runJobs()
    expect((await receiptsOfOrder(orderId))[0]).toMatchObject({ status: 'pending', serviceId: null })
    fetchImpl = globalThis.fetch
    await runJobs()
    const [r] = await receiptsOfOrder(orderId)
    expect(r?.status).toBe('registered')
    const ext = `sell:${payment.id}`
    expect(atol.calls.filter((c) => c.externalId === ext)).toHaveLength(2)
    expect([...atol.registrations.keys()].filter((k) => k === ext)).toHaveLength(1)

    // a job whose worker died (lease lapsed) is taken over; the receipt is not registered again
    const sells = atol.calls.length
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `receipt:${ext}`))
    await api.db.update(jobs).set({ status: 'pending' }).where(eq(jobs.id, job!.id))
    await runJobs()
    expect(atol.calls.length).toBe(sells)
  })

  it('waits for the report, then registers', async () => {
    atol.initialState = 'wait'
    const { orderId, payment } = await paidOrder()
    await runJobs()
    expect((await receiptsOfOrder(orderId))[0]?.status).toBe('pending')
    await runJobs()
    expect((await receiptsOfOrder(orderId))[0]?.status).toBe('pending')
    atol.registrations.get(`sell:${payment.id}`)!.state = 'done'
    await runJobs()
    expect((await receiptsOfOrder(orderId))[0]?.status).toBe('registered')
  })

  it('an outage is retried; when attempts run out the receipt fails, the payment stays', async () => {
    atol.mode = 'error'
    const { orderId, payment } = await paidOrder()
    await runJobs()
    expect((await receiptsOfOrder(orderId))[0]).toMatchObject({
      status: 'pending',
      lastError: expect.stringContaining('500'),
    })
    await api.db
      .update(jobs)
      .set({ maxAttempts: 2 })
      .where(eq(jobs.dedupeKey, `receipt:sell:${payment.id}`))
    await runJobs()
    const [r] = await receiptsOfOrder(orderId)
    expect(r?.status).toBe('failed')
    expect(r?.lastError).toContain('Касса не отвечает')
    expect((await api.db.select().from(payments).where(eq(payments.id, payment.id)))[0]?.status).toBe(
      'succeeded',
    )
    expect((await orderRow(api, orderId)).status).toBe('done')
  })

  it('a timeout counts as an outage', async () => {
    atol.mode = 'hang'
    const { orderId } = await paidOrder()
    fetchImpl = (u, i) => globalThis.fetch(u, { ...i, signal: AbortSignal.timeout(300) })
    await runJobs()
    expect((await receiptsOfOrder(orderId))[0]).toMatchObject({
      status: 'pending',
      lastError: expect.stringContaining('unreachable'),
    })
    atol.mode = 'normal'
    fetchImpl = globalThis.fetch
    await runJobs()
    expect((await receiptsOfOrder(orderId))[0]?.status).toBe('registered')
  })

  it('a refused receipt (wrong ИНН) is shown to the owner with the reason; resent after the fix', async () => {
    // a wrong ИНН that got into the settings (the API refuses one; an old row may have it)
    await api.db.update(sellerSettings).set({ inn: '7707083894' })
    const { orderId, payment } = await paidOrder()
    await runJobs()
    const [r] = await receiptsOfOrder(orderId)
    expect(r?.status).toBe('failed')
    expect(r?.lastError).toContain('Неверный ИНН')
    // the money is untouched
    expect((await api.db.select().from(payments).where(eq(payments.id, payment.id)))[0]?.status).toBe(
      'succeeded',
    )
    const status = await statusOf(orderId)
    expect([status.status, status.payment_status]).toEqual(['done', 'succeeded'])

    const overview = await api.call<{ failed_receipts: Array<{ id: number; reason: string }> }>(
      'GET',
      '/api/admin/overview/',
      { token: owner.token },
    )
    expect(overview.body.failed_receipts).toContainEqual(
      expect.objectContaining({ id: r!.id, reason: expect.stringContaining('Неверный ИНН') }),
    )
    // /admin/seller's list names the order by its short number (decision 135)
    const failed = await api.call<Array<{ id: number; order_id: string; order_number?: number }>>(
      'GET',
      '/api/admin/receipts/failed/',
      { token: owner.token },
    )
    const [orderRecord] = await api.db.select().from(orders).where(eq(orders.id, orderId))
    expect(failed.body).toContainEqual(
      expect.objectContaining({ id: r!.id, order_id: orderId, order_number: orderRecord!.number }),
    )
    // only a failed receipt can be resent
    expect((await putSeller(seller())).status).toBe(200)
    const resent = await api.call<{ status: string; external_id: string }>(
      'POST',
      `/api/admin/receipts/${r!.id}/resend/`,
      { token: owner.token },
    )
    expect(resent.status).toBe(200)
    expect(resent.body.status).toBe('pending')
    expect(resent.body.external_id).not.toBe(r!.externalId)
    await runJobs()
    expect((await receiptsOfOrder(orderId))[0]?.status).toBe('registered')
    expect(
      (await api.call('POST', `/api/admin/receipts/${r!.id}/resend/`, { token: owner.token })).status,
    ).toBe(409)
  })

  it('one sell_refund per provider refund, registered once after retries', async () => {
    const orderId = await createPubgOrder(api, productId, { quantity: 2, email: 'buyer@example.com' })
    const r = await api.call<PayAnswer>('POST', `/api/payments/${sandboxMethod}/`, {
      body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
    })
    const [payment] = await api.db.select().from(payments).where(eq(payments.id, r.body.payment_id))
    // paid (with its receipt, as the settlement writes it) and, the supplier being slow, not delivered yet
    await api.db.transaction(async (tx) => {
      await markOrderPaid(tx, orderId)
      await tx.update(payments).set({ status: 'succeeded' }).where(eq(payments.id, payment!.id))
      await queueSellReceipt(tx, api.config, payment!)
    })
    await runJobs()
    const refund = await api.call('POST', `/api/admin/orders/${orderId}/refund/`, {
      token: owner.token,
      body: { reason: 'Тестовый возврат' },
    })
    expect(refund.status).toBe(200)
    // ATOL down at first: the refund is done, its receipt waits and is retried
    atol.mode = 'error'
    await runJobs()
    await runJobs()
    atol.mode = 'normal'
    await runJobs()
    const rs = await receiptsOfOrder(orderId)
    expect(rs.map((x) => [x.kind, x.status])).toEqual([
      ['sell', 'registered'],
      ['sell_refund', 'registered'],
    ])
    const ext = `sell_refund:${rs[1]!.refundId}`
    expect(atol.registrations.get(ext)?.kind).toBe('sell_refund')
    expect(rs[1]!.total).toBe(payment!.amount)
    expect(rs[1]!.items).toEqual(rs[0]!.items)
    // replays of the refund job change nothing
    await api.db.update(jobs).set({ status: 'pending' }).where(eq(jobs.kind, 'refund.provider'))
    await runJobs()
    expect(await receiptsOfOrder(orderId)).toHaveLength(2)
    const kinds = (await statusOf(orderId)).receipts?.map((x) => [x.kind, x.status])
    expect(kinds).toEqual([
      ['sell', 'registered'],
      ['sell_refund', 'registered'],
    ])
  })
})

describe('with the payment (Payselection ReceiptData)', () => {
  beforeAll(async () => {
    expect((await putSeller(seller({ receipt_transport: 'with_payment' }))).status).toBe(200)
  })
  afterAll(async () => {
    expect((await putSeller(seller())).status).toBe(200)
  })

  it('the receipt goes in the payment call and adds up to the amount; one receipt row', async () => {
    const orderId = await createPubgOrder(api, productId, { quantity: 2, email: 'ps-buyer@example.com' })
    const r = await api.call<PayAnswer>('POST', `/api/payments/${psMethod}/`, {
      body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
    })
    expect(r.status).toBe(200)
    const create = ps.log.find((l) => l.path === '/webpayments/create' && l.body.includes(r.body.payment_id))
    const sent = JSON.parse(create!.body) as {
      PaymentRequest: { Amount: string }
      ReceiptData: {
        external_id: string
        receipt: { client: { email: string }; items: Array<{ sum: number }>; total: number }
      }
    }
    expect(sent.ReceiptData.external_id).toBe(`sell:${r.body.payment_id}`)
    expect(sent.ReceiptData.receipt.client.email).toBe('ps-buyer@example.com')
    expect(sent.ReceiptData.receipt.total).toBe(Number(sent.PaymentRequest.Amount))
    expect(sent.ReceiptData.receipt.items.reduce((s, i) => s + i.sum, 0)).toBe(198)

    const [payment] = await api.db.select().from(payments).where(eq(payments.id, r.body.payment_id))
    const deps: ApiDeps = api.deps
    const settle = {
      paymentId: payment!.id,
      provider: 'payselection',
      eventKey: 'T-1:success',
      amount: payment!.amount,
      currency: 'RUB',
    }
    expect((await settlePaymentSucceeded(deps, settle)).outcome).toBe('applied')
    expect((await settlePaymentSucceeded(deps, settle)).outcome).toBe('duplicate')
    const rows = await receiptsOfOrder(orderId)
    expect(rows.map((x) => [x.kind, x.status, x.transport])).toEqual([['sell', 'registered', 'with_payment']])
    expect(
      await api.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `receipt:sell:${payment!.id}`)),
    ).toEqual([])
  })

  it('the return receipt goes in the refund call; one sell_refund row', async () => {
    const orderId = await createPubgOrder(api, productId, { email: 'ps-refund@example.com' })
    const r = await api.call<PayAnswer>('POST', `/api/payments/${psMethod}/`, {
      body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
    })
    const [payment] = await api.db.select().from(payments).where(eq(payments.id, r.body.payment_id))
    await api.db.transaction(async (tx) => {
      await markOrderPaid(tx, orderId)
      await tx.update(payments).set({ status: 'succeeded' }).where(eq(payments.id, payment!.id))
      await queueSellReceipt(tx, api.config, payment!)
    })
    ps.states.set(payment!.id, [
      { TransactionId: 'T-9', TransactionState: 'success', Amount: '99.00', Currency: 'RUB' },
    ])
    const refund = await api.call('POST', `/api/admin/orders/${orderId}/refund/`, {
      token: owner.token,
      body: { reason: 'Возврат' },
    })
    expect(refund.status).toBe(200)
    await runJobs()
    const call = ps.log.find((l) => l.path === '/payments/refund' && l.body.includes('T-9'))
    const body = JSON.parse(call!.body) as {
      ReceiptData?: { external_id: string; receipt: { total: number } }
    }
    const rows = await receiptsOfOrder(orderId)
    expect(rows.map((x) => [x.kind, x.status])).toEqual([
      ['sell', 'registered'],
      ['sell_refund', 'registered'],
    ])
    expect(body.ReceiptData).toMatchObject({
      external_id: `sell_refund:${rows[1]!.refundId}`,
      receipt: { total: 99 },
    })
  })

  it('a provider that cannot carry it: the receipt is failed for the owner, the payment stands', async () => {
    const { orderId, payment } = await paidOrder()
    const [r] = await receiptsOfOrder(orderId)
    expect(r).toMatchObject({ status: 'failed', transport: 'with_payment' })
    expect(r?.lastError).toContain('не передаёт чек')
    expect((await orderRow(api, orderId)).status).toBe('done')
    expect((await api.db.select().from(payments).where(eq(payments.id, payment.id)))[0]?.status).toBe(
      'succeeded',
    )
  })
})

describe('sandbox transport', () => {
  it('registers at once with plainly fake attributes (demo and tests)', async () => {
    expect((await putSeller(seller({ receipt_transport: 'sandbox' }))).status).toBe(200)
    const { orderId } = await paidOrder()
    // registered in the settlement itself: no job to wait for
    const [r] = (await statusOf(orderId)).receipts ?? []
    expect(r).toMatchObject({ status: 'registered', fiscal: { fn_number: '9999999999999999' } })
    expect((await putSeller(seller())).status).toBe(200)
  })

  it('receipts off: none is written', async () => {
    expect((await putSeller(seller({ receipts_enabled: false }))).status).toBe(200)
    const { orderId } = await paidOrder()
    expect(await receiptsOfOrder(orderId)).toEqual([])
    expect((await statusOf(orderId)).receipts).toBeUndefined()
    expect((await putSeller(seller())).status).toBe(200)
  })
})

describe('production', () => {
  let prod: TestApi
  beforeAll(async () => {
    prod = await createTestApi({ env: { PUBLIC_URL: 'https://shop.example', SANDBOX_PAYMENTS: '0' } })
  })
  afterAll(async () => {
    await prod?.close()
  })

  it('refuses the sandbox transport, warns in red until requisites and receipts are set', async () => {
    const boss = await makeUser(prod)
    await grantRole(prod.db, boss.email, 'owner', 'test')
    const warnings = async () =>
      (await prod.call<{ seller_warnings: string[] }>('GET', '/api/admin/overview/', { token: boss.token }))
        .body.seller_warnings
    expect(await warnings()).toEqual([
      expect.stringContaining('Не заполнены реквизиты продавца: название, ИНН, ОГРН, адрес, почта'),
      expect.stringContaining('Чеки выключены'),
    ])
    const sandbox = await prod.call<{ detail: string }>('PUT', '/api/admin/seller/', {
      body: seller({ receipt_transport: 'sandbox' }),
      token: boss.token,
    })
    expect(sandbox.status).toBe(400)
    expect(sandbox.body.detail).toContain('только в демо-режиме')
    expect((await prod.call('PUT', '/api/admin/seller/', { body: seller(), token: boss.token })).status).toBe(
      200,
    )
    expect(await warnings()).toEqual([])
    // a sandbox receipt left from before never registers for real shoppers
    const [row] = await prod.db
      .insert(receipts)
      .values({
        orderId: await createPubgOrder(prod, (await makePubgStock(prod, { codes: 1 })).product.id),
        kind: 'sell',
        transport: 'sandbox',
        externalId: 'sell:legacy',
        email: 'b@example.com',
        total: 100,
        items: [],
        seller: { inn: INN, name: 'ООО Тест', email: 'shop@example.com' },
      })
      .returning()
    await JOB_HANDLERS['receipt.send']!(
      { id: 0, payload: { receiptId: row!.id }, attempts: 1, maxAttempts: 20 } as never,
      prod.deps,
    )
    const [after] = await prod.db.select().from(receipts).where(eq(receipts.id, row!.id))
    expect(after).toMatchObject({ status: 'failed', lastError: expect.stringContaining('демо-режиме') })
  })
})
