// Receipts by the moment of delivery (decision 059): which признак способа расчёта a payment's
// receipt gets, the settlement of an advance, which receipt a refund gives back, and how ATOL and
// YooKassa are told (payment_method / payment_mode, payments type 2, settlements of type prepayment).
import { describe, expect, it } from 'vitest'
import {
  atolV5Body,
  type ReceiptDoc,
  yookassaReceipt,
  yookassaSettlementReceipt,
} from '#api/services/receipts/formats'
import {
  atolPaymentType,
  isSettlement,
  needsSettlement,
  paymentMethodAtPayment,
  RECEIPT_JOB,
  refundBasis,
  settlementId,
} from '#api/services/receipts/moment'

const doc = (over: Partial<ReceiptDoc> = {}): ReceiptDoc => ({
  kind: 'sell',
  externalId: 'sell:p1',
  email: 'buyer@example.com',
  total: 108000,
  items: [
    {
      name: 'Пополнение Steam',
      kind: 'steam_topup',
      quantity: 1,
      price: 100000,
      sum: 100000,
      vat: 'none',
      payment_object: 'payment',
    },
    {
      name: 'Комиссия',
      kind: 'commission',
      quantity: 1,
      price: 8000,
      sum: 8000,
      vat: 'none',
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
  ...over,
})

describe('the moment of delivery', () => {
  it('an order delivered later is an advance; one handed over at payment is paid in full', () => {
    expect(paymentMethodAtPayment(true)).toBe('full_prepayment')
    expect(paymentMethodAtPayment(false)).toBe('full_payment')
    expect(needsSettlement('full_prepayment')).toBe(true)
    expect(needsSettlement('full_payment')).toBe(false)
    expect(needsSettlement(null)).toBe(false)
    expect(RECEIPT_JOB).toBe('receipt.send')
  })

  it('names the settlement of a payment and recognises it', () => {
    expect(settlementId('p1')).toBe('settle:p1')
    expect(isSettlement('settle:p1')).toBe(true)
    expect(isSettlement('sell:p1')).toBe(false)
    expect(isSettlement('sell_refund:7')).toBe(false)
    expect(isSettlement('x-settle:p1')).toBe(false)
  })

  it('a refund gives back the settlement once delivered, else the payment’s receipt', () => {
    const sell = { externalId: 'sell:p1' }
    const settle = { externalId: 'settle:p1' }
    expect(refundBasis(sell, settle)).toBe(settle)
    expect(refundBasis(sell, undefined)).toBe(sell)
    expect(refundBasis(undefined, undefined)).toBeNull()
  })

  it('ATOL: the settlement is paid by the advance (type 2), everything else electronically (type 1)', () => {
    expect(atolPaymentType('settle:p1')).toBe(2)
    expect(atolPaymentType('sell:p1')).toBe(1)
    expect(atolPaymentType('sell_refund:3')).toBe(1)
    const at = new Date('2026-12-01T12:00:00Z')
    const advance = atolV5Body(doc({ paymentMethod: 'full_prepayment' }), at)
    expect(advance.receipt.items.map((i) => i.payment_method)).toEqual(['full_prepayment', 'full_prepayment'])
    expect(advance.receipt.payments).toEqual([{ type: 1, sum: 1080 }])
    const settlement = atolV5Body(doc({ externalId: 'settle:p1', paymentMethod: 'full_payment' }), at)
    expect(settlement.receipt.items.map((i) => i.payment_method)).toEqual(['full_payment', 'full_payment'])
    expect(settlement.receipt.payments).toEqual([{ type: 2, sum: 1080 }])
    // a receipt without a method (written before decision 059's rule) is «полный расчёт»
    expect(atolV5Body(doc(), at).receipt.items[0]!.payment_method).toBe('full_payment')
  })

  it('YooKassa: payment_mode with the payment, and POST /receipts with prepayment settlements', () => {
    expect(
      yookassaReceipt(doc({ paymentMethod: 'full_prepayment' })).items.map((i) => i.payment_mode),
    ).toEqual(['full_prepayment', 'full_prepayment'])
    expect(yookassaReceipt(doc()).items[1]!.payment_mode).toBe('full_payment')
    const body = yookassaSettlementReceipt(
      doc({ externalId: 'settle:p1', paymentMethod: 'full_prepayment' }),
      'yk-1',
    )
    expect(body).toMatchObject({
      type: 'payment',
      payment_id: 'yk-1',
      send: true,
      customer: { email: 'buyer@example.com' },
      tax_system_code: 2,
      settlements: [{ type: 'prepayment', amount: { value: '1080.00', currency: 'RUB' } }],
    })
    expect(body.items.map((i) => [i.payment_mode, i.amount.value])).toEqual([
      ['full_payment', '1000.00'],
      ['full_payment', '80.00'],
    ])
  })
})
