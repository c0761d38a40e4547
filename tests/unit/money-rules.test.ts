// The money rules both programs rely on, at their edges: negative and malformed amounts refused,
// zero, kopeck rounding half up, the largest amounts the wire allows. Written to kill the mutants
// that `npm run test:mutation` left alive (docs/decisions/035-mutation-testing.md).
import { describe, expect, it } from 'vitest'
import * as api from '#api/lib/money'
import * as app from '#app/lib/money'

// the API and the storefront keep their own copies of the wire rules: both must agree
describe.each([
  ['API', api],
  ['storefront', app],
])('%s wire amounts', (_name, m) => {
  it('writes kopecks as a two-place decimal, negatives with a sign', () => {
    expect(m.toMoney(0)).toBe('0.00')
    expect(m.toMoney(5)).toBe('0.05')
    expect(m.toMoney(50)).toBe('0.50')
    expect(m.toMoney(100)).toBe('1.00')
    expect(m.toMoney(19999)).toBe('199.99')
    expect(m.toMoney(-1)).toBe('-0.01')
    expect(m.toMoney(-150)).toBe('-1.50')
    expect(m.toMoney(123456789012345)).toBe('1234567890123.45')
  })

  it('refuses to write anything but a whole number of kopecks', () => {
    for (const bad of [0.5, 19.99, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])
      expect(() => m.toMoney(bad)).toThrow(RangeError)
    expect(() => m.toMoney(0.5)).toThrow('not an integer amount: 0.5')
  })

  it('reads amounts with up to two decimals, trimmed', () => {
    expect(m.parseMoney('0')).toBe(0)
    expect(m.parseMoney('0.00')).toBe(0)
    expect(m.parseMoney('199')).toBe(19900)
    expect(m.parseMoney('199.5')).toBe(19950)
    expect(m.parseMoney('199.05')).toBe(19905)
    expect(m.parseMoney('  7.10 ')).toBe(710)
    expect(m.parseMoney('999999999999.99')).toBe(99999999999999)
  })

  it('refuses negative, malformed and over-long amounts (null, never a guess)', () => {
    for (const bad of [
      '-1',
      '-0.01',
      '+1',
      '',
      ' ',
      '.5',
      '5.',
      '1.234',
      '01',
      '00.5',
      '1e3',
      '0x10',
      '1 000',
      '12a',
      'a12',
      '1.5x',
      '1000000000000', // 13 digits: beyond the column
      'NaN',
      'Infinity',
    ])
      expect(m.parseMoney(bad), bad).toBeNull()
  })

  it('rounds a basis-point share of an amount half up, in integers', () => {
    expect(m.applyBasisPoints(10000, 300)).toBe(300)
    expect(m.applyBasisPoints(50, 100)).toBe(1) // 0.5 kopeck → 1
    expect(m.applyBasisPoints(49, 100)).toBe(0) // 0.49 → 0
    expect(m.applyBasisPoints(150, 100)).toBe(2) // 1.5 → 2
    expect(m.applyBasisPoints(0, 2000)).toBe(0)
    expect(m.applyBasisPoints(12345, 0)).toBe(0)
    expect(m.applyBasisPoints(12345, 10000)).toBe(12345)
  })
})

describe('API money', () => {
  it('reads a number the way it is written (a JSON number in a request)', () => {
    expect(api.parseMoney(12.5)).toBe(1250)
    expect(api.parseMoney(200)).toBe(20000)
    expect(api.parseMoney(-1)).toBeNull()
    expect(api.parseMoney(0.001)).toBeNull()
  })

  it('takes a whole percent off, rounding the discount half up', () => {
    expect(api.percentOff(10000, 15)).toBe(8500)
    expect(api.percentOff(99, 33)).toBe(66) // 32.67 off → 33
    expect(api.percentOff(150, 1)).toBe(148) // 1.5 off → 2
    expect(api.percentOff(149, 1)).toBe(148) // 1.49 off → 1
    expect(api.percentOff(10000, 0)).toBe(10000)
    expect(api.percentOff(10000, 100)).toBe(0)
    expect(api.percentOff(0, 50)).toBe(0)
  })
})

describe('storefront money', () => {
  it('also reads a decimal comma, and nothing for a missing value', () => {
    expect(app.parseMoney('12,5')).toBe(1250)
    expect(app.parseMoney('12,05')).toBe(1205)
    expect(app.parseMoney(null)).toBeNull()
    expect(app.parseMoney(undefined)).toBeNull()
  })

  const NB = '\u00a0'
  const THIN = '\u202f'
  it('groups thousands only where there are more than three digits', () => {
    expect(app.formatMoney(0)).toBe(`0,00${NB}₽`)
    expect(app.formatMoney(99900)).toBe(`999,00${NB}₽`)
    expect(app.formatMoney(100000)).toBe(`1${THIN}000,00${NB}₽`)
    expect(app.formatMoney(100000000)).toBe(`1${THIN}000${THIN}000,00${NB}₽`)
    expect(app.formatMoney(-123456)).toBe(`−1${THIN}234,56${NB}₽`)
    expect(app.formatMoney(-5)).toBe(`−0,05${NB}₽`)
  })

  it('shows wire amounts with spaces around them as amounts, and unknown currencies by code', () => {
    expect(app.formatWireMoney(' -5.5 ')).toBe(`−5,50${NB}₽`)
    expect(app.formatWireMoney('--5')).toBe(`--5${NB}₽`)
    expect(app.formatWireMoney('7', 'KZT')).toBe(`7,00${NB}KZT`)
    expect(app.formatAmount(100, 'USD')).toBe(`1,00${NB}USD`)
    expect(app.formatAmount(100, 'RUB')).toBe(`1,00${NB}₽`)
  })

  it('shows a wire amount in a currency code the Russian way (the overview printed «3396.21 RUB»)', () => {
    expect(app.formatWireAmount('3396.21', 'RUB')).toBe(`3${THIN}396,21${NB}₽`)
    expect(app.formatWireAmount('3396.21')).toBe(`3${THIN}396,21${NB}₽`)
    expect(app.formatWireAmount('-1101.6', 'RUB')).toBe(`−1${THIN}101,60${NB}₽`)
    expect(app.formatWireAmount('5768', 'KZT')).toBe(`5${THIN}768,00${NB}KZT`)
    expect(app.formatWireAmount('n/a', 'RUB')).toBe(`n/a${NB}₽`)
    expect(app.currencySign('RUB')).toBe('₽')
    expect(app.currencySign('KZT')).toBe('KZT')
    expect(app.currencyName('RUB')).toBe('российский рубль')
    expect(app.currencyName('KZT')).toMatch(/тенге/)
    expect(app.currencyName('R')).toBe('R')
  })

  it('writes percents from basis points without needless zeros', () => {
    expect(app.formatPercent(0)).toBe('0')
    expect(app.formatPercent(5)).toBe('0,05')
    expect(app.formatPercent(10)).toBe('0,1')
    expect(app.formatPercent(1000)).toBe('10')
    expect(app.formatPercent(1005)).toBe('10,05')
  })
})
