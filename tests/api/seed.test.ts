import { and, count, eq, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '#api/db/client'
import { SCENARIO_TYPES } from '#api/demo/payments'
import {
  articles,
  contacts,
  countries,
  faq,
  GAME_KINDS,
  games,
  giftCodes,
  gifts,
  paymentMethodGroups,
  paymentMethods,
  products,
  promoCodes,
  standoffSettings,
  steamSettings,
  supplyServers,
  voucherCodes,
} from '#api/db/schema'
import { seedIfEmpty } from '#api/demo/seed'
import { openTestDatabase } from '#tests/helpers/test-db'

let database: Database
let db: Database['db']
beforeAll(async () => {
  database = await openTestDatabase()
  db = database.db
  expect(await seedIfEmpty(db)).toBe(true)
})
afterAll(() => database.close())

describe('demo seed', () => {
  it('seeds once when three instances try at the same moment (issue 19: duplicate slug)', async () => {
    const fresh = await openTestDatabase()
    try {
      const results = await Promise.all([seedIfEmpty(fresh.db), seedIfEmpty(fresh.db), seedIfEmpty(fresh.db)])
      expect(results.filter(Boolean)).toHaveLength(1)
      const [once] = await fresh.db.select({ n: count() }).from(games)
      const [reference] = await db.select({ n: count() }).from(games)
      expect(once!.n).toBe(reference!.n)
    } finally {
      await fresh.close()
    }
  })

  it('runs once: a second seedIfEmpty leaves the database alone', async () => {
    const [before] = await db.select({ n: count() }).from(games)
    expect(await seedIfEmpty(db)).toBe(false)
    const [after] = await db.select({ n: count() }).from(games)
    expect(after!.n).toBe(before!.n)
  })

  it('has at least two active games of every kind', async () => {
    const rows = await db.select().from(games).where(eq(games.isActive, true))
    for (const kind of GAME_KINDS) {
      expect(rows.filter((g) => g.kind === kind).length, kind).toBeGreaterThanOrEqual(2)
    }
    expect(rows.every((g) => g.logo.startsWith('/images/games/'))).toBe(true)
    // one game of each kind a person delivers waits at the desk (issue 31); the others are instant
    const manual = rows.filter((g) => g.supplier === 'manual')
    expect(manual.map((g) => g.title).sort()).toEqual([
      'Free Fire',
      'Standoff 2 — крупные пакеты',
      'Steam (Казахстан)',
    ])
    expect(rows.filter((g) => g.supplier !== 'manual').every((g) => g.supplier === 'sandbox')).toBe(true)
    expect(rows.some((g) => g.isAuthRequired)).toBe(true)
  })

  it('covers the three SupplyGame server modes, with servers for the enumerated one', async () => {
    const supply = await db.select().from(games).where(eq(games.kind, 'SupplyGame'))
    const mode = (g: (typeof supply)[number]) =>
      !g.isServerNeeded ? 'none' : g.isServerEnum ? 'enumerated' : 'free'
    expect(new Set(supply.map(mode))).toEqual(new Set(['enumerated', 'free', 'none']))
    const enumerated = supply.find((g) => mode(g) === 'enumerated')
    const servers = await db.select().from(supplyServers).where(eq(supplyServers.gameId, enumerated!.id))
    expect(servers.length).toBeGreaterThanOrEqual(3)
    expect(supply.every((g) => g.supplierRef)).toBe(true)
  })

  it('has products with discounts, quantity bounds and exactly one inactive product', async () => {
    const rows = await db.select().from(products)
    expect(rows.filter((p) => !p.isActive)).toHaveLength(1)
    const discounted = rows.filter((p) => p.discountPrice !== null)
    expect(discounted.length).toBeGreaterThanOrEqual(3)
    for (const p of discounted) {
      expect(p.discountPrice!).toBeLessThan(p.price)
      expect(p.discountPercent).toBeGreaterThan(0)
    }
    expect(rows.some((p) => p.minQuantity >= 2)).toBe(true)
    for (const p of rows) {
      expect(p.price, p.title).toSatisfy(Number.isInteger)
      expect(p.price, p.title).toBeGreaterThan(0)
      expect(p.minQuantity).toBeLessThanOrEqual(p.maxQuantity)
      if (p.kind === 'PUBGProduct') expect(p.amountUc).toBeGreaterThan(0)
      if (p.kind === 'StandoffProduct') expect(p.gold).toBeGreaterThan(0)
      if (p.kind === 'SupplyProduct') expect(p.supplierRef).toMatch(/^mg-\d+$/)
    }
  })

  it('stocks unsold voucher codes for every PUBG product, matching its UC amount', async () => {
    const pubg = await db.select().from(products).where(eq(products.kind, 'PUBGProduct'))
    expect(pubg.length).toBeGreaterThanOrEqual(6)
    for (const p of pubg) {
      const codes = await db
        .select()
        .from(voucherCodes)
        .where(and(eq(voucherCodes.productId, p.id), isNull(voucherCodes.soldAt)))
      expect(codes.length, p.title).toBeGreaterThanOrEqual(20)
      expect(codes.every((c) => c.amountUc === p.amountUc)).toBe(true)
      expect(codes[0]!.code).toMatch(/^[A-Z]{2}-[A-Z0-9]{4}(-[A-Z0-9]{4}){3}$/)
    }
  })

  it('has 12+ gifts, some new, some discounted, some main, and one out of stock', async () => {
    const rows = await db.select().from(gifts)
    expect(rows.length).toBeGreaterThanOrEqual(12)
    expect(rows.filter((g) => g.isNew).length).toBeGreaterThanOrEqual(2)
    expect(rows.filter((g) => g.isMain).length).toBeGreaterThanOrEqual(2)
    const discounted = rows.filter((g) => g.discountPrice !== null)
    expect(discounted.length).toBeGreaterThanOrEqual(3)
    for (const g of discounted) expect(g.discountPrice!).toBeLessThan(g.price)
    const stock = await db
      .select({ giftId: giftCodes.giftId, n: count() })
      .from(giftCodes)
      .groupBy(giftCodes.giftId)
    const byGift = new Map(stock.map((s) => [s.giftId, s.n]))
    expect(rows.filter((g) => !byGift.has(g.id))).toHaveLength(1)
    expect([...byGift.values()].every((n) => n >= 10)).toBe(true)
  })

  it('offers all eight payment scenario types among active methods in the default country', async () => {
    const [russia] = await db.select().from(countries).where(eq(countries.isDefault, true))
    expect(russia).toMatchObject({ name: 'Россия', currency: 'RUB', rateMicro: 1_000_000 })
    const methods = await db
      .select({ m: paymentMethods })
      .from(paymentMethods)
      .innerJoin(paymentMethodGroups, eq(paymentMethodGroups.id, paymentMethods.groupId))
      .where(eq(paymentMethodGroups.countryId, russia!.id))
    const active = methods.map((r) => r.m).filter((m) => m.isActive)
    expect(new Set(active.map((m) => m.scenario))).toEqual(new Set(SCENARIO_TYPES))
    expect(methods.some((r) => !r.m.isActive)).toBe(true)
    expect(active.some((m) => m.requiredFields.includes('phone'))).toBe(true)
    expect(active.some((m) => m.requiredFields.includes('email'))).toBe(true)
    expect(active.some((m) => m.isSecondary)).toBe(true)
    const all = await db.select().from(paymentMethods)
    expect(new Set(all.map((m) => m.name)).size).toBe(all.length)
    expect(all.every((m) => m.provider === 'sandbox')).toBe(true)
    expect((await db.select().from(countries)).length).toBeGreaterThanOrEqual(3)
  })

  it('has FAQ for every game, the info articles, contacts and both settings rows', async () => {
    const allGames = await db.select().from(games)
    const faqCounts = await db.select({ gameId: faq.gameId, n: count() }).from(faq).groupBy(faq.gameId)
    for (const g of allGames) {
      expect(faqCounts.find((f) => f.gameId === g.id)?.n ?? 0, g.title).toBeGreaterThanOrEqual(3)
    }
    const slugs = (await db.select().from(articles)).map((a) => a.slug)
    expect(slugs).toEqual(expect.arrayContaining(['privacy-policy', 'user-agreement', 'TextBlock']))
    const [contact] = await db.select().from(contacts)
    expect(contact!.inn).toMatch(/^\d{10}$/)
    expect(contact!.companyId).toMatch(/^\d{13}$/)
    const [standoff] = await db.select().from(standoffSettings)
    expect(standoff).toMatchObject({ id: 1, isSurplusEnabled: true, marketFee: 500 })
    const [steam] = await db.select().from(steamSettings)
    expect(steam).toMatchObject({ id: 1, commission: 800, minAmount: 10000, maxAmount: 5000000 })
  })

  it('has promo codes for games and gifts, one expired and one used up', async () => {
    const rows = await db.select().from(promoCodes)
    const byCode = new Map(rows.map((r) => [r.code, r]))
    expect(byCode.get('WELCOME10')).toMatchObject({ kind: 'PromoCode', percent: 10 })
    expect(byCode.get('GIFT15')).toMatchObject({ kind: 'GiftPromoCode', percent: 15 })
    expect(byCode.get('OLD2020')!.expiresAt!.getTime()).toBeLessThan(Date.now())
    // at least one code is used up
    expect(rows.filter((r) => r.maxUses !== null && r.usedCount >= r.maxUses).map((r) => r.code)).not.toEqual(
      [],
    )
  })
})
