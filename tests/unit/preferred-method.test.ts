// Issue 50: the pay page checks the method this order was last paid with, else the cheapest.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { preferredMethod } from '#app/components/payment/preferred-method'
import type { MethodOption } from '#app/components/payment/types'

function option(
  name: string,
  amount: number | null,
  availability: MethodOption['availability'] = 'ok',
  currency = 'RUB',
): MethodOption {
  return {
    method: {
      name,
      title: name,
      icon: '',
      feeBp: 0,
      fixFee: 0,
      minAmount: 0,
      isActive: availability !== 'inactive',
      isSecondary: false,
      currency,
      needsEmail: false,
      needsPhone: false,
      canRetrievePaymentData: false,
    },
    availability,
    details: '',
    amount,
    amountText: null,
  }
}

describe('preferredMethod', () => {
  it('takes the cheapest usable method, whatever the shop’s order', () => {
    const list = [option('card', 41622), option('sbp', 41016), option('wallet', 42229)]
    expect(preferredMethod(list, null)).toBe('sbp')
  })

  it('takes the method this order was last paid with while it still takes the order', () => {
    const list = [option('card', 41622), option('sbp', 41016)]
    expect(preferredMethod(list, 'card')).toBe('card')
    // a method that no longer takes the order is not offered again: the cheapest instead
    const off = [option('card', 41622, 'below_min'), option('sbp', 41016)]
    expect(preferredMethod(off, 'card')).toBe('sbp')
    expect(preferredMethod(list, 'gone')).toBe('sbp')
  })

  it('never picks a disabled method, and picks none when nothing is usable', () => {
    const list = [option('cheap', 100, 'inactive'), option('min', 50, 'below_min'), option('card', 900)]
    expect(preferredMethod(list, null)).toBe('card')
    expect(preferredMethod([option('a', 1, 'inactive')], null)).toBeNull()
    expect(preferredMethod([], 'a')).toBeNull()
  })

  it('keeps the shop’s order on a tie and compares totals only in one currency', () => {
    expect(preferredMethod([option('first', 500), option('second', 500)], null)).toBe('first')
    // 100 tenge is not cheaper than 500 kopecks: another currency never wins on its number
    expect(preferredMethod([option('rub', 500), option('kzt', 100, 'ok', 'KZT')], null)).toBe('rub')
    // a method without a rate keeps its place but never wins on a number
    expect(preferredMethod([option('norate', null), option('card', 900)], null)).toBe('norate')
  })

  it('over any list: the pick is usable and no usable method of its currency is cheaper', () => {
    const arb = fc.array(
      fc.record({
        amount: fc.option(fc.integer({ min: 0, max: 1e7 }), { nil: null }),
        availability: fc.constantFrom<MethodOption['availability']>('ok', 'inactive', 'below_min'),
      }),
      { maxLength: 12 },
    )
    fc.assert(
      fc.property(arb, fc.option(fc.nat(12), { nil: null }), (specs, last) => {
        const list = specs.map((s, i) => option(`m${i}`, s.amount, s.availability))
        const pick = preferredMethod(list, last === null ? null : `m${last}`)
        const usable = list.filter((o) => o.availability === 'ok')
        if (usable.length === 0) return pick === null
        const chosen = usable.find((o) => o.method.name === pick)
        if (!chosen) return false
        if (last !== null && usable.some((o) => o.method.name === `m${last}`)) return pick === `m${last}`
        if (chosen.amount === null) return chosen === usable[0]
        return usable.every((o) => o.amount === null || o.amount >= chosen.amount!)
      }),
    )
  })
})
