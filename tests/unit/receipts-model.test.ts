// Receipt lines (services/receipts/model.ts), their transport shapes (formats.ts) and the checksums of
// the requisites (requisites.ts): the lines always add up to the money actually paid, in kopecks.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applyPromoAndBalance } from '#api/services/orders/pricing'
import {
  ATOL_V5_PAYMENT_OBJECT,
  atolTimestamp,
  atolV5Body,
  payselectionReceiptData,
  type ReceiptDoc,
  YOOKASSA_TAX_SYSTEM,
  YOOKASSA_VAT_CODE,
  yookassaReceipt,
} from '#api/services/receipts/formats'
import {
  allocate,
  DEFAULT_ITEM_RULES,
  type GrossLine,
  ITEM_KINDS,
  ITEM_NAME_MAX,
  itemsTotal,
  mergeItemRules,
  receiptItems,
  splitLine,
  VAT_RATES,
} from '#api/services/receipts/model'
import { isValidInn, isValidOgrn } from '#api/services/receipts/requisites'

const line = fc.record({
  kind: fc.constantFrom(...ITEM_KINDS),
  name: fc.string({ minLength: 1, maxLength: 140 }),
  quantity: fc.integer({ min: 1, max: 50 }),
  unitPrice: fc.integer({ min: 0, max: 2_000_000 }),
})

describe('receipt lines add up to the money paid', () => {
  it('for any lines, promo percent, balance and method fee (property)', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.option(fc.integer({ min: 1, max: 100 }), { nil: null }),
        fc.integer({ min: 0, max: 50_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        (lines, promo, balance, fee) => {
          const gross = lines.reduce((s, l) => s + l.quantity * l.unitPrice, 0)
          fc.pre(gross > 0)
          const { totalToPay } = applyPromoAndBalance(gross, promo, balance)
          const items = receiptItems(lines, { toPay: totalToPay, fee }, DEFAULT_ITEM_RULES, 'Комиссия')
          expect(itemsTotal(items)).toBe(totalToPay + fee)
          for (const i of items) {
            expect(i.sum).toBe(i.price * i.quantity)
            expect(i.sum).toBeGreaterThan(0)
            expect(Number.isInteger(i.price)).toBe(true)
            expect(i.name.length).toBeLessThanOrEqual(ITEM_NAME_MAX)
          }
          // no kind is charged more than its catalogue sum; the fee is the one line added
          const noFee = receiptItems(lines, { toPay: totalToPay, fee: 0 }, DEFAULT_ITEM_RULES, 'Комиссия')
          expect(items.slice(0, noFee.length)).toEqual(noFee)
          expect(items.length - noFee.length).toBe(fee > 0 ? 1 : 0)
          for (const kind of ITEM_KINDS) {
            const cap = lines.filter((l) => l.kind === kind).reduce((s, l) => s + l.quantity * l.unitPrice, 0)
            const got = noFee.filter((i) => i.kind === kind).reduce((s, i) => s + i.sum, 0)
            expect(got).toBeLessThanOrEqual(cap)
          }
        },
      ),
      { numRuns: 400 },
    )
  })

  it('allocate: shares add up, none above its sum, in proportion within a kopeck', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 10 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (sums, f) => {
          const gross = sums.reduce((a, b) => a + b, 0)
          fc.pre(gross > 0)
          const paid = Math.floor(gross * f)
          const shares = allocate(sums, paid)
          expect(shares.reduce((a, b) => a + b, 0)).toBe(paid)
          shares.forEach((s, i) => {
            expect(s).toBeLessThanOrEqual(sums[i]!)
            expect(Math.abs(s * gross - sums[i]! * paid)).toBeLessThan(gross)
          })
        },
      ),
    )
  })

  it('allocate: examples (remainders to the largest fractions, earlier first on a tie)', () => {
    expect(allocate([100, 200], 150)).toEqual([50, 100])
    expect(allocate([1, 1, 1], 2)).toEqual([1, 1, 0])
    expect(allocate([1, 2], 2)).toEqual([1, 1])
    expect(allocate([3, 3, 4], 5)).toEqual([2, 1, 2])
    expect(allocate([5, 0, 5], 10)).toEqual([5, 0, 5])
    expect(allocate([0, 0], 0)).toEqual([0, 0])
    expect(allocate([7], 7)).toEqual([7])
    expect(() => allocate([0], 1)).toThrow('nothing to share the payment among')
    // ties go to the earlier lines, whatever the length
    expect(allocate(Array(12).fill(1), 3)).toEqual([1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0])
    expect(allocate([1, 1, 1, 1, 1], 2)).toEqual([1, 1, 0, 0, 0])
    // beyond 2^53 in the intermediate product: exact with BigInt
    expect(allocate([9_000_000_000, 1_000_000_000], 9_999_999_999)).toEqual([8_999_999_999, 1_000_000_000])
  })

  it('splitLine: one line when the sum divides, else two with prices p and p + 1', () => {
    expect(splitLine(3, 300)).toEqual([{ quantity: 3, price: 100, sum: 300 }])
    expect(splitLine(3, 301)).toEqual([
      { quantity: 2, price: 100, sum: 200 },
      { quantity: 1, price: 101, sum: 101 },
    ])
    expect(splitLine(3, 2)).toEqual([
      { quantity: 1, price: 0, sum: 0 },
      { quantity: 2, price: 1, sum: 2 },
    ])
    expect(splitLine(1, 0)).toEqual([{ quantity: 1, price: 0, sum: 0 }])
  })

  it('receiptItems: rules per kind, zero lines dropped, the fee as a commission line, long names cut', () => {
    const rules = mergeItemRules({ codes: { vat: 'vat20', payment_object: 'commodity' } })
    const lines: GrossLine[] = [
      { kind: 'codes', name: 'x'.repeat(200), quantity: 2, unitPrice: 10000 },
      { kind: 'gift', name: 'Подарок', quantity: 1, unitPrice: 0 },
    ]
    expect(receiptItems(lines, { toPay: 15001, fee: 0 }, rules, 'Комиссия')).toEqual([
      {
        name: 'x'.repeat(128),
        kind: 'codes',
        quantity: 1,
        price: 7500,
        sum: 7500,
        vat: 'vat20',
        payment_object: 'commodity',
      },
      {
        name: 'x'.repeat(128),
        kind: 'codes',
        quantity: 1,
        price: 7501,
        sum: 7501,
        vat: 'vat20',
        payment_object: 'commodity',
      },
    ])
    expect(receiptItems(lines, { toPay: 20000, fee: 250 }, DEFAULT_ITEM_RULES, 'Комиссия').at(-1)).toEqual({
      name: 'Комиссия',
      kind: 'commission',
      quantity: 1,
      price: 250,
      sum: 250,
      vat: 'none',
      payment_object: 'service',
    })
    expect(receiptItems(lines, { toPay: 20000, fee: 0 }, DEFAULT_ITEM_RULES, 'К')).toHaveLength(1)
    expect(itemsTotal([{ sum: 1 }, { sum: 2 }])).toBe(3)
  })

  it('mergeItemRules: the owner’s valid choices over the defaults, anything else ignored', () => {
    expect(DEFAULT_ITEM_RULES).toEqual({
      codes: { vat: 'none', payment_object: 'commodity' },
      topup: { vat: 'none', payment_object: 'service' },
      gift: { vat: 'none', payment_object: 'commodity' },
      steam_topup: { vat: 'none', payment_object: 'payment' },
      commission: { vat: 'none', payment_object: 'service' },
    })
    expect(mergeItemRules(null)).toEqual(DEFAULT_ITEM_RULES)
    const merged = mergeItemRules({
      topup: { vat: 'vat22', payment_object: 'payment' },
      gift: { vat: 'bogus', payment_object: 'nope' },
      steam_topup: { vat: 'vat0', payment_object: 'bad' },
      commission: { vat: 'bad', payment_object: 'agent_commission' },
    })
    expect(merged).toEqual({
      ...DEFAULT_ITEM_RULES,
      topup: { vat: 'vat22', payment_object: 'payment' },
      steam_topup: { vat: 'vat0', payment_object: DEFAULT_ITEM_RULES.steam_topup.payment_object },
      commission: { vat: DEFAULT_ITEM_RULES.commission.vat, payment_object: 'agent_commission' },
    })
  })
})

const doc: ReceiptDoc = {
  kind: 'sell',
  externalId: 'sell:abc',
  email: 'buyer@example.com',
  total: 20050,
  items: [
    {
      name: 'PUBG: 60 UC',
      kind: 'codes',
      quantity: 2,
      price: 9900,
      sum: 19800,
      vat: 'none',
      payment_object: 'commodity',
    },
    {
      name: 'Комиссия',
      kind: 'commission',
      quantity: 1,
      price: 250,
      sum: 250,
      vat: 'vat22',
      payment_object: 'service',
    },
  ],
  seller: {
    inn: '7707083893',
    name: 'ООО Тест',
    email: 'shop@example.com',
    tax_system: 'usn_income',
    payment_address: 'https://shop.example',
  },
}
const at = new Date('2026-11-27T21:05:09Z')

describe('receipt formats', () => {
  it('ATOL timestamp is Moscow time, dd.mm.yyyy HH:MM:SS', () => {
    expect(atolTimestamp(at)).toBe('28.11.2026 00:05:09')
    expect(atolTimestamp(new Date('2026-01-02T03:04:05Z'))).toBe('02.01.2026 06:04:05')
  })

  it('ATOL v5 sell body', () => {
    expect(atolV5Body(doc, at)).toEqual({
      external_id: 'sell:abc',
      timestamp: '28.11.2026 00:05:09',
      receipt: {
        client: { email: 'buyer@example.com' },
        company: {
          email: 'shop@example.com',
          sno: 'usn_income',
          inn: '7707083893',
          payment_address: 'https://shop.example',
        },
        items: [
          {
            name: 'PUBG: 60 UC',
            price: 99,
            quantity: 2,
            sum: 198,
            measure: 0,
            payment_method: 'full_payment',
            payment_object: 1,
            vat: { type: 'none' },
          },
          {
            name: 'Комиссия',
            price: 2.5,
            quantity: 1,
            sum: 2.5,
            measure: 0,
            payment_method: 'full_payment',
            payment_object: 4,
            vat: { type: 'vat22' },
          },
        ],
        payments: [{ type: 1, sum: 200.5 }],
        total: 200.5,
      },
    })
    expect(ATOL_V5_PAYMENT_OBJECT).toEqual({
      commodity: 1,
      service: 4,
      payment: 10,
      agent_commission: 11,
      another: 13,
    })
  })

  it('Payselection ReceiptData (ATOL v4 shape)', () => {
    const r = payselectionReceiptData(doc, at)
    expect(r.timestamp).toBe('28.11.2026 00:05:09')
    expect(r.external_id).toBe('sell:abc')
    expect(r.receipt.items[1]).toEqual({
      name: 'Комиссия',
      price: 2.5,
      quantity: 1,
      sum: 2.5,
      measurement_unit: 'шт',
      payment_method: 'full_payment',
      payment_object: 'service',
      vat: { type: 'vat22' },
    })
    expect(r.receipt.client).toEqual({ email: 'buyer@example.com' })
    expect(r.receipt.company.inn).toBe('7707083893')
    expect(r.receipt.payments).toEqual([{ type: 1, sum: 200.5 }])
    expect(r.receipt.total).toBe(200.5)
  })

  it('YooKassa receipt object', () => {
    expect(yookassaReceipt(doc)).toEqual({
      customer: { email: 'buyer@example.com' },
      items: [
        {
          description: 'PUBG: 60 UC',
          quantity: 2,
          amount: { value: '99.00', currency: 'RUB' },
          vat_code: 1,
          payment_mode: 'full_payment',
          payment_subject: 'commodity',
        },
        {
          description: 'Комиссия',
          quantity: 1,
          amount: { value: '2.50', currency: 'RUB' },
          vat_code: 11,
          payment_mode: 'full_payment',
          payment_subject: 'service',
        },
      ],
      tax_system_code: 2,
    })
    expect(Object.keys(YOOKASSA_VAT_CODE).sort()).toEqual([...VAT_RATES].sort())
    expect(new Set(Object.values(YOOKASSA_VAT_CODE)).size).toBe(VAT_RATES.length)
    expect(YOOKASSA_VAT_CODE).toMatchObject({
      vat0: 2,
      vat10: 3,
      vat20: 4,
      vat110: 5,
      vat120: 6,
      vat5: 7,
      vat7: 8,
      vat105: 9,
      vat107: 10,
      vat122: 12,
    })
    expect(YOOKASSA_TAX_SYSTEM).toEqual({ osn: 1, usn_income: 2, usn_income_outcome: 3, esn: 5, patent: 6 })
  })
})

describe('requisites checksums', () => {
  it('ИНН of an organisation (10) and a person (12)', () => {
    expect(isValidInn('7707083893')).toBe(true)
    expect(isValidInn('7707083894')).toBe(false)
    expect(isValidInn('500100732259')).toBe(true)
    expect(isValidInn('500100732249')).toBe(false)
    expect(isValidInn('500100732258')).toBe(false)
    expect(isValidInn('770708389')).toBe(false)
    expect(isValidInn('77070838931')).toBe(false)
    expect(isValidInn('770708389a')).toBe(false)
    expect(isValidInn(' 7707083893')).toBe(false)
    // a 13th digit after a valid 12; the 11th check digit wrong while the 12th fits
    expect(isValidInn('5001007322591')).toBe(false)
    expect(isValidInn('500100732202')).toBe(false)
  })
  it('ОГРН (13) and ОГРНИП (15)', () => {
    expect(isValidOgrn('1027700132195')).toBe(true)
    expect(isValidOgrn('1027700132196')).toBe(false)
    expect(isValidOgrn('304500116000157')).toBe(true)
    expect(isValidOgrn('304500116000158')).toBe(false)
    expect(isValidOgrn('10277001321950')).toBe(false)
    expect(isValidOgrn('102770013219')).toBe(false)
    expect(isValidOgrn('1027700132195 ')).toBe(false)
    // ОГРНИП checks modulo 13, not 11; nothing past 15 digits
    expect(isValidOgrn('311113819493805')).toBe(true)
    expect(isValidOgrn('5253608691488931')).toBe(false)
  })
})
