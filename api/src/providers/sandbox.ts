import type { ApiDeps } from '../context'
import { message } from '../lib/errors'
import { hmacSha256Hex, safeEqual } from './signing'
import {
  type CreatePaymentInput,
  type CreatePaymentResult,
  type PaymentProvider,
  type PaymentScenario,
  SCENARIO_TYPES,
  type ScenarioType,
} from './types'

/** Demo card shown by the sandbox p2p scenarios (a test number, passes the Luhn check). */
export const SANDBOX_CARD_NUMBER = '2200 0000 0000 0004'

export function sandboxCheckoutPath(paymentId: string): string {
  return `/api/payments/sandbox/checkout/${paymentId}/`
}

export function sandboxCheckoutUrl(deps: ApiDeps, paymentId: string): string {
  return `${deps.config.publicUrl}${sandboxCheckoutPath(paymentId)}`
}

/**
 * The checkout page's proof that a confirm/decline form came from us for this exact payment:
 * HMAC-SHA256(jwtSecret, "sandbox|{payment_id}|{amount minor units}|{currency}") in hex.
 */
export function sandboxToken(deps: ApiDeps, paymentId: string, amount: number, currency: string): string {
  return hmacSha256Hex(deps.config.jwtSecret, `sandbox|${paymentId}|${amount}|${currency}`)
}

export function checkSandboxToken(
  deps: ApiDeps,
  fields: { paymentId: string; amount: number; currency: string; token: string | undefined },
): boolean {
  return safeEqual(sandboxToken(deps, fields.paymentId, fields.amount, fields.currency), fields.token)
}

/**
 * Offline provider for the demo and tests. The method's `scenario` column picks which of the eight
 * scenario types it answers with; every url/action points at the local checkout page, where the
 * payment is confirmed or declined.
 */
export const sandboxProvider: PaymentProvider = {
  name: 'sandbox',
  isAvailable: (deps) => deps.config.sandboxPayments,
  async createPayment(input: CreatePaymentInput, deps: ApiDeps): Promise<CreatePaymentResult> {
    const type: ScenarioType = SCENARIO_TYPES.includes(input.method.scenario as ScenarioType)
      ? (input.method.scenario as ScenarioType)
      : 'redirect'
    const url = sandboxCheckoutUrl(deps, input.payment.id)
    const base = { sandbox_checkout_url: url }
    let scenario: PaymentScenario
    switch (type) {
      case 'external':
        scenario = { ...base, type, help_text: message('sandbox_help_text') }
        break
      case 'form':
        scenario = {
          ...base,
          type,
          method: 'POST',
          action: url,
          fields: {
            payment_id: input.payment.id,
            amount: String(input.amount),
            currency: input.currency,
            token: sandboxToken(deps, input.payment.id, input.amount, input.currency),
          },
        }
        break
      case 'invoice_qr':
        scenario = { ...base, type, qr_str: url }
        break
      case 'p2p':
        scenario = {
          ...base,
          type,
          card_number: SANDBOX_CARD_NUMBER,
          card_name: message('sandbox_card_name'),
        }
        break
      case 'wait_order_state':
        scenario = { ...base, type, order_id: input.order.id }
        break
      default:
        scenario = { ...base, type, url }
    }
    return { scenario, externalId: `sandbox-${input.payment.id}` }
  },
  // the sandbox holds no money: a refund always succeeds, under a stable id
  async refund(payment) {
    return { state: 'succeeded', externalId: `sandbox-refund-${payment.id}` }
  },
}
