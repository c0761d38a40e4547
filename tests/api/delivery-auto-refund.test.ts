// Automatic refunds of manual delivery that never surprise (issue 45, decision 125): staff are
// warned before; each game has its own «Автовозврат через N ч» or none; an order somebody took is
// never refunded by itself: at its deadline it goes to the owner (mail, the overview, the desk's
// filter), who chooses «Выдано» or a refund. Each job runs once whatever restarts.
import { randomUUID } from 'node:crypto'
import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { jobs, orders, payments, refunds } from '#api/db/schema'
import type { JobRow } from '#api/jobs/queue'
import {
  autoRefundHours,
  deliveryRefundJob,
  deliveryRefundWarningJob,
  warningTime,
} from '#api/services/delivery/handover'
import { hoursLeft } from '#api/services/delivery/waiting'
import { renderMail } from '#api/services/mail/render'
import { settlePaymentSucceeded } from '#api/services/payments/settle'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { ensureSettings, makeGame, makeProduct, type makeUser } from './orders-fixtures'

type DeskRow = {
  id: string
  assignee: { email: string } | null
  auto_refund: { due_at: string; seconds_left: number } | null
  escalated: boolean
}
type Desk = { count: number; escalated_count: number; results: DeskRow[] }

let api: TestApi
let deps: ApiDeps
let support: Awaited<ReturnType<typeof makeUser>>
let owner: Awaited<ReturnType<typeof makeUser>>
let productOf: Record<'default' | 'off' | 'six', number>

beforeAll(async () => {
  // production: an https PUBLIC_URL and no sandbox payments
  api = await createTestApi({ env: { PUBLIC_URL: 'https://shop.example', SANDBOX_PAYMENTS: '0' } })
  deps = api.deps
  await ensureSettings(api)
  support = await makeStaff(api, 'support')
  owner = await makeStaff(api, 'owner')
  const game = async (hours: number | null) => {
    const g = await makeGame(api, 'StandoffGame', { supplier: 'manual' })
    // the owner sets «Автовозврат через N ч» on the game's form (the back-office API)
    const r = await api.call('PATCH', `/api/admin/games/${g.id}/`, {
      token: owner.token,
      body: { auto_refund_hours: hours },
    })
    expect(r.status).toBe(200)
    return (await makeProduct(api, g.id, 'StandoffProduct', { price: 10000, gold: 100 })).id
  }
  productOf = { default: await game(null), off: await game(0), six: await game(6) }
})
afterAll(() => api?.close())

let surplus = 0
async function paidOrder(which: keyof typeof productOf) {
  surplus = (surplus + 1) % 23
  const r = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
    body: {
      products: [{ quantity: 1, product_id: productOf[which] }],
      email: `ar-${randomUUID().slice(0, 6)}@example.com`,
      game_account_id: '51234567',
      surplus: `0.${String(surplus).padStart(2, '0')}`,
    },
  })
  expect(r.status).toBe(201)
  const orderId = r.body.id
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
  const paid = await settlePaymentSucceeded(deps, {
    paymentId,
    provider: 'payselection',
    eventKey: `test-${paymentId}`,
    amount: o!.totalToPay,
    currency: 'RUB',
  })
  expect(paid.outcome).toBe('applied')
  return orderId
}

const jobOf = (orderId: string) => ({ id: 0, payload: { orderId } }) as unknown as JobRow
const jobRow = async (key: string) => (await api.db.select().from(jobs).where(eq(jobs.dedupeKey, key)))[0]
const mailsTo = async (key: string) =>
  (
    await api.db
      .select()
      .from(jobs)
      .where(like(jobs.dedupeKey, `mail:${key}%`))
  ).map((m) => m.payload.to)
const orderRefunds = (id: string) =>
  api.db
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, id), eq(refunds.kind, 'order')))
const orderRow = async (id: string) => (await api.db.select().from(orders).where(eq(orders.id, id)))[0]!
const desk = async (filter = 'all') =>
  (await api.call<Desk>('GET', `/api/admin/delivery/?page_size=100&filter=${filter}`, { token: owner.token }))
    .body
const hoursFromNow = (d: Date | string) => Math.round((new Date(d).getTime() - Date.now()) / 3_600_000)

describe('the refund clock rules (pure)', () => {
  it("uses the game's hours, the shop's when unset, none when 0", () => {
    expect(autoRefundHours(null, 24)).toBe(24)
    expect(autoRefundHours(undefined, 24)).toBe(24)
    expect(autoRefundHours(6, 24)).toBe(6)
    expect(autoRefundHours(0, 24)).toBeNull()
  })
  it('warns the set hours before, never before the hand-over; hours left round up', () => {
    const from = new Date('2026-12-01T10:00:00Z')
    const due = new Date('2026-12-02T10:00:00Z')
    expect(warningTime(from, due, 2).toISOString()).toBe('2026-12-02T08:00:00.000Z')
    expect(warningTime(from, new Date('2026-12-01T11:00:00Z'), 2)).toEqual(from)
    expect(hoursLeft(due, new Date('2026-12-02T08:00:00Z'))).toBe(2)
    expect(hoursLeft(due, new Date('2026-12-02T08:00:01Z'))).toBe(2)
    expect(hoursLeft(due, new Date('2026-12-02T09:00:00Z'))).toBe(1)
    expect(hoursLeft(due, new Date('2026-12-02T11:00:00Z'))).toBe(0)
  })
})

describe('automatic refunds of manual delivery', () => {
  it('an order nobody took: staff warned 2 h before, then failed and refunded once', async () => {
    const id = await paidOrder('default')
    // due at DELIVERY_REFUND_HOURS (24), the warning 2 h before
    expect(hoursFromNow((await orderRow(id)).refundDueAt!)).toBe(24)
    expect(hoursFromNow((await jobRow(`delivery_refund:${id}`))!.runAt)).toBe(24)
    expect(hoursFromNow((await jobRow(`delivery_refund_warning:${id}`))!.runAt)).toBe(22)
    // the desk shows the time left before the money goes back by itself
    const row = (await desk()).results.find((r) => r.id === id)!
    expect(row.assignee).toBeNull()
    expect(row.escalated).toBe(false)
    expect(Math.round(row.auto_refund!.seconds_left / 3600)).toBe(24)

    // the warning, run twice (a restart) and by a second instance: one mail per staff member
    await Promise.all([deliveryRefundWarningJob(jobOf(id), deps), deliveryRefundWarningJob(jobOf(id), deps)])
    await deliveryRefundWarningJob(jobOf(id), deps)
    const to = await mailsTo(`delivery_refund_warning:${id}:`)
    expect(to).toEqual(expect.arrayContaining([support.email, owner.email]))
    expect(new Set(to).size).toBe(to.length)
    const mail = await renderMail(
      'delivery_refund_warning',
      { orderId: id },
      {
        db: api.db,
        config: api.config,
        to: support.email,
        now: new Date(),
      },
    )
    expect(mail?.subject).toMatch(/деньги вернутся сами через 24 ч/)
    expect(mail?.text).toContain('Взятый заказ никогда не возвращается автоматически')
    expect(await orderRefunds(id)).toHaveLength(0)

    await Promise.all([deliveryRefundJob(jobOf(id), deps), deliveryRefundJob(jobOf(id), deps)])
    await deliveryRefundJob(jobOf(id), deps)
    const o = await orderRow(id)
    expect(o.status).toBe('failed')
    expect(o.rejectReason).toBe('Заказ не выдан за 24 ч — деньги возвращены')
    expect(o.escalatedAt).toBeNull()
    expect(await orderRefunds(id)).toHaveLength(1)
  })

  it('an order somebody took is escalated to the owner at its deadline, never refunded by itself', async () => {
    const id = await paidOrder('default')
    const take = await api.call('POST', `/api/admin/orders/${id}/take/`, { token: support.token })
    expect(take.status).toBe(200)
    // taken: no warning goes out (nothing will be refunded by itself)
    await deliveryRefundWarningJob(jobOf(id), deps)
    expect(await mailsTo(`delivery_refund_warning:${id}:`)).toHaveLength(0)

    await Promise.all([deliveryRefundJob(jobOf(id), deps), deliveryRefundJob(jobOf(id), deps)])
    await deliveryRefundJob(jobOf(id), deps)
    const o = await orderRow(id)
    expect(o.status).toBe('sent')
    expect(o.escalatedAt).not.toBeNull()
    expect(o.takenBy).toBe(support.id)
    expect(await orderRefunds(id)).toHaveLength(0)
    // the owners are told, once each; support is not
    const to = await mailsTo(`delivery_escalated:${id}:`)
    expect(to).toContain(owner.email)
    expect(to).not.toContain(support.email)
    expect(new Set(to).size).toBe(to.length)
    const mail = await renderMail(
      'delivery_escalated',
      { orderId: id },
      {
        db: api.db,
        config: api.config,
        to: owner.email,
        now: new Date(),
      },
    )
    expect(mail?.subject).toMatch(/взят, но не выдан в срок/)
    expect(mail?.text).toContain('/admin/delivery?filter=escalated')

    // the desk's filter and the overview's «нужен человек»
    const escalated = await desk('escalated')
    expect(escalated.results.map((r) => r.id)).toContain(id)
    expect(escalated.results.every((r) => r.escalated)).toBe(true)
    expect(escalated.count).toBe(escalated.escalated_count)
    expect((await desk()).escalated_count).toBe(escalated.count)
    const ov = await api.call<{ needs_attention: Array<{ id: string; waiting: string | null }> }>(
      'GET',
      '/api/admin/overview/?days=7',
      { token: owner.token },
    )
    expect(ov.body.needs_attention.find((a) => a.id === id)?.waiting).toBe('escalated')

    // the owner chooses: «Выдано»
    const done = await api.call<{ status: string }>('POST', `/api/admin/orders/${id}/delivered/`, {
      token: owner.token,
    })
    expect(done.body.status).toBe('done')
    expect(await orderRefunds(id)).toHaveLength(0)
    expect((await desk('escalated')).results.map((r) => r.id)).not.toContain(id)
  })

  it('the owner may choose a refund for an escalated order instead', async () => {
    const id = await paidOrder('default')
    await api.call('POST', `/api/admin/orders/${id}/take/`, { token: support.token })
    await deliveryRefundJob(jobOf(id), deps)
    const r = await api.call<{ status: string }>('POST', `/api/admin/orders/${id}/not_delivered/`, {
      token: owner.token,
      body: { reason: 'Пополнить не удалось' },
    })
    expect(r.body.status).toBe('failed')
    expect(await orderRefunds(id)).toHaveLength(1)
  })

  it("a game's own hours: due after 6 h, warned after 4 h", async () => {
    const id = await paidOrder('six')
    expect(hoursFromNow((await orderRow(id)).refundDueAt!)).toBe(6)
    expect(hoursFromNow((await jobRow(`delivery_refund:${id}`))!.runAt)).toBe(6)
    expect(hoursFromNow((await jobRow(`delivery_refund_warning:${id}`))!.runAt)).toBe(4)
    await deliveryRefundJob(jobOf(id), deps)
    expect((await orderRow(id)).rejectReason).toBe('Заказ не выдан за 6 ч — деньги возвращены')
  })

  it('a game with auto-refund off is never refunded automatically', async () => {
    const id = await paidOrder('off')
    expect((await orderRow(id)).refundDueAt).toBeNull()
    expect(await jobRow(`delivery_refund:${id}`)).toBeUndefined()
    expect(await jobRow(`delivery_refund_warning:${id}`)).toBeUndefined()
    const row = (await desk()).results.find((r) => r.id === id)!
    expect(row.auto_refund).toBeNull()
    // even a stray job (an old one from before the change) refunds nothing
    await deliveryRefundWarningJob(jobOf(id), deps)
    await deliveryRefundJob(jobOf(id), deps)
    const o = await orderRow(id)
    expect(o.status).toBe('sent')
    expect(o.escalatedAt).toBeNull()
    expect(await orderRefunds(id)).toHaveLength(0)
    expect(await mailsTo(`delivery_refund_warning:${id}:`)).toHaveLength(0)
  })

  it("refuses a game's hours outside 0–720 with a message, and shows what is set", async () => {
    const g = await makeGame(api, 'StandoffGame', { supplier: 'manual' })
    for (const bad of [-1, 721, 1.5, 'много']) {
      const r = await api.call<{ detail: string }>('PATCH', `/api/admin/games/${g.id}/`, {
        token: owner.token,
        body: { auto_refund_hours: bad },
      })
      expect(r.status).toBe(400)
      expect(r.body.detail).toMatch(/[а-я]/)
    }
    const ok = await api.call<{ auto_refund_hours: number | null }>('PATCH', `/api/admin/games/${g.id}/`, {
      token: owner.token,
      body: { auto_refund_hours: 12 },
    })
    expect(ok.body.auto_refund_hours).toBe(12)
  })
})
