// Delivery by a person (issue 31): in production mode (no sandbox payments) paid Standoff, Steam
// and supply orders of a `manual` game wait as `sent` until a person says delivered; the desk's
// take / delivered / not delivered with role checks and repeats; Standoff listing prices unique
// among open orders; the overdue notice and the automatic refund, once each.
import { randomUUID } from 'node:crypto'
import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { auditLog, games, jobs, orders, payments, refunds } from '#api/db/schema'
import type { JobRow } from '#api/jobs/queue'
import { deliveryOverdueJob, deliveryRefundJob } from '#api/services/delivery/handover'
import { retireSandboxSuppliers } from '#api/services/delivery/suppliers'
import { settlePaymentSucceeded } from '#api/services/payments/settle'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { ensureSettings, makeGame, makeProduct, makeServer, makeUser, onlyActive } from './orders-fixtures'

type Err = { detail: string; code: string }
type Desk = {
  count: number
  oldest_waiting_seconds: number | null
  results: Array<{
    id: string
    kind: string
    waiting_seconds: number
    overdue: boolean
    assignee: { email: string; locked: boolean } | null
    standoff: {
      game_account_id: string
      listing_price: string | null
      skin_name: string
      skin_listed: boolean
    } | null
    steam: { login: string; amount: string; currency: string; commission: string } | null
    supply: { user_id: string; server: { id: number; name: string } | null } | null
  }>
}
type Outcome = { id: string; status: string; changed: boolean; detail: string }

let api: TestApi
let deps: ApiDeps
let support: Awaited<ReturnType<typeof makeUser>>
let support2: Awaited<ReturnType<typeof makeUser>>
let owner: Awaited<ReturnType<typeof makeUser>>
let shopper: Awaited<ReturnType<typeof makeUser>>
let standoffGame: Awaited<ReturnType<typeof makeGame>>
let goldProduct: Awaited<ReturnType<typeof makeProduct>>
let steamGame: Awaited<ReturnType<typeof makeGame>>
let supplyGame: Awaited<ReturnType<typeof makeGame>>
let supplyProduct: Awaited<ReturnType<typeof makeProduct>>
let server: Awaited<ReturnType<typeof makeServer>>

beforeAll(async () => {
  // production: an https PUBLIC_URL and no sandbox payments
  api = await createTestApi({ env: { PUBLIC_URL: 'https://shop.example', SANDBOX_PAYMENTS: '0' } })
  deps = api.deps
  await ensureSettings(api)
  support = await makeStaff(api, 'support')
  support2 = await makeStaff(api, 'support')
  owner = await makeStaff(api, 'owner')
  shopper = await makeUser(api)
  standoffGame = await makeGame(api, 'StandoffGame', { supplier: 'manual', deliveryMinutes: 20 })
  goldProduct = await makeProduct(api, standoffGame.id, 'StandoffProduct', { price: 10000, gold: 100 })
  steamGame = await makeGame(api, 'Steam', { supplier: 'manual' })
  await onlyActive(api, 'Steam', steamGame.id)
  supplyGame = await makeGame(api, 'SupplyGame', {
    supplier: 'manual',
    isServerNeeded: true,
    isServerEnum: true,
  })
  supplyProduct = await makeProduct(api, supplyGame.id, 'SupplyProduct', { price: 5000 })
  server = await makeServer(api, supplyGame.id, 'Europe')
})
afterAll(() => api?.close())

/** Pays an order as a provider's verified callback would (the shop's one settlement path). */
async function payOrder(orderId: string) {
  const [o] = await api.db.select().from(orders).where(eq(orders.id, orderId))
  const paymentId = randomUUID()
  await api.db.insert(payments).values({
    id: paymentId,
    orderId,
    methodName: 'card',
    provider: 'payselection',
    amount: o!.totalToPay,
    currency: 'RUB',
  })
  const r = await settlePaymentSucceeded(deps, {
    paymentId,
    provider: 'payselection',
    eventKey: `test-${paymentId}`,
    amount: o!.totalToPay,
    currency: 'RUB',
  })
  expect(r.outcome).toBe('applied')
}

async function standoffOrder(surplus = '0.05', email = `so-${randomUUID().slice(0, 6)}@example.com`) {
  return api.call<{ id: string } & Err>('POST', '/api/orders/standoff/', {
    body: {
      products: [{ quantity: 1, product_id: goldProduct.id }],
      email,
      game_account_id: '51234567',
      surplus,
    },
  })
}

async function paidStandoff() {
  const r = await standoffOrder()
  expect(r.status).toBe(201)
  await payOrder(r.body.id)
  return r.body.id
}

const statusOf = async (id: string) =>
  (await api.call<{ status: string }>('GET', `/api/orders/status/${id}/`)).body.status
const desk = (token?: string) => api.call<Desk & Err>('GET', '/api/admin/delivery/?page_size=100', { token })
const act = (id: string, what: 'take' | 'delivered' | 'not_delivered', token?: string, body?: unknown) =>
  api.call<Outcome & Err>('POST', `/api/admin/orders/${id}/${what}/`, { token, body })
const mailJobs = (key: string) =>
  api.db
    .select()
    .from(jobs)
    .where(like(jobs.dedupeKey, `mail:${key}%`))

describe('manual delivery in production mode', () => {
  it('a paid Standoff, Steam and supply order of a manual game is sent and waits, never done by itself', async () => {
    const so = await paidStandoff()
    const steam = await api.call<{ id: string }>('POST', '/api/orders/steam/', {
      body: { amount: '500.00', steam_account_id: 'gaben', email: 'steam@example.com' },
    })
    expect(steam.status).toBe(201)
    await payOrder(steam.body.id)
    const supply = await api.call<{ id: string } & Err>('POST', '/api/orders/supply_channel/', {
      body: {
        products: [{ quantity: 2, product_id: supplyProduct.id }],
        email: 'supply@example.com',
        supply_channel_user_id: '777',
        supply_channel_server: server.id,
      },
    })
    expect(supply.status, supply.body.detail).toBe(201)
    await payOrder(supply.body.id)
    for (const id of [so, steam.body.id, supply.body.id]) {
      expect(await statusOf(id)).toBe('sent')
      const o = await api.call<{ status: string; awaiting_delivery_minutes: number | null }>(
        'GET',
        `/api/orders/${id}/`,
      )
      expect(o.body.status).toBe('sent')
      expect(o.body.awaiting_delivery_minutes).toBe(id === so ? 20 : 30)
      // the buyer's «оплачен — ожидает выдачи» mail, and no done mail
      expect(await mailJobs(`order_paid:${id}`)).toHaveLength(1)
      expect(await mailJobs(`order_done:${id}`)).toHaveLength(0)
    }
    const d = await desk(support.token)
    expect(d.status).toBe(200)
    const byId = new Map(d.body.results.map((r) => [r.id, r]))
    expect(byId.get(so)?.standoff).toMatchObject({ game_account_id: '51234567', skin_name: 'AKR "Carbon"' })
    // 100 G at a 5 % fee: 105.27 G (ceil) plus the surplus
    expect(byId.get(so)?.standoff?.listing_price).toMatch(/^105\.\d\d$/)
    expect(byId.get(steam.body.id)?.steam).toEqual({
      login: 'gaben',
      amount: '500.00',
      currency: 'RUB',
      commission: '40.00',
    })
    expect(byId.get(supply.body.id)?.supply).toMatchObject({
      user_id: '777',
      server: { id: server.id, name: 'Europe' },
    })
  })

  it('a game still saying sandbox is delivered by a person, and start-up moves it to manual', async () => {
    const g = await makeGame(api, 'StandoffGame', { supplier: 'sandbox' })
    const p = await makeProduct(api, g.id, 'StandoffProduct', { price: 10000, gold: 250 })
    const r = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
      body: {
        products: [{ quantity: 1, product_id: p.id }],
        email: 'sb@example.com',
        game_account_id: '5',
        surplus: '0.01',
      },
    })
    await payOrder(r.body.id)
    expect(await statusOf(r.body.id)).toBe('sent')
    const moved = await retireSandboxSuppliers(api.db, api.config)
    expect(moved).toContainEqual({ id: g.id, title: g.title })
    const [after] = await api.db.select({ supplier: games.supplier }).from(games).where(eq(games.id, g.id))
    expect(after?.supplier).toBe('manual')
    // with sandbox payments on (the demo) nothing is moved
    expect(await retireSandboxSuppliers(api.db, { sandboxPayments: true })).toEqual([])
  })

  it('the back-office refuses the sandbox supplier here and makes new games manual', async () => {
    const bad = await api.call<Err & { fields: Record<string, string[]> }>('POST', '/api/admin/games/', {
      token: owner.token,
      body: { kind: 'Steam', title: 'Steam sandbox', supplier: 'sandbox' },
    })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.body)).toContain('SANDBOX_PAYMENTS')
    const ok = await api.call<{ supplier: string; delivery_minutes: number }>('POST', '/api/admin/games/', {
      token: owner.token,
      body: { kind: 'Steam', title: 'Steam new' },
    })
    expect(ok.body).toMatchObject({ supplier: 'manual', delivery_minutes: 30 })
  })
})

describe('the delivery desk', () => {
  it('answers guests and shoppers 404, like every admin operation', async () => {
    const id = await paidStandoff()
    for (const token of [undefined, shopper.token]) {
      expect((await desk(token)).status).toBe(404)
      expect((await act(id, 'take', token)).status).toBe(404)
      expect((await act(id, 'delivered', token)).status).toBe(404)
      expect((await act(id, 'not_delivered', token, { reason: 'нет' })).status).toBe(404)
    }
    expect(await statusOf(id)).toBe('sent')
  })

  it('take locks an order to one operator; delivered makes it done once, with the done mail', async () => {
    const id = await paidStandoff()
    const t = await act(id, 'take', support.token)
    expect(t.body).toMatchObject({ status: 'sent', changed: true })
    expect((await act(id, 'take', support.token)).body.changed).toBe(false)
    const other = await act(id, 'take', support2.token)
    expect(other.status).toBe(409)
    expect(other.body.detail).toContain(support.email)
    expect((await act(id, 'delivered', support2.token)).status).toBe(409)
    const row = (await desk(support2.token)).body.results.find((r) => r.id === id)
    expect(row?.assignee).toMatchObject({ email: support.email, locked: true })
    const done = await act(id, 'delivered', support.token)
    expect(done.body).toMatchObject({ status: 'done', changed: true })
    const again = await act(id, 'delivered', support.token)
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ status: 'done', changed: false })
    expect(again.body.detail).toMatch(/уже/)
    expect(await statusOf(id)).toBe('done')
    expect(await mailJobs(`order_done:${id}`)).toHaveLength(1)
    expect((await desk(support.token)).body.results.some((r) => r.id === id)).toBe(false)
    const audits = await api.db.select().from(auditLog).where(eq(auditLog.entityId, id))
    expect(audits.map((a) => a.action).sort()).toEqual(['order.delivery_delivered', 'order.delivery_take'])
  })

  it('an owner reassigns an order another operator holds', async () => {
    const id = await paidStandoff()
    await act(id, 'take', support.token)
    expect((await act(id, 'take', owner.token)).body.changed).toBe(true)
    expect((await act(id, 'take', support.token)).status).toBe(409)
  })

  it('the lock ends after 15 minutes', async () => {
    const id = await paidStandoff()
    await act(id, 'take', support.token)
    await api.db
      .update(orders)
      .set({ takenAt: new Date(Date.now() - 16 * 60_000) })
      .where(eq(orders.id, id))
    expect((await act(id, 'take', support2.token)).body.changed).toBe(true)
  })

  it('not delivered fails the order with the reason and refunds it once', async () => {
    const buyer = await makeUser(api)
    const r = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
      token: buyer.token,
      body: {
        products: [{ quantity: 1, product_id: goldProduct.id }],
        game_account_id: '999',
        surplus: '0.02',
      },
    })
    await payOrder(r.body.id)
    expect((await act(r.body.id, 'not_delivered', support.token, {})).status).toBe(400)
    const out = await act(r.body.id, 'not_delivered', support.token, { reason: 'Игрок не выставил скин' })
    expect(out.body).toMatchObject({ status: 'failed', changed: true })
    const again = await act(r.body.id, 'not_delivered', support.token, { reason: 'ещё раз' })
    expect(again.body).toMatchObject({ status: 'failed', changed: false })
    const rs = await api.db.select().from(refunds).where(eq(refunds.orderId, r.body.id))
    expect(rs).toHaveLength(1)
    const [o] = await api.db.select().from(orders).where(eq(orders.id, r.body.id))
    expect(o?.rejectReason).toBe('Игрок не выставил скин')
    expect(await mailJobs(`order_failed:${r.body.id}`)).toHaveLength(1)
    expect((await act(r.body.id, 'delivered', support.token)).status).toBe(409)
  })
})

describe('Standoff listing price', () => {
  it('is fixed by the server when the order is paid for and shown to the buyer, who can say the skin is listed', async () => {
    const r = await standoffOrder('0.11')
    // nothing is claimed before a payment (issue 42): here the settlement claims it
    expect(
      (await api.call<{ listing_price: string | null }>('GET', `/api/orders/${r.body.id}/`)).body
        .listing_price,
    ).toBeNull()
    await payOrder(r.body.id)
    const o = await api.call<{ listing_price: string; surplus: string; skin_listed: boolean }>(
      'GET',
      `/api/orders/${r.body.id}/`,
    )
    expect(o.body.listing_price).toBe(`105.${String(27 + Number(o.body.surplus.slice(2))).padStart(2, '0')}`)
    expect(o.body.skin_listed).toBe(false)
    const listed = await api.call<{ changed: boolean }>(
      'POST',
      `/api/orders/standoff/${r.body.id}/skin_listed/`,
    )
    expect(listed.body.changed).toBe(true)
    expect(
      (await api.call<{ changed: boolean }>('POST', `/api/orders/standoff/${r.body.id}/skin_listed/`)).body
        .changed,
    ).toBe(false)
    const row = (await desk(support.token)).body.results.find((x) => x.id === r.body.id)
    expect(row?.standoff?.skin_listed).toBe(true)
  })

  it('50 concurrent orders of one pack are all taken: unpaid orders hold no listing price (issue 42)', async () => {
    const g = await makeGame(api, 'StandoffGame', { supplier: 'manual' })
    const p = await makeProduct(api, g.id, 'StandoffProduct', { price: 10000, gold: 777 })
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.call<{ id: string } & Err>('POST', '/api/orders/standoff/', {
          body: {
            products: [{ quantity: 1, product_id: p.id }],
            email: `race${i}@example.com`,
            game_account_id: String(1000 + i),
            surplus: '0.07',
          },
        }),
      ),
    )
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201))
    const rows = await api.db
      .select({ price: orders.listingPrice })
      .from(orders)
      .where(eq(orders.gameId, g.id))
    // the prices are claimed at payment start: tests/api/third-audit.test.ts
    expect(rows.every((r) => r.price === null)).toBe(true)
  })
})

describe('nobody waits unseen', () => {
  const jobOf = (orderId: string) => ({ id: 0, payload: { orderId } }) as unknown as JobRow

  it('the overdue notice goes to every staff member once', async () => {
    const id = await paidStandoff()
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `delivery_overdue:${id}`))
    // due at the game's promised time (20 min)
    expect(job!.runAt.getTime() - Date.now()).toBeGreaterThan(18 * 60_000)
    await deliveryOverdueJob(jobOf(id), deps)
    await deliveryOverdueJob(jobOf(id), deps)
    const mails = await mailJobs(`delivery_overdue:${id}:`)
    const to = mails.map((m) => m.payload.to)
    expect(to).toEqual(expect.arrayContaining([support.email, support2.email, owner.email]))
    expect(new Set(to).size).toBe(to.length)
    // delivered orders are not reported
    const id2 = await paidStandoff()
    await act(id2, 'delivered', owner.token)
    await deliveryOverdueJob(jobOf(id2), deps)
    expect(await mailJobs(`delivery_overdue:${id2}:`)).toHaveLength(0)
  })

  it('after DELIVERY_REFUND_HOURS the order fails and is refunded once, whatever restarts', async () => {
    const id = await paidStandoff()
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `delivery_refund:${id}`))
    expect(Math.round((job!.runAt.getTime() - Date.now()) / 3_600_000)).toBe(24)
    // a worker that died mid-run and another that picks the job up again: both run it
    await Promise.all([deliveryRefundJob(jobOf(id), deps), deliveryRefundJob(jobOf(id), deps)])
    await deliveryRefundJob(jobOf(id), deps)
    const [o] = await api.db.select().from(orders).where(eq(orders.id, id))
    expect(o?.status).toBe('failed')
    expect(o?.rejectReason).toBe('Заказ не выдан за 24 ч — деньги возвращены')
    expect(
      await api.db
        .select()
        .from(refunds)
        .where(and(eq(refunds.orderId, id), eq(refunds.kind, 'order'))),
    ).toHaveLength(1)
    expect(await mailJobs(`order_failed:${id}`)).toHaveLength(1)
  })
})
