// The ledger's arithmetic and the refund route rule, without a database.
import { describe, expect, it } from 'vitest'
import { canApply, cashbackFor, cashbackTakeBack, signedDelta } from '#api/services/balance/rules'
import { refundRoute } from '#api/services/refunds/open'

describe('signedDelta', () => {
  it('credits cashback and refunds, debits spends, keeps a correction’s sign', () => {
    expect(signedDelta('cashback', 150)).toBe(150)
    expect(signedDelta('refund', 1)).toBe(1)
    expect(signedDelta('spend', 9900)).toBe(-9900)
    expect(signedDelta('correction', 500)).toBe(500)
    expect(signedDelta('correction', -500)).toBe(-500)
  })

  it('throws on zero, fractions, unsafe integers and wrongly signed amounts', () => {
    for (const kind of ['cashback', 'spend', 'refund', 'correction'] as const) {
      expect(() => signedDelta(kind, 0)).toThrow(RangeError)
      expect(() => signedDelta(kind, 1.5)).toThrow(RangeError)
      expect(() => signedDelta(kind, Number.NaN)).toThrow(RangeError)
      expect(() => signedDelta(kind, 2 ** 53)).toThrow(RangeError)
    }
    for (const kind of ['cashback', 'spend', 'refund'] as const)
      expect(() => signedDelta(kind, -1)).toThrow(RangeError)
  })
})

describe('canApply', () => {
  it('allows reaching zero exactly, never below', () => {
    expect(canApply(100, -100)).toBe(true)
    expect(canApply(100, -101)).toBe(false)
    expect(canApply(0, 1)).toBe(true)
    expect(canApply(0, -1)).toBe(false)
  })
})

describe('cashbackFor', () => {
  it('is the percent of what was paid, rounded down to the kopeck', () => {
    expect(cashbackFor(50_000, 3)).toBe(1500)
    expect(cashbackFor(9968, 7)).toBe(697)
    expect(cashbackFor(99, 1)).toBe(0)
    expect(cashbackFor(100, 1)).toBe(1)
    expect(cashbackFor(12_345, 100)).toBe(12_345)
  })

  it('is zero for nothing paid, no percent, or a percent out of range', () => {
    expect(cashbackFor(0, 5)).toBe(0)
    expect(cashbackFor(-100, 5)).toBe(0)
    expect(cashbackFor(1.5, 5)).toBe(0)
    expect(cashbackFor(10_000, 0)).toBe(0)
    expect(cashbackFor(10_000, -3)).toBe(0)
    expect(cashbackFor(10_000, 101)).toBe(0)
    expect(cashbackFor(10_000, 2.5)).toBe(0)
  })
})

describe('refundRoute', () => {
  it('goes back through a provider that can refund, whoever paid', () => {
    expect(refundRoute({ paidByProvider: 100, providerCanRefund: true, signedIn: false })).toBe('provider')
    expect(refundRoute({ paidByProvider: 100, providerCanRefund: true, signedIn: true })).toBe('provider')
  })

  it('else to a signed-in buyer’s balance, else to a person', () => {
    expect(refundRoute({ paidByProvider: 100, providerCanRefund: false, signedIn: true })).toBe('balance')
    expect(refundRoute({ paidByProvider: 100, providerCanRefund: false, signedIn: false })).toBe('manual')
    // paid with the balance alone: back to the balance, even where the provider could refund
    expect(refundRoute({ paidByProvider: 0, providerCanRefund: true, signedIn: true })).toBe('balance')
    expect(refundRoute({ paidByProvider: 0, providerCanRefund: true, signedIn: false })).toBe('manual')
  })
})

describe('cashbackTakeBack', () => {
  it('takes all of the cashback while the balance holds it', () => {
    expect(cashbackTakeBack(2000, 2000)).toEqual({ take: 2000, writtenOff: 0 })
    expect(cashbackTakeBack(2000, 5000)).toEqual({ take: 2000, writtenOff: 0 })
  })

  it('takes what is left and writes off what the buyer spent, never below zero', () => {
    expect(cashbackTakeBack(2000, 500)).toEqual({ take: 500, writtenOff: 1500 })
    expect(cashbackTakeBack(2000, 1999)).toEqual({ take: 1999, writtenOff: 1 })
    expect(cashbackTakeBack(2000, 0)).toEqual({ take: 0, writtenOff: 2000 })
    // a balance below zero (never, by the ledger's guard) is taken as zero
    expect(cashbackTakeBack(2000, -300)).toEqual({ take: 0, writtenOff: 2000 })
  })

  it('no cashback earned: nothing to take or write off', () => {
    expect(cashbackTakeBack(0, 5000)).toEqual({ take: 0, writtenOff: 0 })
    expect(cashbackTakeBack(-100, 5000)).toEqual({ take: 0, writtenOff: 0 })
  })
})
