import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { convertByRate, formatPercentBp, formatRate, paymentAmount } from '#api/services/payments/amounts'
import { SCENARIO_TYPES } from '#api/providers/types'
import { sandboxProvider } from '#api/providers/sandbox'
import type { ApiDeps } from '#api/context'

describe('payment amounts', () => {
  it('converts by rate with half-up rounding, exactly', () => {
    expect(convertByRate(9900, 1_000_000)).toBe(9900)
    expect(convertByRate(29700, 5_600_000)).toBe(166320)
    expect(convertByRate(10000, 35_000)).toBe(350)
    expect(convertByRate(15, 100_000)).toBe(2) // 1.5 → 2
    expect(convertByRate(14, 100_000)).toBe(1)
    // beyond 2^53 in the intermediate product
    expect(convertByRate(900_000_000_000, 9_999_999)).toBe(8_999_999_100_000)
  })

  it('adds the percent fee on the converted total and the fixed fee', () => {
    expect(paymentAmount(29700, 1_000_000, { fee: 300, fixFee: 1000 })).toEqual({
      converted: 29700,
      fee: 891,
      amount: 31591,
    })
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000_00 }),
        fc.integer({ min: 0, max: 2000 }),
        (total, fee) => {
          const r = paymentAmount(total, 1_000_000, { fee, fixFee: 0 })
          return (
            Number.isInteger(r.amount) &&
            r.amount >= total &&
            r.amount - total <= Math.ceil((total * fee) / 10000)
          )
        },
      ),
    )
  })

  it('formats rates and percents as decimal strings', () => {
    expect(formatRate(1_000_000)).toBe('1.000000')
    expect(formatRate(35_000)).toBe('0.035000')
    expect(formatPercentBp(350)).toBe('3.50')
    expect(formatPercentBp(5)).toBe('0.05')
  })
})

describe('sandbox provider', () => {
  const deps = {
    config: { publicUrl: 'https://shop.test', jwtSecret: 'x'.repeat(32), sandboxPayments: true },
  } as unknown as ApiDeps
  it.each(SCENARIO_TYPES)('answers %s with the fields of that type', async (type) => {
    const r = await sandboxProvider.createPayment(
      {
        order: { id: 'o-1' } as never,
        method: { scenario: type } as never,
        payment: { id: 'p-1' } as never,
        amount: 100,
        currency: 'RUB',
        customer: { email: null, phone: null },
      },
      deps,
    )
    expect(r.scenario.type).toBe(type)
    expect(r.scenario.sandbox_checkout_url).toBe('https://shop.test/api/payments/sandbox/checkout/p-1/')
  })
})
