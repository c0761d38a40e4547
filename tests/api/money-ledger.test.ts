// The balance ledger's answers (api/src/services/balance/ledger.ts, cashback.ts) where the
// checkout tests do not look: what a cashback credit reports, a guest's gift, and a database error
// that is not a low balance. Written against mutation-run survivors (decision 035).
import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { balanceEntries, giftCodes, gifts, users } from '#api/db/schema'
import { creditGiftCashback } from '#api/services/balance/cashback'
import { postBalanceEntry } from '#api/services/balance/ledger'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { type Err, makeUser } from './orders-fixtures'

let api: TestApi

beforeAll(async () => {
  api = await createTestApi()
})
afterAll(() => api?.close())

async function balanceOf(userId: number) {
  const [u] = await api.db.select({ balance: users.balance }).from(users).where(eq(users.id, userId))
  return u!.balance
}

async function addGift(cashback: number, price: number) {
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
  await api.db
    .insert(giftCodes)
    .values({ giftId: g!.id, code: `ML-${g!.id}-${randomBytes(3).toString('hex')}` })
  return g!.id
}

async function giftOrder(giftId: number, token?: string) {
  const r = await api.call<{ id: string } & Err>('POST', '/api/orders/rokky/', {
    body: token
      ? { gift: giftId }
      : { gift: giftId, email: `guest-${randomBytes(3).toString('hex')}@example.com` },
    token,
  })
  expect(r.status).toBe(201)
  return r.body.id
}

describe('creditGiftCashback answers what it credited', () => {
  it('the amount on the first credit, 0 on a repeat; the balance moves once', async () => {
    const u = await makeUser(api)
    const orderId = await giftOrder(await addGift(4, 12_345), u.token)
    // 4 % of 123.45 = 4.938 → 4.93
    expect(await api.db.transaction((tx) => creditGiftCashback(tx, orderId))).toBe(493)
    expect(await api.db.transaction((tx) => creditGiftCashback(tx, orderId))).toBe(0)
    expect(await balanceOf(u.id)).toBe(493)
  })

  it('0 for a guest’s gift, and nothing is written', async () => {
    const orderId = await giftOrder(await addGift(5, 10_000))
    expect(await api.db.transaction((tx) => creditGiftCashback(tx, orderId))).toBe(0)
    expect(await api.db.select().from(balanceEntries).where(eq(balanceEntries.orderId, orderId))).toEqual([])
  })
})

describe('postBalanceEntry', () => {
  it('lets a database error through instead of calling it an insufficient balance', async () => {
    // no such user: the entry's foreign key refuses it; that is a bug to see, not a low balance
    const missing = 2_000_000_000
    await expect(
      postBalanceEntry(api.db, { userId: missing, kind: 'correction', amount: 100, cause: `fk-${missing}` }),
    ).rejects.toThrow()
    expect(await api.db.select().from(balanceEntries).where(eq(balanceEntries.userId, missing))).toEqual([])
  })
})
