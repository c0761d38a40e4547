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
    expect(preferredMethod(list, null, 'RUB')).toBe('sbp')
  })

  it('takes the method this order was last paid with while it still takes the order', () => {
    const list = [option('card', 41622), option('sbp', 41016)]
    expect(preferredMethod(list, 'card', 'RUB')).toBe('card')
    // a method that no longer takes the order is not offered again: the cheapest instead
    const off = [option('card', 41622, 'below_min'), option('sbp', 41016)]
    expect(preferredMethod(off, 'card', 'RUB')).toBe('sbp')
    expect(preferredMethod(list, 'gone', 'RUB')).toBe('sbp')
  })

  it('a repeat carries the repeated order’s method when it takes this order (issue 50)', () => {
    const list = [option('card', 41622), option('sbp', 41016), option('wallet', 42229, 'below_min')]
    expect(preferredMethod(list, null, 'RUB', 'card')).toBe('card')
    // this order's own last payment still comes first
    expect(preferredMethod(list, 'sbp', 'RUB', 'card')).toBe('sbp')
    // a carried method that does not take the order, or is not offered, falls back to the cheapest
    expect(preferredMethod(list, null, 'RUB', 'wallet')).toBe('sbp')
    expect(preferredMethod(list, null, 'RUB', '<script>')).toBe('sbp')
  })

  it('never picks a disabled method, and picks none when nothing is usable', () => {
    const list = [option('cheap', 100, 'inactive'), option('min', 50, 'below_min'), option('card', 900)]
    expect(preferredMethod(list, null, 'RUB')).toBe('card')
    expect(preferredMethod([option('a', 1, 'inactive')], null, 'RUB')).toBeNull()
    expect(preferredMethod([], 'a', 'RUB')).toBeNull()
  })

  it('keeps the shop’s order on a tie and compares totals only in the country’s currency', () => {
    expect(preferredMethod([option('first', 500), option('second', 500)], null, 'RUB')).toBe('first')
    // 100 tenge is not cheaper than 500 kopecks: another currency never wins on its number,
    // wherever it stands in the list
    expect(preferredMethod([option('rub', 500), option('kzt', 100, 'ok', 'KZT')], null, 'RUB')).toBe('rub')
    expect(preferredMethod([option('kzt', 100, 'ok', 'KZT'), option('rub', 500)], null, 'RUB')).toBe('rub')
    // a method without a total never wins on a number, first or not
    expect(preferredMethod([option('norate', null), option('card', 900)], null, 'RUB')).toBe('card')
    // with no usable method of the country's currency, the first usable one
    expect(preferredMethod([option('norate', null), option('kzt', 1, 'ok', 'KZT')], null, 'RUB')).toBe(
      'norate',
    )
    expect(preferredMethod([option('card', 900)], null, null)).toBe('card')
  })

  it('over any list: the last used, else the first of the cheapest in the country’s currency, else the first usable', () => {
    const withCurrency = fc.array(
      fc.record({
        amount: fc.option(fc.integer({ min: 0, max: 1e7 }), { nil: null }),
        availability: fc.constantFrom<MethodOption['availability']>('ok', 'inactive', 'below_min'),
        currency: fc.constantFrom('RUB', 'KZT'),
      }),
      { maxLength: 12 },
    )
    fc.assert(
      fc.property(withCurrency, fc.option(fc.nat(12), { nil: null }), (specs, last) => {
        const list = specs.map((s, i) => option(`m${i}`, s.amount, s.availability, s.currency))
        const pick = preferredMethod(list, last === null ? null : `m${last}`, 'RUB')
        const usable = list.filter((o) => o.availability === 'ok')
        if (usable.length === 0) return pick === null
        const chosen = usable.find((o) => o.method.name === pick)
        if (!chosen) return false
        if (last !== null && usable.some((o) => o.method.name === `m${last}`)) return pick === `m${last}`
        const priced = usable.filter((o) => o.amount !== null && o.method.currency === 'RUB')
        if (priced.length === 0) return chosen === usable[0]
        return (
          chosen.method.currency === 'RUB' &&
          chosen.amount !== null &&
          priced.every((o) => o.amount! >= chosen.amount!) &&
          // the first of the cheapest, in the shop's order
          priced.find((o) => o.amount === chosen.amount) === chosen
        )
      }),
    )
  })
})
