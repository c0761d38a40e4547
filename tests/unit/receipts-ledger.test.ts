// The back-office's reading of a receipt (issue 47): what kind an accountant calls it, and the VAT
// inside a line's sum at each rate (prices include VAT; 20 % and 20/120 alike), rounded half up.
import { describe, expect, it } from 'vitest'
import { ledgerKind, vatOf, vatPercent } from '#api/services/receipts/ledger'

describe('ledgerKind', () => {
  it('names the four kinds', () => {
    const sell = { kind: 'sell' as const, externalId: 'sell:p1' }
    expect(ledgerKind({ ...sell, paymentMethod: 'full_prepayment' })).toBe('prepayment')
    expect(ledgerKind({ ...sell, paymentMethod: 'full_payment' })).toBe('payment')
    // rows written before the advance rule (decision 059) carry no method: «полный расчёт»
    expect(ledgerKind({ ...sell, paymentMethod: null })).toBe('payment')
    expect(ledgerKind({ kind: 'sell', externalId: 'settle:p1', paymentMethod: 'full_payment' })).toBe(
      'settlement',
    )
    // a resent settlement keeps its prefix
    expect(ledgerKind({ kind: 'sell', externalId: 'settle:p1#lz3', paymentMethod: 'full_payment' })).toBe(
      'settlement',
    )
    expect(
      ledgerKind({ kind: 'sell_refund', externalId: 'sell_refund:7', paymentMethod: 'full_prepayment' }),
    ).toBe('refund')
  })
})

describe('vatOf', () => {
  it('is the VAT inside the sum', () => {
    expect(vatOf(110160, 'vat20')).toBe(18360)
    expect(vatOf(110160, 'vat120')).toBe(18360)
    expect(vatOf(11000, 'vat10')).toBe(1000)
    expect(vatOf(11000, 'vat110')).toBe(1000)
    expect(vatOf(10500, 'vat5')).toBe(500)
    expect(vatOf(10700, 'vat107')).toBe(700)
    expect(vatOf(12200, 'vat22')).toBe(2200)
    expect(vatOf(12345, 'vat0')).toBe(0)
    expect(vatOf(12345, 'none')).toBeNull()
  })

  it('rounds half up to a kopeck', () => {
    // 100 × 20/120 = 16.67; 3 × 20/120 = 0.5 → 1; 2 × 20/120 = 0.33 → 0
    expect(vatOf(100, 'vat20')).toBe(17)
    expect(vatOf(3, 'vat20')).toBe(1)
    expect(vatOf(2, 'vat20')).toBe(0)
  })

  it('reads the percent of every rate', () => {
    expect(vatPercent('none')).toBeNull()
    expect(vatPercent('vat0')).toBe(0)
    expect(vatPercent('vat7')).toBe(7)
    expect(vatPercent('vat122')).toBe(22)
  })
})
