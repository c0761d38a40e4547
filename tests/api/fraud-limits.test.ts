// Fraud limits (issue 34): velocity limits on order creation and payment starts (per address and
// per email, 429 + Retry-After), the risk rules at payment success holding an order for review (no
// code through any endpoint until approved), approve / reject with replays, and block lists.
import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auditLog, blockList, jobs, refunds, voucherCodes } from '#api/db/schema'
import { signLookupToken } from '#api/services/mail/lookup-token'
import type { MailTemplate } from '#api/services/mail/outbox'
import { renderMail } from '#api/services/mail/render'
import { reviewOverdueJob } from '#api/services/risk/review'
import { RISK_RULES } from '#api/services/risk/settings'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import type { makeUser } from './orders-fixtures'
import {
  type Err,
  hex,
  makePubgStock,
  makeSandboxMethod,
  pay,
  pressOnCheckout,
  status,
} from './payments-fixtures'

// the shop's defaults (the test helper lifts them for every other test)
const DEFAULTS = {
  ORDER_LIMIT_PER_ADDRESS: '30',
  ORDER_LIMIT_PER_EMAIL: '10',
  PAYMENT_LIMIT_PER_ADDRESS: '30',
  PAYMENT_LIMIT_PER_EMAIL: '10',
  RISK_RULES: RISK_RULES.join(','),
}

let api: TestApi
let method: string
let cheap: number
let dear: number
let support: Awaited<ReturnType<typeof makeUser>>
let ip = 0
const from = () => ({ 'x-shop-client-ip': `10.34.${Math.floor(++ip / 250)}.${ip % 250}` })

beforeAll(async () => {
  api = await createTestApi({ env: DEFAULTS })
  method = (await makeSandboxMethod(api, 'redirect')).method.name
  cheap = (await makePubgStock(api, { codes: 50, price: 9900 })).product.id
  // 3,500 ₽: over the first-order threshold of 3,000 ₽
  dear = (await makePubgStock(api, { codes: 50, price: 350000 })).product.id
  support = await makeStaff(api, 'support')
})
afterAll(() => api?.close())

const order = (productId: number, email: string, headers: Record<string, string> = from()) =>
  api.call<{ id: string } & Err>('POST', '/api/orders/pubg/', {
    body: { products: [{ product_id: productId, quantity: 1 }], email },
    headers,
  })

/** Orders and pays with the sandbox from a fresh address; the order id. */
async function buy(productId: number, email: string) {
  const headers = from()
  const o = await order(productId, email, headers)
  expect(o.status).toBe(201)
  const p = await api.call<{ payment_id: string }>('POST', `/api/payments/${method}/`, {
    body: { order_id: o.body.id, currency: 'RUB', email: null, phone: null },
    headers,
  })
  expect(p.status).toBe(200)
  expect((await pressOnCheckout(api, p.body.payment_id, 'confirm')).status).toBe(303)
  return o.body.id
}

/**
 * Every place a buyer could see a code: the order, its status, the guest look-up link, the mails
 * queued for the order (rendered as they would be sent). Returns the codes found and the mails.
 */
async function exposure(id: string, email: string) {
  const seen: string[] = []
  const look = (v: unknown) => seen.push(...(JSON.stringify(v).match(/T-[0-9a-f]{12}-\d+/g) ?? []))
  look((await api.call('GET', `/api/orders/${id}/`)).body)
  look((await status(api, id)).body)
  const token = await signLookupToken(api.config.jwtSecret, email)
  look((await api.call('GET', `/api/orders/lookup/${token}/`)).body)
  const queued = await api.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, 'mail.send'), like(jobs.dedupeKey, `%${id}%`)))
  const mails: string[] = []
  for (const m of queued) {
    const p = m.payload as { template: MailTemplate; data: never }
    mails.push(p.template)
    const out = await renderMail(p.template, p.data, {
      db: api.db,
      config: api.config,
      to: email,
      now: new Date(),
    })
    look(out)
  }
  return { codes: [...new Set(seen)].length, mails: mails.sort() }
}

describe('velocity limits', () => {
  it('200 orders from one address: 429 after 30 with Retry-After and a Russian message; another address is unaffected', async () => {
    const one = { 'x-shop-client-ip': '203.0.113.7' }
    const answers: number[] = []
    let refused: Awaited<ReturnType<typeof order>> | null = null
    for (let i = 0; i < 200; i++) {
      const r = await order(cheap, `v-${hex()}@example.com`, one)
      answers.push(r.status)
      if (r.status === 429) refused ??= r
    }
    expect(answers.filter((s) => s === 201)).toHaveLength(30)
    expect(answers.slice(30).every((s) => s === 429)).toBe(true)
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refused!.body.detail).toMatch(/Слишком много попыток/)
    expect((await order(cheap, `v-${hex()}@example.com`, { 'x-shop-client-ip': '203.0.113.8' })).status).toBe(
      201,
    )
  })

  it('10 orders per email in 10 minutes, whatever the address', async () => {
    const email = `same-${hex()}@example.com`
    const answers = []
    for (let i = 0; i < 12; i++) answers.push((await order(cheap, email)).status)
    expect(answers).toEqual([...Array(10).fill(201), 429, 429])
  })

  it('payment starts: 10 per email', async () => {
    const email = `pay-${hex()}@example.com`
    const headers = from()
    const ids: string[] = []
    for (let i = 0; i < 2; i++) ids.push((await order(cheap, email, headers)).body.id)
    const answers = []
    for (let i = 0; i < 11; i++) answers.push((await pay(api, method, ids[i % 2]!)).status)
    expect(answers.slice(0, 10).every((s) => s === 200)).toBe(true)
    expect(answers[10]).toBe(429)
  })
})

describe('review before delivery', () => {
  it('a first order over 3,000 ₽ is paid but held: no code anywhere, the «на проверке» mail; approve delivers once', async () => {
    const email = `first-${hex()}@example.com`
    const id = await buy(dear, email)
    const s = await status(api, id)
    expect(s.body).toMatchObject({ status: 'paid', payment_status: 'succeeded', on_review: true })
    expect(await exposure(id, email)).toEqual({ codes: 0, mails: ['order_held'] })
    // the buyer's «на проверке» mail: its subject and its first sentence start with a capital
    const held = await renderMail('order_held', { orderId: id } as never, {
      db: api.db,
      config: api.config,
      to: email,
      now: new Date(),
    })
    expect(held?.subject).toMatch(/^Заказ № \d+ на проверке$/)
    expect(held?.text).toMatch(/Ваш заказ № \d+ от .+ оплачен\. Заказ на проверке/)
    expect(held?.text).not.toMatch(/(^|[.!?]\s+)заказ №/m)

    // the desk's «Проверка» queue shows it with the rule that tripped
    const queue = await api.call<{ results: Array<{ id: string; rules: string[] }> }>(
      'GET',
      '/api/admin/reviews/',
      {
        token: support.token,
      },
    )
    expect(queue.body.results.find((r) => r.id === id)?.rules).toEqual(['first_order_over'])
    // the hold as it is (issue 47): its code is put aside about 30 days; once that lapses, it says so
    type Hold = { id: string; codes_hold?: string; codes_held_until?: string | null }
    const holdOf = async () =>
      (
        await api.call<{ results: Hold[] }>('GET', '/api/admin/reviews/', { token: support.token })
      ).body.results.find((r) => r.id === id)
    const heldFor = await holdOf()
    expect(heldFor?.codes_hold).toBe('held')
    expect(new Date(heldFor!.codes_held_until!).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000)
    const [code] = await api.db.select().from(voucherCodes).where(eq(voucherCodes.heldBy, id))
    await api.db
      .update(voucherCodes)
      .set({ heldUntil: new Date(Date.now() - 60_000) })
      .where(eq(voucherCodes.id, code!.id))
    expect(await holdOf()).toMatchObject({ codes_hold: 'lapsed' })
    await api.db.update(voucherCodes).set({ heldUntil: code!.heldUntil }).where(eq(voucherCodes.id, code!.id))
    // shoppers and guests cannot decide
    expect((await api.call('POST', `/api/admin/orders/${id}/approve/`)).status).toBe(404)
    const first = await api.call<{ changed: boolean; status: string }>(
      'POST',
      `/api/admin/orders/${id}/approve/`,
      {
        token: support.token,
      },
    )
    expect(first.body).toMatchObject({ changed: true, status: 'done' })
    const again = await api.call<{ changed: boolean }>('POST', `/api/admin/orders/${id}/approve/`, {
      token: support.token,
    })
    expect(again.body.changed).toBe(false)
    expect(await exposure(id, email)).toEqual({ codes: 1, mails: ['order_done', 'order_held'] })
    expect((await status(api, id)).body.on_review).toBeUndefined()
    const audits = await api.db.select().from(auditLog).where(eq(auditLog.entityId, id))
    expect(audits.map((a) => a.action)).toEqual(['order.review_approve'])
  })

  it('reject fails the order with a neutral reason and refunds it once, under replays', async () => {
    const email = `rej-${hex()}@example.com`
    const id = await buy(dear, email)
    const body = { reason: 'карта из списка украденных' }
    const r1 = await api.call<{ changed: boolean; status: string }>(
      'POST',
      `/api/admin/orders/${id}/reject/`,
      {
        token: support.token,
        body,
      },
    )
    const r2 = await api.call<{ changed: boolean }>('POST', `/api/admin/orders/${id}/reject/`, {
      token: support.token,
      body,
    })
    expect(r1.body).toMatchObject({ changed: true, status: 'failed' })
    expect(r2.body.changed).toBe(false)
    const s = await api.call<{ status: string; reject_reason: string; refund: unknown }>(
      'GET',
      `/api/orders/status/${id}/`,
    )
    expect(s.body.status).toBe('failed')
    expect(s.body.reject_reason).not.toMatch(/украд/)
    expect(s.body.refund).not.toBeNull()
    expect(await api.db.select().from(refunds).where(eq(refunds.orderId, id))).toHaveLength(1)
    expect((await exposure(id, email)).codes).toBe(0)
    // approving a rejected order is refused
    const late = await api.call<Err>('POST', `/api/admin/orders/${id}/approve/`, { token: support.token })
    expect(late.status).toBe(409)
  })

  it('a normal repeat buyer over the sum is not held; a disposable domain and a 4th paid order in an hour are', async () => {
    const email = `repeat-${hex()}@example.com`
    const a = await buy(cheap, email)
    expect((await status(api, a)).body.status).toBe('done')
    const b = await buy(dear, email)
    expect((await status(api, b)).body).toMatchObject({ status: 'done' })
    const c = await buy(cheap, email)
    expect((await status(api, c)).body.status).toBe('done')
    // the fourth paid order of one email within the hour (default: more than 3)
    const d = await buy(cheap, email)
    expect((await status(api, d)).body).toMatchObject({ status: 'paid', on_review: true })

    const throwaway = await buy(cheap, `x-${hex()}@mailinator.com`)
    expect((await status(api, throwaway)).body).toMatchObject({ status: 'paid', on_review: true })
  })

  it('an order still held 30 minutes on mails every staff member once', async () => {
    const id = await buy(dear, `late-${hex()}@example.com`)
    const job = { payload: { orderId: id } } as unknown as Parameters<typeof reviewOverdueJob>[0]
    const deps = api.deps
    await reviewOverdueJob(job, deps)
    await reviewOverdueJob(job, deps)
    const mails = await api.db
      .select()
      .from(jobs)
      .where(like(jobs.dedupeKey, `mail:review_overdue:${id}:%`))
    expect(mails.map((m) => m.dedupeKey)).toContain(
      `mail:review_overdue:${id}:${support.email.toLowerCase()}`,
    )
    expect(new Set(mails.map((m) => m.dedupeKey)).size).toBe(mails.length)
  })
})

describe('block lists', () => {
  it('a blocked email, domain and network are refused with a neutral message', async () => {
    await api.db.insert(blockList).values([
      { kind: 'email', value: 'thief@example.com' },
      { kind: 'domain', value: 'stolen.example' },
      { kind: 'network', value: '198.51.100.0/24' },
    ])
    for (const [email, addr] of [
      ['thief@example.com', '192.0.2.1'],
      [`a-${hex()}@stolen.example`, '192.0.2.2'],
      [`b-${hex()}@example.com`, '198.51.100.77'],
    ] as const) {
      const r = await order(cheap, email, { 'x-shop-client-ip': addr })
      expect(r.status).toBe(403)
      expect(r.body.code).toBe('buyer_blocked')
      expect(r.body.detail).not.toMatch(/блок|список/i)
    }
    expect(
      (await order(cheap, `ok-${hex()}@example.com`, { 'x-shop-client-ip': '198.51.101.1' })).status,
    ).toBe(201)
  })
})

describe('«Антифрод» settings', () => {
  it('owners read and change the limits (audited); a changed limit is in force at once; support is refused', async () => {
    const owner = await makeStaff(api, 'owner')
    const got = await api.call<Record<string, unknown>>('GET', '/api/admin/antifraud/', {
      token: owner.token,
    })
    expect(got.body).toMatchObject({ order_per_address: 30, order_per_email: 10, first_order_over: 300000 })
    expect((await api.call('GET', '/api/admin/antifraud/', { token: support.token })).status).toBe(403)
    const put = await api.call<Record<string, unknown>>('PUT', '/api/admin/antifraud/', {
      token: owner.token,
      body: { ...got.body, order_per_email: 2 },
    })
    expect(put.body.order_per_email).toBe(2)
    const email = `tight-${hex()}@example.com`
    const answers = []
    for (let i = 0; i < 3; i++) answers.push((await order(cheap, email)).status)
    expect(answers).toEqual([201, 201, 429])
    const audits = await api.db.select().from(auditLog).where(eq(auditLog.action, 'antifraud.update'))
    expect(audits).toHaveLength(1)
    await api.call('PUT', '/api/admin/antifraud/', { token: owner.token, body: got.body })
  })
})
