// The Standoff listing price (shared/standoff-listing.ts): one rule for the order form's preview
// and the price the server stores on the order, so the buyer lists exactly what the desk expects.
import { describe, expect, it } from 'vitest'
import { standoffListingPrice } from '../../shared/standoff-listing'

describe('standoffListingPrice', () => {
  it('covers the market fee, rounded up to the hundredth, plus the surplus', () => {
    // 100 gold, 5 % fee: 100 / 0.95 = 105.263… → 105.27, plus 0.17
    expect(standoffListingPrice(10000, 500, 17)).toBe(10527 + 17)
    expect(standoffListingPrice(10000, 500, 0)).toBe(10527)
    // 1 hundredth at 1 %: 1.0101… rounds up to 2 (never down to 1)
    expect(standoffListingPrice(1, 100, 0)).toBe(2)
    // an exact division stays exact (no rounding up past it)
    expect(standoffListingPrice(9900, 100, 0)).toBe(10000)
    expect(standoffListingPrice(9900, 100, 23)).toBe(10023)
  })

  it('no fee: the gold itself plus the surplus', () => {
    expect(standoffListingPrice(10000, 0, 0)).toBe(10000)
    expect(standoffListingPrice(10000, 0, 5)).toBe(10005)
  })

  it('no gold (or less) is no listing, whatever the surplus', () => {
    expect(standoffListingPrice(0, 500, 17)).toBe(0)
    expect(standoffListingPrice(-100, 500, 17)).toBe(0)
  })

  it('the smallest gold is still a listing', () => {
    expect(standoffListingPrice(1, 0, 3)).toBe(4)
  })

  it('a fee of 100 % or more covers nothing: the gold plus the surplus', () => {
    expect(standoffListingPrice(10000, 10000, 17)).toBe(10017)
    expect(standoffListingPrice(10000, 12000, 0)).toBe(10000)
    // 99.99 % keeps one basis point: the price is 10000 times the gold
    expect(standoffListingPrice(3, 9999, 1)).toBe(30001)
  })
})
