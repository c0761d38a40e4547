// One way of writing money for the shopper (app/lib/money.ts): every screen's amounts, wire strings
// included, come out as "1 234,50 ₽" — never "89.00 ₽".
import { describe, expect, it } from 'vitest'
import {
  formatAmount,
  formatDecimal,
  formatMoney,
  formatPercent,
  formatWireDecimal,
  formatWireMoney,
} from '#app/lib/money'

const NB = '\u00a0'
const THIN = '\u202f'

describe('storefront money formatter', () => {
  it('writes wire amounts the ru-RU way', () => {
    expect(formatWireMoney('89.00')).toBe(`89,00${NB}₽`)
    expect(formatWireMoney('0.00')).toBe(`0,00${NB}₽`)
    expect(formatWireMoney('50000.00')).toBe(`50${THIN}000,00${NB}₽`)
    expect(formatWireMoney('1234567.5')).toBe(`1${THIN}234${THIN}567,50${NB}₽`)
    expect(formatWireMoney('-12.30')).toBe(`−12,30${NB}₽`)
  })

  it('keeps a text that is not an amount visible instead of hiding it', () => {
    expect(formatWireMoney('n/a')).toBe(`n/a${NB}₽`)
    expect(formatWireMoney(null)).toBe('')
  })

  it('names other currencies by code and RUB by its sign', () => {
    expect(formatAmount(576800, 'KZT')).toBe(`5${THIN}768,00${NB}KZT`)
    expect(formatAmount(103000)).toBe(`1${THIN}030,00${NB}₽`)
    expect(formatMoney(100, '$')).toBe(`1,00${NB}$`)
  })

  it('writes percents without needless zeros', () => {
    expect(formatPercent(300)).toBe('3')
    expect(formatPercent(350)).toBe('3,5')
    expect(formatPercent(125)).toBe('1,25')
  })

  it('writes Standoff gold and other unit amounts as Russian numbers (issue 50: «526,42 G», not «526.42 G»)', () => {
    expect(formatDecimal(52642)).toBe('526,42')
    expect(formatDecimal(17)).toBe('0,17')
    expect(formatDecimal(123456789)).toBe(`1${THIN}234${THIN}567,89`)
    expect(formatDecimal(-5)).toBe('−0,05')
    expect(formatWireDecimal('526.42')).toBe('526,42')
    expect(formatWireDecimal('0.17')).toBe('0,17')
    expect(formatWireDecimal('10500.5')).toBe(`10${THIN}500,50`)
    // a text that is not a decimal stays visible as it came
    expect(formatWireDecimal('abc')).toBe('abc')
  })
})
