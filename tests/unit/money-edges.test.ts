// Edges of the money code that `npm run test:mutation` showed untested: the cart's negative and
// partial inputs, payment conversion and fee figures, and who counts as the same buyer for a
// once-per-email promo code.
import { describe, expect, it } from 'vitest'
import { convertByRate, formatPercentBp, formatRate, paymentAmount } from '#api/services/payments/amounts'
import { emailKey as promoEmailKey } from '#api/services/identity/email-key'
import {
  type CartLine,
  cartTotals,
  clampQuantity,
  countedLines,
  steamTotals,
  totalAfterDiscount,
} from '#app/lib/order-form/totals'

const line = (price: number, amount: number, extra: Partial<CartLine['data']> = {}): CartLine => ({
  data: { id: price, isActive: true, price, ...extra },
  amount,
})

describe('cart totals at the edges', () => {
  it('counts only active lines with a whole positive quantity', () => {
    const lines = [
      line(100, 1),
      line(200, -1),
      line(300, 0),
      line(400, 1.5),
      line(500, Number.NaN),
      line(600, 2, { isActive: false }),
    ]
    expect(countedLines(lines).map((l) => l.data.price)).toEqual([100])
    expect(cartTotals(lines)).toEqual({
      subtotal: 100,
      discount: 0,
      total: 100,
      balanceUsed: 0,
      toPay: 100,
      units: 1,
    })
  })

  it('a negative discount is no discount', () => {
    expect(totalAfterDiscount(1000, -5)).toBe(1000)
  })

  it('a discount price counts only when it is below the price', () => {
    expect(cartTotals([line(1000, 2, { discountPrice: 1000 })]).discount).toBe(0)
    expect(cartTotals([line(1000, 2, { discountPrice: 1200 })]).discount).toBe(0)
    expect(cartTotals([line(1000, 2, { discountPrice: null })]).discount).toBe(0)
    expect(cartTotals([line(1000, 2, { discountPrice: 999 })])).toMatchObject({ discount: 2, total: 1998 })
    expect(cartTotals([line(1000, 2, { discountPrice: 0 })])).toMatchObject({ discount: 2000, total: 0 })
  })

  it('a negative balance is not used, a zero one changes nothing', () => {
    expect(cartTotals([line(1000, 1)], -500)).toMatchObject({ balanceUsed: 0, toPay: 1000 })
    expect(cartTotals([line(1000, 1)], 0)).toMatchObject({ balanceUsed: 0, toPay: 1000 })
    expect(cartTotals([line(1000, 1)], 1000)).toMatchObject({ balanceUsed: 1000, toPay: 0 })
    expect(cartTotals([line(1000, 1)], 1)).toMatchObject({ balanceUsed: 1, toPay: 999 })
  })

  it('Steam: no commission on a negative amount, half a kopeck rounds up', () => {
    expect(steamTotals(-1000, 800)).toEqual({ commission: 0, total: -1000 })
    expect(steamTotals(625, 8)).toEqual({ commission: 1, total: 626 })
    expect(steamTotals(1, 800)).toEqual({ commission: 0, total: 1 })
  })

  it('clamps negative and fractional quantities', () => {
    expect(clampQuantity(-3, 1, 10)).toBe(0)
    expect(clampQuantity(Number.POSITIVE_INFINITY, 1, 10)).toBe(0)
    expect(clampQuantity(0.5, 1, 10)).toBe(1)
    expect(clampQuantity(1, 1, 10)).toBe(1)
    expect(clampQuantity(10, 1, 10)).toBe(10)
    expect(clampQuantity(10.9, 1, 10)).toBe(10)
    expect(clampQuantity(11, 1, 10)).toBe(10)
  })
})

describe('payment amounts at the edges', () => {
  it('converts half a minor unit up, less than half down', () => {
    expect(convertByRate(1, 500_000)).toBe(1) // 0.5
    expect(convertByRate(1, 499_999)).toBe(0)
    expect(convertByRate(0, 5_600_000)).toBe(0)
    expect(convertByRate(3, 1_500_000)).toBe(5) // 4.5
  })

  it('adds nothing for a method without fees', () => {
    expect(paymentAmount(12345, 1_000_000, { fee: 0, fixFee: 0 })).toEqual({
      converted: 12345,
      fee: 0,
      amount: 12345,
    })
    // the fee is taken on the converted amount, the fixed fee is already in that currency
    expect(paymentAmount(10000, 5_600_000, { fee: 100, fixFee: 7 })).toEqual({
      converted: 56000,
      fee: 560,
      amount: 56567,
    })
  })

  it('writes rates and percents with their exact decimals', () => {
    expect(formatRate(5_600_000)).toBe('5.600000')
    expect(formatRate(1)).toBe('0.000001')
    expect(formatRate(123_456_789)).toBe('123.456789')
    expect(formatPercentBp(0)).toBe('0.00')
    expect(formatPercentBp(1234)).toBe('12.34')
    expect(formatPercentBp(10000)).toBe('100.00')
  })
})

describe('promoEmailKey edges', () => {
  it.each([
    ['  Name@Example.COM  ', 'name@example.com'],
    ['no-at-sign', 'no-at-sign'],
    ['@example.com', '@example.com'],
    ['a@b@example.com', 'a@b@example.com'],
    ['a.b@x@gmail.com', 'ab@x@gmail.com'],
    ['first.last+x@example.com', 'first.last@example.com'],
    ['...@gmail.com', '...@gmail.com'],
    ['a.b@googlemail.com', 'ab@gmail.com'],
    ['a.b@yandex.com', 'a-b@yandex.ru'],
    ['a.b@yandex.by', 'a-b@yandex.ru'],
    ['a.b@yandex.kz', 'a-b@yandex.ru'],
    ['a.b@yandex.ua', 'a-b@yandex.ru'],
    ['a.b@yandex.com.tr', 'a-b@yandex.ru'],
    ['a.b@narod.ru', 'a-b@yandex.ru'],
    ['a.b@mail.ru', 'a.b@mail.ru'],
    ['a-b@gmail.com', 'a-b@gmail.com'],
    ['+only@example.com', '+only@example.com'],
    ['a.b@gmail.com', 'ab@gmail.com'],
    ['a.b@yandex.ru', 'a-b@yandex.ru'],
    ['.@ya.ru', '-@yandex.ru'],
    ['a@googlemail.com', 'a@gmail.com'],
  ])('%s → %s', (email, key) => {
    expect(promoEmailKey(email)).toBe(key)
  })
})
