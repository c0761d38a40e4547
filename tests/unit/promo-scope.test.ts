// What a promo discounts (issue 45, decision 126): the API's pricing (services/orders/pricing.ts with
// services/promo/scope.ts) and the storefront's quote (app/lib/order-form/totals.ts) give the same
// numbers for every order kind, promo percent and balance; a Steam top-up's wallet amount is never
// discounted. Sized for CI; PROMO_SCOPE_RUNS raises the number of cases for a longer soak.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { PROMO_TARGET as APP_TARGET, type QuotedKind } from '#app/lib/order-form/promo-target'
import { promoQuote } from '#app/lib/order-form/totals'
import { ORDER_KINDS } from '#api/db/schema'
import { applyPromoAndBalance, steamTotal } from '#api/services/orders/pricing'
import {
  PROMO_TARGET,
  promoBase,
  promoCoversKind,
  promoDiscount,
  promoTargetOf,
} from '#api/services/promo/scope'

const runs = Number(process.env.PROMO_SCOPE_RUNS ?? 500)

/** An order of any kind: a Steam top-up is an amount plus its commission, others a total. */
const orderArb = fc.oneof(
  fc
    .record({ amount: fc.integer({ min: 0, max: 5_000_000 }), bp: fc.integer({ min: 0, max: 5000 }) })
    .map(({ amount, bp }) => ({ kind: 'SteamOrder' as const, ...steamTotal(amount, bp) })),
  fc.record({
    kind: fc.constantFrom('PUBGOrder', 'StandoffOrder', 'MooGoldOrder', 'RokkyOrder') as fc.Arbitrary<
      Exclude<QuotedKind, 'SteamOrder'>
    >,
    total: fc.integer({ min: 0, max: 10_000_000 }),
    amount: fc.constant(null),
  }),
)
const percentArb = fc.option(fc.integer({ min: 0, max: 100 }), { nil: null })
const balanceArb = fc.integer({ min: -1000, max: 10_000_000 })

describe('the promo scope: API and storefront agree', () => {
  it('both sides list the same target for every order kind', () => {
    expect(APP_TARGET).toEqual(PROMO_TARGET)
    expect(Object.keys(PROMO_TARGET).sort()).toEqual([...ORDER_KINDS].sort())
  })

  it('quote the same totals for every kind, percent and balance; the Steam amount is never discounted', () => {
    fc.assert(
      fc.property(orderArb, percentArb, balanceArb, (o, percent, balance) => {
        const api = applyPromoAndBalance(o.total, percent, balance, promoBase(o.kind, o.total, o.amount))
        const app = promoQuote(o.kind, o.total, o.amount, percent, balance)
        expect(app.totalWithPromo).toBe(api.totalWithPromo)
        expect(app.balanceUsed).toBe(api.balanceUsed)
        expect(app.toPay).toBe(api.totalToPay)
        expect(app.discount).toBe(o.total - api.totalWithPromo)
        expect(api.totalToPay).toBeGreaterThanOrEqual(0)
        if (o.kind === 'SteamOrder') {
          expect(api.totalWithPromo).toBeGreaterThanOrEqual(o.amount)
          expect(o.total - api.totalWithPromo).toBeLessThanOrEqual(o.commission)
        } else expect(api.totalWithPromo).toBe(percent ? o.total - promoDiscount(o.total, percent) : o.total)
      }),
      { numRuns: runs },
    )
  })
})

describe('the promo scope rules', () => {
  it('takes the percent off the price, or off a Steam commission only, half up', () => {
    expect(promoBase('SteamOrder', 108000, 100000)).toBe(8000)
    expect(promoBase('SteamOrder', 100000, 100000)).toBe(0)
    expect(promoBase('SteamOrder', 5000, null)).toBe(0)
    expect(promoBase('PUBGOrder', 108000, null)).toBe(108000)
    expect(promoBase('RokkyOrder', 500, 100)).toBe(500)
    // the figures: ALL5 on 1 000 ₽ + 80 ₽ takes 4 ₽, not 54 ₽
    expect(applyPromoAndBalance(108000, 5, 0, 8000).totalWithPromo).toBe(107600)
    expect(applyPromoAndBalance(108000, 100, 0, 8000).totalWithPromo).toBe(100000)
    expect(applyPromoAndBalance(108000, 10, 5000, 8000)).toEqual({
      totalWithPromo: 107200,
      balanceUsed: 5000,
      totalToPay: 102200,
    })
    // a base above the total (never from promoBase) is held to the total
    expect(applyPromoAndBalance(1000, 100, 0, 5000).totalWithPromo).toBe(0)
    expect(promoDiscount(8000, 10)).toBe(800)
    expect(promoDiscount(99, 33)).toBe(33) // 32.67 → 33
    expect(promoDiscount(3, 50)).toBe(2) // 1.5 → 2
    expect(promoDiscount(1, 49)).toBe(0) // 0.49 → 0
    expect(promoDiscount(100, 100)).toBe(100)
    expect(promoDiscount(100, 150)).toBe(100)
    expect(promoDiscount(100, null)).toBe(0)
    expect(promoDiscount(100, 0)).toBe(0)
    expect(promoDiscount(100, -5)).toBe(0)
    expect(promoDiscount(0, 50)).toBe(0)
    expect(promoDiscount(-10, 50)).toBe(0)
  })

  it('knows which kinds a code covers and what it discounts on each', () => {
    expect(promoCoversKind([], 'SteamOrder')).toBe(true)
    expect(promoCoversKind(null, 'SteamOrder')).toBe(true)
    expect(promoCoversKind(['SteamOrder'], 'SteamOrder')).toBe(false)
    expect(promoCoversKind(['SteamOrder'], 'PUBGOrder')).toBe(true)
    const game = { kind: 'PromoCode' as const, excludedKinds: ['StandoffOrder'] }
    expect(promoTargetOf(game, 'PUBGOrder')).toBe('price')
    expect(promoTargetOf(game, 'SteamOrder')).toBe('commission')
    expect(promoTargetOf(game, 'StandoffOrder')).toBe('none')
    expect(promoTargetOf(game, 'RokkyOrder')).toBe('none')
    const gift = { kind: 'GiftPromoCode' as const, excludedKinds: [] }
    expect(promoTargetOf(gift, 'RokkyOrder')).toBe('price')
    expect(promoTargetOf(gift, 'MooGoldOrder')).toBe('none')
    expect(promoTargetOf({ ...gift, excludedKinds: ['RokkyOrder'] }, 'RokkyOrder')).toBe('none')
  })
})
