// The promo eligibility rule at its boundaries (the moment a code expires, the last use, an address
// spelled differently, a code typed with spaces) and the redemption written when an order is paid.
// Written against the survivors of `npm run test:mutation` (docs/decisions/035-mutation-testing.md).
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { games, gifts, orders, promoCodes, promoRedemptions, users } from '#api/db/schema'
import type { OrderRow } from '#api/services/orders/access'
import { recordPromoRedemption } from '#api/services/promo/redemption'
import {
  assertPromoFitsOrder,
  assertPromoUsable,
  findPromo,
  findUsablePromo,
  type PromoRow,
  serializePromo,
} from '#api/services/promo/rules'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeUser } from './orders-fixtures'
import { hex } from './payments-fixtures'

let api: TestApi
let gameId: number
let giftId: number
beforeAll(async () => {
  api = await createTestApi({ seed: false })
  const [g] = await api.db.insert(games).values({ kind: 'PUBGGame', title: 'Игра П' }).returning()
  gameId = g!.id
  const [gift] = await api.db
    .insert(gifts)
    .values({ title: 'Подарок Г', type: 'steam', price: 10000, region: 'RU' })
    .returning()
  giftId = gift!.id
})
afterAll(() => api.close())

async function addPromo(values: Partial<typeof promoCodes.$inferInsert> = {}): Promise<PromoRow> {
  const [p] = await api.db
    .insert(promoCodes)
    .values({ code: `R${hex(4)}`, kind: 'PromoCode', percent: 10, gameId, ...values })
    .returning()
  return p!
}

async function addOrder(values: Partial<typeof orders.$inferInsert> = {}): Promise<OrderRow> {
  const [o] = await api.db
    .insert(orders)
    .values({ id: randomUUID(), kind: 'PUBGOrder', gameId, total: 10000, totalToPay: 10000, ...values })
    .returning()
  return o!
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'usable',
    (e: { code?: string; status?: number }) => `${e.status} ${e.code}`,
  )

describe('assertPromoUsable', () => {
  it('a code is expired from the moment it expires, not a millisecond later', async () => {
    const at = new Date('2030-01-01T00:00:00Z')
    const promo = await addPromo({ expiresAt: at })
    const check = (now: Date) => refusal(assertPromoUsable(api.db, promo, { email: null, now }))
    expect(await check(new Date(at.getTime() - 1))).toBe('usable')
    expect(await check(at)).toBe('400 promo_code_expired')
    expect(await check(new Date(at.getTime() + 1))).toBe('400 promo_code_expired')
    // without a `now`, the clock decides
    const past = await addPromo({ expiresAt: new Date(Date.now() - 60_000) })
    expect(await refusal(assertPromoUsable(api.db, past, { email: null }))).toBe('400 promo_code_expired')
    const future = await addPromo({ expiresAt: new Date(Date.now() + 3_600_000) })
    expect(await refusal(assertPromoUsable(api.db, future, { email: null }))).toBe('usable')
  })

  it('the last use is allowed, none after it; no limit means no limit', async () => {
    const check = async (v: Partial<typeof promoCodes.$inferInsert>) =>
      refusal(assertPromoUsable(api.db, await addPromo(v), { email: null }))
    expect(await check({ maxUses: 3, usedCount: 2 })).toBe('usable')
    expect(await check({ maxUses: 3, usedCount: 3 })).toBe('400 promo_code_exhausted')
    expect(await check({ maxUses: 0, usedCount: 0 })).toBe('400 promo_code_exhausted')
    expect(await check({ maxUses: null, usedCount: 1_000_000 })).toBe('usable')
    expect(await check({ isActive: false })).toBe('400 promo_code_inactive')
  })

  it('once per email: the key, an old row with the plain lower-cased address, other codes apart', async () => {
    const promo = await addPromo()
    const other = await addPromo()
    const o = await addOrder()
    await api.db
      .insert(promoRedemptions)
      .values({ promoCodeId: promo.id, email: 'ivan@gmail.com', orderId: o.id })
    const check = (p: PromoRow, email: string | null) => refusal(assertPromoUsable(api.db, p, { email }))
    expect(await check(promo, 'I.van+shop@GMail.com')).toBe('400 promo_code_already_used')
    expect(await check(promo, 'petr@gmail.com')).toBe('usable')
    expect(await check(promo, null)).toBe('usable')
    expect(await check(other, 'ivan@gmail.com')).toBe('usable')

    // a row written before keys existed holds the address lower-cased, dots and tags kept
    const legacy = await addPromo()
    const o2 = await addOrder()
    await api.db
      .insert(promoRedemptions)
      .values({ promoCodeId: legacy.id, email: 'first.last+x@yandex.ru', orderId: o2.id })
    expect(await check(legacy, '  First.Last+X@Yandex.ru ')).toBe('400 promo_code_already_used')
    expect(await check(legacy, 'first.last@yandex.ru')).toBe('usable')
  })
})

describe('finding a code', () => {
  it('is case-insensitive and trims what was typed; blank is unknown', async () => {
    const promo = await addPromo({ code: `Mixed${hex(3)}` })
    expect((await findPromo(api.db, `  ${promo.code.toUpperCase()}  `)).id).toBe(promo.id)
    expect((await findPromo(api.db, promo.code.toLowerCase())).id).toBe(promo.id)
    expect(await refusal(findPromo(api.db, '   '))).toBe('404 promo_code_unknown')
    expect(await refusal(findPromo(api.db, `${promo.code}x`))).toBe('404 promo_code_unknown')
  })

  it('a guess cannot tell switched-off, expired and used-up codes from unknown ones; a used one says so', async () => {
    const find = (code: string, email: string | null = null) =>
      refusal(findUsablePromo(api.db, code, { email }))
    expect(await find((await addPromo({ isActive: false })).code)).toBe('404 promo_code_unknown')
    expect(await find((await addPromo({ expiresAt: new Date(Date.now() - 1000) })).code)).toBe(
      '404 promo_code_unknown',
    )
    expect(await find((await addPromo({ maxUses: 1, usedCount: 1 })).code)).toBe('404 promo_code_unknown')
    const used = await addPromo()
    await api.db
      .insert(promoRedemptions)
      .values({ promoCodeId: used.id, email: 'once@example.com', orderId: (await addOrder()).id })
    expect(await find(used.code, 'once@example.com')).toBe('400 promo_code_already_used')
    const ok = await addPromo()
    expect((await findUsablePromo(api.db, ok.code, { email: 'x@example.com' })).id).toBe(ok.id)
  })
})

describe('a code fits its order', () => {
  it('a game code fits that game only and names it; a gift code its gift only', async () => {
    const gameCode = await addPromo()
    const giftCode = await addPromo({ kind: 'GiftPromoCode', gameId: null, giftId })
    const [otherGame] = await api.db.insert(games).values({ kind: 'PUBGGame', title: 'Другая' }).returning()
    const fits = (p: PromoRow, o: Partial<OrderRow>) =>
      assertPromoFitsOrder(api.db, p, { gameId: null, giftId: null, ...o } as OrderRow).then(
        () => 'fits',
        (e: { code: string; detail?: string; message?: string }) => `${e.code}: ${e.message ?? ''}`,
      )
    expect(await fits(gameCode, { gameId })).toBe('fits')
    expect(await fits(gameCode, { gameId: otherGame!.id })).toMatch(/^promo_code_foreign_game: .*«Игра П»/)
    expect(await fits(gameCode, { giftId })).toMatch(/^promo_code_foreign_game: .*«Игра П»/)
    expect(await fits(giftCode, { giftId })).toBe('fits')
    expect(await fits(giftCode, { gameId })).toMatch(/^promo_code_foreign_gift: .*«Подарок Г»/)
    expect(await fits(giftCode, { giftId: giftId + 1000 })).toMatch(/^promo_code_foreign_gift: .*«Подарок Г»/)
    // a code without a game fits every game (and without a gift every gift); nothing else, naming none
    const anyGame = await addPromo({ gameId: null })
    expect(await fits(anyGame, { gameId: otherGame!.id })).toBe('fits')
    expect(await fits(anyGame, { giftId })).toMatch(/^promo_code_foreign_game: .*«»/)
    const anyGift = await addPromo({ kind: 'GiftPromoCode', gameId: null, giftId: null })
    expect(await fits(anyGift, { giftId })).toBe('fits')
    expect(await fits(anyGift, { gameId })).toMatch(/^promo_code_foreign_gift: .*«»/)
  })

  it('is written on the wire with its own kind of target', async () => {
    const p = await addPromo({ code: 'WIRE1', percent: 7 })
    expect(serializePromo(p)).toEqual({ resourcetype: 'PromoCode', code: 'WIRE1', percent: 7, game: gameId })
    const g = await addPromo({ code: 'WIRE2', kind: 'GiftPromoCode', gameId: null, giftId, percent: 5 })
    expect(serializePromo(g)).toEqual({
      resourcetype: 'GiftPromoCode',
      code: 'WIRE2',
      percent: 5,
      gift: giftId,
    })
    expect(serializePromo({ ...p, gameId: null })).toMatchObject({ game: 0 })
    expect(serializePromo({ ...g, giftId: null })).toMatchObject({ gift: 0 })
  })
})

describe('recordPromoRedemption (inside the payment)', () => {
  const record = (o: OrderRow) => refusal(api.db.transaction((tx) => recordPromoRedemption(tx, o)))
  const usedCount = async (id: number) =>
    (await api.db.select().from(promoCodes).where(eq(promoCodes.id, id)))[0]!.usedCount

  it('counts the use, stores the email key and spends the account code', async () => {
    const promo = await addPromo({ maxUses: 2, usedCount: 1 })
    const user = await makeUser(api, { email: `Buyer.${hex()}+tag@Example.com` })
    await api.db.update(users).set({ activePromoCodeId: promo.id }).where(eq(users.id, user.id))
    const o = await addOrder({ promoCodeId: promo.id, userId: user.id, email: null })
    expect(await record(o)).toBe('usable')
    expect(await usedCount(promo.id)).toBe(2)
    const [red] = await api.db.select().from(promoRedemptions).where(eq(promoRedemptions.orderId, o.id))
    expect(red!.email).toBe(user.email.toLowerCase().replace(/\+tag/, ''))
    const [u] = await api.db.select().from(users).where(eq(users.id, user.id))
    expect(u!.activePromoCodeId).toBeNull()

    // the last use is gone now: the next payment is refused
    const next = await addOrder({ promoCodeId: promo.id, email: `n-${hex()}@example.com` })
    expect(await record(next)).toBe('409 promo_code_exhausted')
    expect(await usedCount(promo.id)).toBe(2)
  })

  it('a second payment with the same email is refused; an order without a code records nothing', async () => {
    const promo = await addPromo()
    const email = `twice-${hex()}@example.com`
    expect(await record(await addOrder({ promoCodeId: promo.id, email }))).toBe('usable')
    expect(await record(await addOrder({ promoCodeId: promo.id, email: email.toUpperCase() }))).toBe(
      '409 promo_code_already_used',
    )
    expect(await usedCount(promo.id)).toBe(1)

    const plain = await addOrder({ email })
    expect(await record(plain)).toBe('usable')
    expect(
      await api.db.select().from(promoRedemptions).where(eq(promoRedemptions.orderId, plain.id)),
    ).toEqual([])
  })

  it('another user’s account code is left alone; a guest without email still counts the use', async () => {
    const promo = await addPromo()
    const other = await makeUser(api)
    await api.db.update(users).set({ activePromoCodeId: promo.id }).where(eq(users.id, other.id))
    const buyer = await makeUser(api)
    expect(await record(await addOrder({ promoCodeId: promo.id, userId: buyer.id, email: null }))).toBe(
      'usable',
    )
    const [u] = await api.db.select().from(users).where(eq(users.id, other.id))
    expect(u!.activePromoCodeId).toBe(promo.id)

    const anon = await addOrder({ promoCodeId: promo.id, email: null, userId: null })
    expect(await record(anon)).toBe('usable')
    expect(await usedCount(promo.id)).toBe(2)
  })
})
