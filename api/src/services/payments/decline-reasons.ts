// Why a payment was declined, in Russian: the provider's reason code (YooKassa's
// cancellation_details.reason) stored on the payment, mapped to a text in locales/ru/api.json
// (`payment_declined_{reason}`); an unknown or missing reason reads as the general «Оплата не прошла».
import { message, type MessageCode } from '../../lib/errors'
import type { PaymentRow } from '../../providers/types'
import apiMessages from '../../../../locales/ru/api.json' with { type: 'json' }

/** Key in payments.scenario holding the provider's decline reason code. */
export const DECLINE_REASON_KEY = 'decline_reason'

export function declineReasonOf(p: Pick<PaymentRow, 'scenario'>): string | null {
  const v = (p.scenario as Record<string, unknown> | null)?.[DECLINE_REASON_KEY]
  return typeof v === 'string' ? v : null
}

/** The buyer's text for a declined payment: the reason's own when we know it. */
export function declineMessage(reason: string | null): string {
  const key = `payment_declined_${reason ?? ''}`
  return key in apiMessages ? message(key as MessageCode) : message('payment_declined')
}
