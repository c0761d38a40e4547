// The back-office price rules of products and gifts: a discount below the price, and the percent
// a buyer sees on the card.
import { describe, expect, it } from 'vitest'
import { checkDiscount, discountPercentOf } from '../../api/src/services/admin/catalogue/pricing'
import { ApiError } from '../../api/src/lib/errors'

const refusal = (f: () => void) => {
  try {
    f()
  } catch (e) {
    return e as ApiError
  }
  return null
}

describe('checkDiscount', () => {
  it('takes no discount, and a discount below the price', () => {
    expect(refusal(() => checkDiscount(10_000, null))).toBeNull()
    expect(refusal(() => checkDiscount(10_000, undefined))).toBeNull()
    expect(refusal(() => checkDiscount(10_000, 9_999))).toBeNull()
    expect(refusal(() => checkDiscount(10_000, 0))).toBeNull()
    // a free product without a discount (null would compare as 0)
    expect(refusal(() => checkDiscount(0, null))).toBeNull()
    expect(refusal(() => checkDiscount(0, undefined))).toBeNull()
  })

  it('refuses a discount equal to or above the price, naming the field in Russian', () => {
    for (const d of [10_000, 10_001]) {
      const e = refusal(() => checkDiscount(10_000, d))
      expect(e).toBeInstanceOf(ApiError)
      expect(e?.status).toBe(400)
      expect(e?.code).toBe('admin_discount_not_below_price')
      expect(e?.fields?.discount_price?.[0]).toMatch(/[а-я]/)
    }
  })
})

describe('discountPercentOf', () => {
  it('is 0 without a discount or without a price', () => {
    expect(discountPercentOf(10_000, null)).toBe(0)
    expect(discountPercentOf(0, 0)).toBe(0)
    expect(discountPercentOf(-5, 0)).toBe(0)
  })

  it('is the rounded share taken off', () => {
    expect(discountPercentOf(10_000, 9_000)).toBe(10)
    expect(discountPercentOf(30_000, 20_000)).toBe(33)
    expect(discountPercentOf(30_000, 10_000)).toBe(67)
    expect(discountPercentOf(1, 0)).toBe(100)
    expect(discountPercentOf(200, 199)).toBe(1)
    expect(discountPercentOf(1_000, 995)).toBe(1)
  })
})
