// Our receipt in the shapes the fiscal services take (pure mappings, mutation-tested):
//   - ATOL Online v5 `sell` / `sell_refund` bodies (the `atol` transport);
//   - Payselection's `ReceiptData` (ATOL v4 shape) in its payment and refund calls;
//   - YooKassa's `receipt` object in its payment and refund requests (wired by the YooKassa adapter).
import { toMoney } from '../../lib/money'
import type { ReceiptKind, ReceiptPaymentMethod } from '../../db/schema'
import { atolPaymentType } from './moment'
import type { PaymentObject, ReceiptItem, ReceiptSeller, TaxSystem, VatRate } from './model'

export interface ReceiptDoc {
  kind: ReceiptKind
  externalId: string
  email: string
  total: number
  items: ReceiptItem[]
  seller: ReceiptSeller
  /** Признак способа расчёта of every line (decision 059): «полный расчёт» when absent. */
  paymentMethod?: ReceiptPaymentMethod
}

const methodOf = (doc: ReceiptDoc): ReceiptPaymentMethod => doc.paymentMethod ?? 'full_payment'

/** Kopecks as the number of roubles ATOL's JSON expects (exact: parsed from the decimal string). */
const rub = (minor: number) => Number(toMoney(minor))

/** "dd.mm.yyyy HH:MM:SS" in Moscow time (UTC+3, no daylight saving), as ATOL wants its timestamp. */
export function atolTimestamp(at: Date): string {
  const d = new Date(at.getTime() + 3 * 3600_000)
  const p = (n: number) => String(n).padStart(2, '0')
  return (
    `${p(d.getUTCDate())}.${p(d.getUTCMonth() + 1)}.${d.getUTCFullYear()} ` +
    `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`
  )
}

/** ATOL v5 numeric payment object (ФФД 1.2 tag 1212). */
export const ATOL_V5_PAYMENT_OBJECT: Record<PaymentObject, number> = {
  commodity: 1,
  service: 4,
  payment: 10,
  agent_commission: 11,
  another: 13,
}

const company = (s: ReceiptSeller) => ({
  email: s.email,
  sno: s.tax_system,
  inn: s.inn,
  payment_address: s.payment_address,
})

/** The body of POST /{group}/sell or /{group}/sell_refund (ATOL Online v5). */
export function atolV5Body(doc: ReceiptDoc, at: Date) {
  return {
    external_id: doc.externalId,
    timestamp: atolTimestamp(at),
    receipt: {
      client: { email: doc.email },
      company: company(doc.seller),
      items: doc.items.map((i) => ({
        name: i.name,
        price: rub(i.price),
        quantity: i.quantity,
        sum: rub(i.sum),
        measure: 0,
        payment_method: methodOf(doc),
        payment_object: ATOL_V5_PAYMENT_OBJECT[i.payment_object],
        vat: { type: i.vat },
      })),
      payments: [{ type: atolPaymentType(doc.externalId), sum: rub(doc.total) }],
      total: rub(doc.total),
    },
  }
}

/** Payselection's `ReceiptData` (ATOL v4 shape: payment objects and units by name). */
export function payselectionReceiptData(doc: ReceiptDoc, at: Date) {
  return {
    timestamp: atolTimestamp(at),
    external_id: doc.externalId,
    receipt: {
      client: { email: doc.email },
      company: company(doc.seller),
      items: doc.items.map((i) => ({
        name: i.name,
        price: rub(i.price),
        quantity: i.quantity,
        sum: rub(i.sum),
        measurement_unit: 'шт',
        payment_method: methodOf(doc),
        payment_object: i.payment_object,
        vat: { type: i.vat },
      })),
      payments: [{ type: 1, sum: rub(doc.total) }],
      total: rub(doc.total),
    },
  }
}

/** YooKassa `vat_code` (1 без НДС, 2 0 %, 3 10 %, 4 20 %, 5 10/110, 6 20/120, 7 5 %, 8 7 %, 9 5/105, 10 7/107, 11 22 %, 12 22/122). */
export const YOOKASSA_VAT_CODE: Record<VatRate, number> = {
  none: 1,
  vat0: 2,
  vat10: 3,
  vat20: 4,
  vat110: 5,
  vat120: 6,
  vat5: 7,
  vat7: 8,
  vat105: 9,
  vat107: 10,
  vat22: 11,
  vat122: 12,
}

/** YooKassa `tax_system_code` (1 ОСН, 2 УСН доходы, 3 УСН доходы минус расходы, 5 ЕСХН, 6 ПСН). */
export const YOOKASSA_TAX_SYSTEM: Record<TaxSystem, number> = {
  osn: 1,
  usn_income: 2,
  usn_income_outcome: 3,
  esn: 5,
  patent: 6,
}

/** YooKassa's `receipt` object: `amount` of an item is its unit price. */
export function yookassaReceipt(doc: ReceiptDoc) {
  return {
    customer: { email: doc.email },
    items: doc.items.map((i) => ({
      description: i.name,
      quantity: i.quantity,
      amount: { value: toMoney(i.price), currency: 'RUB' },
      vat_code: YOOKASSA_VAT_CODE[i.vat],
      payment_mode: methodOf(doc),
      payment_subject: i.payment_object,
    })),
    tax_system_code: YOOKASSA_TAX_SYSTEM[doc.seller.tax_system],
  }
}

/**
 * The body of YooKassa's POST /receipts for the settlement of an advance taken with a payment
 * («чек зачёта предоплаты»): `type: payment` of that payment, the lines as «полный расчёт», and
 * `settlements` of type `prepayment` for the whole sum.
 */
export function yookassaSettlementReceipt(doc: ReceiptDoc, providerPaymentId: string) {
  return {
    type: 'payment',
    payment_id: providerPaymentId,
    send: true,
    ...yookassaReceipt({ ...doc, paymentMethod: 'full_payment' }),
    settlements: [{ type: 'prepayment', amount: { value: toMoney(doc.total), currency: 'RUB' } }],
  }
}
