// Receipts by the moment of delivery (54-ФЗ, ФФД 1.05/1.2; issue 45, decision 059): an order handed
// over when it is paid (PUBG and gift codes from stock) gets one «полный расчёт» receipt; an order
// delivered later (by a person at the desk, or by a supplier that confirms after the payment) gets
// «предоплата 100 %» when paid and, when delivered, a second «полный расчёт» receipt that offsets
// the advance (payment type «зачёт предоплаты»). A refund gives back the latest of the two: the
// advance before delivery, the settlement after. Pure code: mutation-tested.
import type { ReceiptPaymentMethod } from '../../db/schema'

export type { ReceiptPaymentMethod }

/** The job that registers a pending receipt (send-job.ts). */
export const RECEIPT_JOB = 'receipt.send'

/** Признак способа расчёта of the receipt written when an order is paid. */
export function paymentMethodAtPayment(deliveredLater: boolean): ReceiptPaymentMethod {
  return deliveredLater ? 'full_prepayment' : 'full_payment'
}

/** The external id of the settlement receipt of a payment's advance (one per payment). */
export const settlementId = (paymentId: string) => `settle:${paymentId}`

/** Whether a receipt is the settlement of an advance (its money came as the advance, not now). */
export const isSettlement = (externalId: string) => externalId.startsWith('settle:')

/** Whether a paid order's receipt calls for a settlement receipt once the order is delivered. */
export const needsSettlement = (method: ReceiptPaymentMethod | null) => method === 'full_prepayment'

/**
 * Which receipt a refund gives back: the settlement once the order was delivered, else the receipt
 * of the payment (the advance, or a «полный расчёт» at payment). Null when neither exists.
 */
export function refundBasis<R extends { externalId: string }>(
  sell: R | undefined,
  settlement: R | undefined,
) {
  return settlement ?? sell ?? null
}

/**
 * ATOL v5 `payments` of a receipt: the settlement of an advance is paid by «предварительная оплата
 * (зачёт аванса)» (type 2); every other receipt by electronic money (type 1).
 */
export function atolPaymentType(externalId: string): 1 | 2 {
  return isSettlement(externalId) ? 2 : 1
}
