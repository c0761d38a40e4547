// «Сверка» (issue 43) against the local fake of YooKassa: each kind of difference between the
// shop's books and YooKassa's found, stored once however often and wherever the comparison runs,
// closed when a later run no longer finds it, explained by the owner (audited), mailed to staff
// once, counted in the metric, listed with its order; the routes' roles, errors and rate limit.
import { randomUUID } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import {
  auditLog,
  jobs,
  orders,
  payments,
  rateLimits,
  reconciliationDifferences,
  refunds,
} from '#api/db/schema'
import { runAlerts } from '#api/services/alerts/run'
import { MAIL_JOB } from '#api/services/mail/outbox'
import { ensureYookassaMethods } from '#api/services/payments/yookassa-setup'
import { lastHours, runReconciliation } from '#api/services/reconciliation/run'
import { startMetricsServer } from '../../server/metrics'
import { type FakeYookassa, startFakeYookassa } from '#tests/fakes/yookassa'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { makeUser } from './orders-fixtures'
import { createPubgOrder, type Err, makePubgStock, pay } from './payments-fixtures'

let api: TestApi
let yk: FakeYookassa
let owner: Awaited<ReturnType<typeof makeUser>>
let support: Awaited<ReturnType<typeof makeUser>>
let productId: number
const deps = (): ApiDeps => api.deps

type Diff = {
  id: number
  kind: string
  status: string
  order_id: string | null
  order_number?: number | null
  payment_id: string | null
  refund_id: number | null
  external_id: string | null
  provider_amount: { amount: string; currency: string } | null
  shop_amount: { amount: string; currency: string } | null
  note: string | null
  explained_by: string | null
}
type Page = { count: number; next: string | null; results: Diff[] }

beforeAll(async () => {
  yk = await startFakeYookassa()
  api = await createTestApi({ env: { ...yk.env, YOOKASSA_NOTIFY_FROM: '127.0.0.1/32, ::1' } })
  owner = await makeStaff(api, 'owner')
  support = await makeStaff(api, 'support')
  productId = (await makePubgStock(api, { codes: 50 })).product.id
  await ensureYookassaMethods(api.db)
  await api.db.execute(sql`update payment_methods set is_active = true where provider = 'yookassa'`)
})
afterAll(async () => {
  await api?.close()
  await yk?.close()
})

/** A guest order paid by card through YooKassa as it really goes: the payer pays, YooKassa notifies. */
async function paidByCard() {
  const orderId = await createPubgOrder(api, productId)
  const r = await pay(api, 'yookassa_card', orderId, { email: 'buyer@example.com' })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  const remote = yk.succeed(yk.paymentOf(r.body.payment_id as string)!.id)
  const n = await api.app.request('/api/payments/yookassa/notify/', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-shop-client-ip': '127.0.0.1' },
    body: JSON.stringify(yk.notification('payment.succeeded', remote)),
  })
  expect(n.status).toBe(200)
  return { orderId, paymentId: r.body.payment_id as string, remote }
}

const list = (query = '', token = owner.token) =>
  api.call<Page & Err>('GET', `/api/admin/reconciliation/${query}`, { token })
const run = (token = owner.token, body: unknown = {}) =>
  api.call<{ providers: { provider: string; found: number; opened: number; resolved: number }[] } & Err>(
    'POST',
    '/api/admin/reconciliation/run/',
    { token, body },
  )

describe('reconciliation with YooKassa', () => {
  const planted: Record<string, string> = {}

  it('finds each kind of difference once, with its order, and nothing for books that agree', async () => {
    // books that agree: a card payment paid and settled
    const fine = await paidByCard()

    // 1. a payment YooKassa took that the shop does not know (its metadata names an order)
    const lost = await createPubgOrder(api, productId)
    planted.lostOrder = lost
    planted.lost = yk.plant({ value: '1101.60', currency: 'RUB' }, { order_id: lost }).id

    // 2. a payment the shop has as paid that YooKassa does not have
    const ghostOrderId = await createPubgOrder(api, productId)
    const ghostPayment = randomUUID()
    await api.db.insert(payments).values({
      id: ghostPayment,
      orderId: ghostOrderId,
      methodName: 'yookassa_card',
      provider: 'yookassa',
      amount: 9900,
      currency: 'RUB',
      status: 'succeeded',
      externalId: `2${randomUUID().slice(1)}`,
    })
    planted.ghost = ghostPayment

    // 3. an amount that differs: YooKassa took another sum than the shop recorded
    const off = await paidByCard()
    off.remote.amount = { value: '1.00', currency: 'RUB' }

    // 4. a refund at YooKassa the shop does not know (made in YooKassa's own dashboard, say)
    const refundedElsewhere = await paidByCard()
    const foreign = {
      id: `3${randomUUID().slice(1)}`,
      payment_id: refundedElsewhere.remote.id,
      status: 'succeeded' as const,
      amount: { value: '10.00', currency: 'RUB' },
      created_at: new Date().toISOString(),
    }
    yk.refunds.set(foreign.id, foreign)
    planted.foreignRefund = foreign.id

    // 5. a refund the shop says went back through YooKassa that YooKassa never made
    const claimed = await paidByCard()
    const [claim] = await api.db
      .insert(refunds)
      .values({
        orderId: claimed.orderId,
        kind: 'order',
        method: 'provider',
        status: 'done',
        amount: 9900,
        currency: 'RUB',
        reason: 'test',
        paymentId: claimed.paymentId,
        externalId: `3${randomUUID().slice(1)}`,
        completedAt: new Date(),
      })
      .returning()

    const r = await run()
    expect(r.status, JSON.stringify(r.body)).toBe(200)
    expect(r.body.providers).toEqual([
      expect.objectContaining({ provider: 'yookassa', found: 5, opened: 5, resolved: 0 }),
    ])

    const all = await list('?status=open&limit=100')
    expect(all.status).toBe(200)
    const by = (kind: string) => all.body.results.filter((d) => d.kind === kind)
    expect(by('paid_at_provider_only')).toEqual([
      expect.objectContaining({
        order_id: lost,
        payment_id: null,
        external_id: planted.lost,
        provider_amount: { amount: '1101.60', currency: 'RUB' },
        shop_amount: null,
      }),
    ])
    expect(by('paid_in_shop_only')).toEqual([
      expect.objectContaining({
        order_id: ghostOrderId,
        payment_id: ghostPayment,
        provider_amount: null,
        shop_amount: { amount: '99.00', currency: 'RUB' },
      }),
    ])
    expect(by('amount_differs')).toEqual([
      expect.objectContaining({
        order_id: off.orderId,
        external_id: off.remote.id,
        provider_amount: { amount: '1.00', currency: 'RUB' },
      }),
    ])
    expect(by('refund_at_provider_only')).toEqual([
      expect.objectContaining({ order_id: refundedElsewhere.orderId, external_id: foreign.id }),
    ])
    expect(by('refund_in_shop_only')).toEqual([
      expect.objectContaining({ order_id: claimed.orderId, refund_id: claim!.id }),
    ])
    expect(all.body.results.some((d) => d.order_id === fine.orderId)).toBe(false)
    expect(all.body.count).toBe(5)
    // each with its order's short number, the one people read (decision 135)
    const [lostRow] = await api.db.select().from(orders).where(eq(orders.id, lost))
    expect(by('paid_at_provider_only')[0]!.order_number).toBe(lostRow!.number)
    expect(all.body.results.every((d) => Number.isInteger(d.order_number))).toBe(true)
  })

  it('a re-run, and two instances at once, add no row', async () => {
    const again = await run()
    expect(again.body.providers[0]).toMatchObject({ found: 5, opened: 0, resolved: 0 })
    const both = await Promise.all([
      runReconciliation(deps(), lastHours(24)),
      runReconciliation(deps(), lastHours(24)),
    ])
    expect(both.map((b) => b[0]!.found)).toEqual([5, 5])
    const [n] = await api.db.select({ n: sql<number>`count(*)::int` }).from(reconciliationDifferences)
    expect(n!.n).toBe(5)
  })

  it('reads the lists a page at a time (limit 100, next_cursor)', async () => {
    // 150 payments YooKassa cancelled: nothing to report, but two pages to read
    for (let i = 0; i < 150; i++)
      yk.cancel(yk.plant({ value: '5.00', currency: 'RUB' }).id, 'expired_on_confirmation')
    yk.log.length = 0
    const r = await run()
    expect(r.status).toBe(200)
    const lists = yk.log.filter((l) => l.method === 'GET' && l.path === '/payments')
    expect(lists.length).toBeGreaterThanOrEqual(2)
    expect(r.body.providers[0]).toMatchObject({ found: 5, opened: 0 })
  })

  it('closes a difference a later run no longer finds', async () => {
    // the missing payment turns up at YooKassa (say the list was late)
    const [ghost] = await api.db.select().from(payments).where(eq(payments.id, planted.ghost!))
    const late = yk.plant({ value: '99.00', currency: 'RUB' })
    yk.payments.delete(late.id)
    yk.payments.set(ghost!.externalId!, { ...late, id: ghost!.externalId! })
    const r = await run()
    expect(r.body.providers[0]).toMatchObject({ found: 4, resolved: 1, opened: 0 })
    const page = await list('?kind=paid_in_shop_only')
    expect(page.body.results.map((d) => d.status)).toEqual(['resolved'])
  })

  it('the owner explains one with a note (audited); again is 409, no note is 400, no row is 404', async () => {
    const page = await list('?kind=paid_at_provider_only&status=open')
    const d = page.body.results[0]!
    const bare = await api.call<Err>('POST', `/api/admin/reconciliation/${d.id}/explain/`, {
      token: owner.token,
      body: { note: '  ' },
    })
    expect(bare.status).toBe(400)
    expect(bare.body.fields?.note?.[0]).toBe('напишите, чем объясняется расхождение')
    const ok = await api.call<Diff>('POST', `/api/admin/reconciliation/${d.id}/explain/`, {
      token: owner.token,
      body: { note: 'Оплата вручную, заказ выдан' },
    })
    expect(ok.status).toBe(200)
    expect(ok.body).toMatchObject({
      status: 'explained',
      note: 'Оплата вручную, заказ выдан',
      explained_by: owner.email,
    })
    const [entry] = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'reconciliation.explain'), eq(auditLog.entityId, String(d.id))))
    expect(entry).toMatchObject({
      actorEmail: owner.email,
      after: { status: 'explained', note: 'Оплата вручную, заказ выдан' },
    })
    const twice = await api.call<Err>('POST', `/api/admin/reconciliation/${d.id}/explain/`, {
      token: owner.token,
      body: { note: 'ещё раз' },
    })
    expect(twice.status).toBe(409)
    expect(twice.body.code).toBe('reconciliation_not_open')
    const none = await api.call<Err>('POST', '/api/admin/reconciliation/999999/explain/', {
      token: owner.token,
      body: { note: 'x' },
    })
    expect(none.status).toBe(404)
    // an explained difference stays explained when a run finds it again
    await run()
    expect((await list('?kind=paid_at_provider_only')).body.results[0]!.status).toBe('explained')
  })

  it('mails each new difference to the owners once, in the staff alert digest', async () => {
    const mails = async () =>
      (await api.db.select().from(jobs).where(eq(jobs.kind, MAIL_JOB))).filter(
        (j) =>
          (j.payload as { template?: string }).template === 'staff_alerts' &&
          JSON.stringify(j.payload).includes('reconciliation:'),
      )
    const before = (await mails()).length
    await runAlerts(deps())
    const after = await mails()
    expect(after.length).toBeGreaterThan(before)
    // the digest names each open difference (its text is the alert's: «Сверка: …»)
    const alerts = await api.db.execute<{ detail: string }>(
      sql`select detail from staff_alerts where source = 'reconciliation' and closed_at is null`,
    )
    const rows = (alerts as unknown as { rows: { detail: string }[] }).rows
    expect(rows.length).toBe(3)
    expect(rows.map((r) => r.detail).join('\n')).toMatch(
      /Сверка: сумма или валюта не совпадают — 1,00\s₽, заказ № \d+/,
    )
    await run()
    await runAlerts(deps())
    expect((await mails()).length).toBe(after.length)
  })

  it('counts the open differences in reconciliation_differences{provider,kind}', async () => {
    const server = startMetricsServer(0, '127.0.0.1', api.database)
    await new Promise((r) => server.once('listening', r))
    try {
      const text = await (
        await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`)
      ).text()
      const value = (kind: string) =>
        Number(
          new RegExp(
            `reconciliation_differences\\{[^}]*provider="yookassa"[^}]*kind="${kind}"[^}]*\\} (\\d+)`,
          ).exec(text)?.[1],
        )
      expect(value('amount_differs')).toBe(1)
      expect(value('refund_at_provider_only')).toBe(1)
      expect(value('refund_in_shop_only')).toBe(1)
      // explained and resolved ones are not open
      expect(value('paid_at_provider_only')).toBe(0)
      expect(value('paid_in_shop_only')).toBe(0)
    } finally {
      await new Promise((r) => server.close(r))
    }
  })

  it('the overview counts the open ones', async () => {
    const r = await api.call<{ reconciliation?: { open: number } }>('GET', '/api/admin/overview/', {
      token: owner.token,
    })
    expect(r.body.reconciliation).toEqual({ open: 3 })
  })

  it('is the owner’s: support gets 403, others 404; bad filters are 400', async () => {
    expect((await list('', support.token)).status).toBe(403)
    expect((await run(support.token)).status).toBe(403)
    const shopper = await makeUser(api)
    expect((await list('', shopper.token)).status).toBe(404)
    expect((await api.call('GET', '/api/admin/reconciliation/')).status).toBe(404)
    expect((await list('?kind=nonsense')).status).toBe(400)
    expect((await list('?limit=1000')).status).toBe(400)
    expect((await run(owner.token, { hours: 0 })).status).toBe(400)
    expect((await run(owner.token, { hours: 'day' })).status).toBe(400)
    const paged = await list('?limit=2')
    expect(paged.body.results).toHaveLength(2)
    expect(paged.body.next).toMatch(/offset=2/)
  })

  it('runs now at most 10 times in 10 minutes for the whole shop (429 with Retry-After)', async () => {
    await api.db.delete(rateLimits).where(eq(rateLimits.key, 'reconciliation:run'))
    for (let i = 0; i < 10; i++) expect((await run()).status).toBe(200)
    const over = await run()
    expect(over.status).toBe(429)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
  })

  it('answers 502 when YooKassa cannot be asked', async () => {
    await api.db.delete(rateLimits).where(eq(rateLimits.key, 'reconciliation:run'))
    const saved = api.config.yookassa!.apiUrl
    ;(api.config.yookassa as { apiUrl: string }).apiUrl = 'http://127.0.0.1:9'
    try {
      const r = await run()
      expect(r.status).toBe(502)
      expect(r.body.code).toBe('reconciliation_provider_error')
    } finally {
      ;(api.config.yookassa as { apiUrl: string }).apiUrl = saved
    }
  })
})
