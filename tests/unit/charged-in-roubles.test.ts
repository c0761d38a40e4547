// What a paid order's refund gives back (issue 32): the amount the provider charged in roubles,
// the method's fee included; another currency counts as the order's total in roubles.
import { describe, expect, it } from 'vitest'
import { chargedInRoubles } from '#api/services/payments/amounts'

describe('chargedInRoubles', () => {
  it('a rouble payment with a 3 % fee returns the payment, fee included', () => {
    expect(chargedInRoubles({ amount: 10_300, currency: 'RUB' }, 10_000)).toBe(10_300)
  })
  it('a rouble payment of exactly the total returns the total', () => {
    expect(chargedInRoubles({ amount: 10_000, currency: 'RUB' }, 10_000)).toBe(10_000)
  })
  it('a rouble payment below the total never returns less than the total', () => {
    expect(chargedInRoubles({ amount: 9_999, currency: 'RUB' }, 10_000)).toBe(10_000)
  })
  it('a payment in tenge counts as the order total in roubles, whatever its amount', () => {
    expect(chargedInRoubles({ amount: 56_000, currency: 'KZT' }, 10_000)).toBe(10_000)
    expect(chargedInRoubles({ amount: 5, currency: 'KZT' }, 10_000)).toBe(10_000)
  })
  it('the currency is compared exactly', () => {
    expect(chargedInRoubles({ amount: 12_000, currency: 'rub' }, 10_000)).toBe(10_000)
    expect(chargedInRoubles({ amount: 12_000, currency: '' }, 10_000)).toBe(10_000)
  })
})
