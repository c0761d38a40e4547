// The balance ledger (issue 12): every change of a balance is an entry tied to its cause and
// written once; the balance is their sum and never goes below zero, however many transactions
// spend it at once; a signed-in buyer's gift earns its cashback once when it is done; the
// profile lists the history.
import { randomBytes } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { balanceEntries, giftCodes, gifts, users } from '#api/db/schema'
import { creditGiftCashback } from '#api/services/balance/cashback'
import { postBalanceEntry } from '#api/services/balance/ledger'
import { fulfilOrder } from '#api/services/fulfilment'
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
  type PayAnswer,
} from './payments-fixtures'

let api: TestApi
let deps: ApiDeps
let method: string

beforeAll(async () => {
  api = await createTestApi()
  deps = api.deps
  method = (await makeSandboxMethod(api, 'redirect')).method.name
})
afterAll(() => api?.close())

async function balanceOf(userId: number) {
  const [u] = await api.db.select({ balance: users.balance }).from(users).where(eq(users.id, userId))
  return u!.balance
}

async function entriesOf(userId: number) {
  return api.db.select().from(balanceEntries).where(eq(balanceEntries.userId, userId))
}

/** The invariant: the cached balance is the sum of the entries, and not negative. */
async function expectLedgerConsistent(userId: number) {
  const [sum] = await api.db
    .select({ n: sql<string>`coalesce(sum(${balanceEntries.amount}), 0)` })
    .from(balanceEntries)
    .where(eq(balanceEntries.userId, userId))
  const balance = await balanceOf(userId)
  expect(balance).toBe(Number(sum!.n))
  expect(balance).toBeGreaterThanOrEqual(0)
}

describe('ledger entries', () => {
  it('writes each cause once and keeps the balance as the sum', async () => {
    const u = await makeUser(api)
    const cause = `c-${randomBytes(4).toString('hex')}`
    expect(await postBalanceEntry(api.db, { userId: u.id, kind: 'correction', amount: 5000, cause })).toBe(
      'posted',
    )
    expect(await postBalanceEntry(api.db, { userId: u.id, kind: 'correction', amount: 5000, cause })).toBe(
      'duplicate',
    )
    expect(await postBalanceEntry(api.db, { userId: u.id, kind: 'spend', amount: 1999, cause })).toBe(
      'posted',
    )
    expect(await balanceOf(u.id)).toBe(3001)
    const rows = await entriesOf(u.id)
    expect(rows.map((r) => [r.kind, r.amount]).sort()).toEqual([
      ['correction', 5000],
      ['spend', -1999],
    ])
    await expectLedgerConsistent(u.id)
  })

  it('refuses a spend beyond the balance and leaves no entry behind', async () => {
    const u = await makeUser(api, { balance: 1000 })
    expect(
      await postBalanceEntry(api.db, { userId: u.id, kind: 'spend', amount: 1001, cause: `x-${u.id}` }),
    ).toBe('insufficient')
    expect(
      await postBalanceEntry(api.db, { userId: u.id, kind: 'correction', amount: -1001, cause: `y-${u.id}` }),
    ).toBe('insufficient')
    expect(await balanceOf(u.id)).toBe(1000)
    expect(await entriesOf(u.id)).toHaveLength(1)
    // the exact balance can be spent to zero
    expect(
      await postBalanceEntry(api.db, { userId: u.id, kind: 'spend', amount: 1000, cause: `z-${u.id}` }),
    ).toBe('posted')
    expect(await balanceOf(u.id)).toBe(0)
    await expectLedgerConsistent(u.id)
  })

  it('the database itself refuses a negative balance', async () => {
    const u = await makeUser(api)
    await expect(api.db.update(users).set({ balance: -1 }).where(eq(users.id, u.id))).rejects.toThrow()
    expect(await balanceOf(u.id)).toBe(0)
  })

  it('never goes negative under 60 concurrent spends of one balance', async () => {
    const u = await makeUser(api, { balance: 10_000 })
    const outcomes = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        api.db.transaction((tx) =>
          postBalanceEntry(tx, { userId: u.id, kind: 'spend', amount: 300, cause: `race-${u.id}-${i}` }),
        ),
      ),
    )
    // 10 000 / 300: exactly 33 spends fit, whatever order they ran in
    expect(outcomes.filter((o) => o === 'posted')).toHaveLength(33)
    expect(outcomes.filter((o) => o === 'insufficient')).toHaveLength(27)
    expect(await balanceOf(u.id)).toBe(100)
    await expectLedgerConsistent(u.id)
  })

  it('concurrent checkouts spend one balance once: the others are refused or pay the rest', async () => {
    const u = await makeUser(api, { balance: 10_000 })
    const { product } = await makePubgStock(api, { codes: 20, price: 9900 })
    const ids: string[] = []
    for (let i = 0; i < 8; i++) ids.push(await createPubgOrder(api, product.id, { token: u.token }))
    const answers = await Promise.all(ids.map((id) => payAs(id, u.token)))
    for (const a of answers) expect([200, 409]).toContain(a.status)
    const rows = await Promise.all(ids.map((id) => orderRow(api, id)))
    const paidWithBalance = rows.filter((r) => r.paidAt !== null)
    // one order is covered by the balance and paid at once; nobody else spent it
    expect(paidWithBalance).toHaveLength(1)
    expect(paidWithBalance[0]!.balanceUsed).toBe(9900)
    expect(await balanceOf(u.id)).toBe(100)
    const spends = (await entriesOf(u.id)).filter((e) => e.kind === 'spend')
    expect(spends).toEqual([expect.objectContaining({ amount: -9900, cause: paidWithBalance[0]!.id })])
    await expectLedgerConsistent(u.id)
  })
})

async function addGift(cashback: number, price = 50_000) {
  const [g] = await api.db
    .insert(gifts)
    .values({
      title: `Карта ${randomBytes(3).toString('hex')}`,
      type: 'Карта',
      region: 'Россия',
      price,
      cashback,
    })
    .returning({ id: gifts.id })
  await api.db.insert(giftCodes).values(
    Array.from({ length: 5 }, (_, i) => ({
      giftId: g!.id,
      code: `CB-${g!.id}-${i}-${randomBytes(3).toString('hex')}`,
    })),
  )
  return g!.id
}

const payAs = (orderId: string, token?: string) =>
  api.call<PayAnswer & Err>('POST', `/api/payments/${method}/`, {
    body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
    token,
  })

/** A gift order paid through the sandbox checkout; returns the order id and the confirm form. */
async function buyGift(giftId: number, token?: string) {
  const r = await api.call<{ id: string } & Err>('POST', '/api/orders/rokky/', {
    body: token ? { gift: giftId } : { gift: giftId, email: 'guest-gift@example.com' },
    token,
  })
  expect(r.status).toBe(201)
  const p = await payAs(r.body.id, token)
  expect(p.status).toBe(200)
  if (p.body.type === 'wait_order_state')
    return { orderId: r.body.id, paymentId: p.body.payment_id, fields: {} }
  const page = await api.app.request(`/api/payments/sandbox/checkout/${p.body.payment_id}/`)
  const fields = formFields(await page.text(), 'confirm')
  return { orderId: r.body.id, paymentId: p.body.payment_id, fields }
}

describe('gift cashback', () => {
  it('credits the gift’s percent of what was paid once, whatever callbacks are replayed', async () => {
    const u = await makeUser(api)
    const giftId = await addGift(3)
    const { orderId, paymentId, fields } = await buyGift(giftId, u.token)
    // the provider calls back three times at once, then once more
    const first = await Promise.all([1, 2, 3].map(() => checkoutPost(api, paymentId, 'confirm', fields)))
    for (const r of first) expect(r.status).toBe(303)
    expect((await checkoutPost(api, paymentId, 'confirm', fields)).status).toBe(303)
    expect((await orderRow(api, orderId)).status).toBe('done')
    // a retried fulfilment, a second worker and a direct second credit change nothing
    await Promise.all([fulfilOrder(deps, orderId), fulfilOrder(deps, orderId)])
    expect(await api.db.transaction((tx) => creditGiftCashback(tx, orderId))).toBe(0)
    // 3 % of 500.00
    expect(await balanceOf(u.id)).toBe(1500)
    const entries = await entriesOf(u.id)
    expect(entries).toEqual([
      expect.objectContaining({ kind: 'cashback', amount: 1500, cause: orderId, orderId }),
    ])
    await expectLedgerConsistent(u.id)
  })

  it('counts only what was paid (after the balance), rounding down', async () => {
    const u = await makeUser(api, { balance: 33 })
    const giftId = await addGift(7, 10_001)
    const { orderId, paymentId, fields } = await buyGift(giftId, u.token)
    expect((await checkoutPost(api, paymentId, 'confirm', fields)).status).toBe(303)
    const row = await orderRow(api, orderId)
    expect(row).toMatchObject({ status: 'done', balanceUsed: 33, totalToPay: 9968 })
    // 7 % of 99.68 = 6.9776 → 6.97; the balance: 0.33 spent, 6.97 back
    expect(await balanceOf(u.id)).toBe(697)
    await expectLedgerConsistent(u.id)
  })

  it('credits nothing to guests, nor for a gift without cashback, nor before the order is done', async () => {
    const guest = await buyGift(await addGift(5))
    expect((await checkoutPost(api, guest.paymentId, 'confirm', guest.fields)).status).toBe(303)
    // the guest's order is delivered like any other; only the cashback is skipped
    expect((await orderRow(api, guest.orderId)).status).toBe('done')
    expect(
      await api.db.select().from(balanceEntries).where(eq(balanceEntries.orderId, guest.orderId)),
    ).toEqual([])

    const u = await makeUser(api)
    const none = await buyGift(await addGift(0), u.token)
    expect((await checkoutPost(api, none.paymentId, 'confirm', none.fields)).status).toBe(303)
    expect((await orderRow(api, none.orderId)).status).toBe('done')
    expect(await entriesOf(u.id)).toEqual([])

    // a PUBG order that becomes done earns no cashback either
    const { product } = await makePubgStock(api, { codes: 2 })
    const pubg = await createPubgOrder(api, product.id, { token: u.token })
    const p = await payAs(pubg, u.token)
    const page = await api.app.request(`/api/payments/sandbox/checkout/${p.body.payment_id}/`)
    await checkoutPost(api, p.body.payment_id, 'confirm', formFields(await page.text(), 'confirm'))
    expect((await orderRow(api, pubg)).status).toBe('done')
    expect(await entriesOf(u.id)).toEqual([])
  })
})

type HistoryPage = {
  count: number
  next: string | null
  previous: string | null
  results: Array<{
    id: number
    kind: string
    amount: string
    order_id: string | null
    order_number?: number | null
    created: string
  }>
}

describe('GET /api/profile/balance_history/', () => {
  it('lists only the caller’s entries, newest first, paged, signed money strings', async () => {
    const u = await makeUser(api, { balance: 20_000 })
    const other = await makeUser(api, { balance: 500 })
    const giftId = await addGift(10, 10_000)
    const { orderId } = await buyGift(giftId, u.token)
    // 200.00 on the balance covers the 100.00 gift: paid at once, no checkout needed
    const row = await orderRow(api, orderId)
    expect(row).toMatchObject({ status: 'done', balanceUsed: 10_000, totalToPay: 0 })

    const all = await api.call<HistoryPage>('GET', '/api/profile/balance_history/', { token: u.token })
    expect(all.status).toBe(200)
    expect(all.body.count).toBe(2)
    expect(all.body.results.map((e) => [e.kind, e.amount, e.order_id])).toEqual([
      ['spend', '-100.00', orderId],
      ['correction', '200.00', null],
    ])
    // the order's short number people read (decision 135), none for a correction
    expect(all.body.results.map((e) => e.order_number)).toEqual([row!.number, null])
    const first = await api.call<HistoryPage>('GET', '/api/profile/balance_history/?limit=1', {
      token: u.token,
    })
    expect(first.body.results).toHaveLength(1)
    expect(first.body.next).toBe('/api/profile/balance_history/?limit=1&offset=1')
    const second = await api.call<HistoryPage>('GET', first.body.next!, { token: u.token })
    expect(second.body.results[0]!.kind).toBe('correction')
    expect(second.body.next).toBeNull()

    const theirs = await api.call<HistoryPage>('GET', '/api/profile/balance_history/', { token: other.token })
    expect(theirs.body.results.map((e) => e.amount)).toEqual(['5.00'])
  })

  it('needs a sign-in (401) and refuses bad paging (400) in Russian', async () => {
    const anon = await api.call<Err>('GET', '/api/profile/balance_history/')
    expect(anon.status).toBe(401)
    const u = await makeUser(api)
    for (const q of ['limit=0', 'limit=abc', 'offset=-1', 'limit=1000']) {
      const r = await api.call<Err>('GET', `/api/profile/balance_history/?${q}`, { token: u.token })
      expect(r.status).toBe(400)
      expect(JSON.stringify(r.body)).toMatch(/[а-я]/)
    }
  })
})
