import type { ApiDeps } from '../context'
import type { orders, paymentMethods, payments } from '../db/schema'
import type { ReceiptDoc } from '../services/receipts/formats'

export type OrderRow = typeof orders.$inferSelect
export type PaymentMethodRow = typeof paymentMethods.$inferSelect
export type PaymentRow = typeof payments.$inferSelect

export const SCENARIO_TYPES = [
  'external',
  'form',
  'invoice_qr',
  'p2p',
  'p2p_redirect',
  'qr',
  'redirect',
  'wait_order_state',
] as const
export type ScenarioType = (typeof SCENARIO_TYPES)[number]

/**
 * What the shopper does next (spec §3 "Payment scenario"). Every variant carries `type`.
 * `sandbox_checkout_url` is only set by the offline sandbox provider: the local checkout page where
 * the test payment is confirmed or declined (useful for the types that carry no url).
 */
export type PaymentScenario = { sandbox_checkout_url?: string } & (
  | { type: 'external'; help_text: string }
  | { type: 'form'; method: 'POST' | 'GET'; action: string; fields: Record<string, string> }
  | { type: 'invoice_qr'; qr_str: string; expires_at?: string }
  | { type: 'p2p'; card_number: string; card_name: string }
  | { type: 'p2p_redirect'; url: string }
  | { type: 'qr'; url: string }
  | { type: 'redirect'; url: string }
  | { type: 'wait_order_state'; order_id: string }
)

export interface CreatePaymentInput {
  order: OrderRow
  method: PaymentMethodRow
  /** The payment row already stored (pending): its id is the provider-side order reference. */
  payment: PaymentRow
  /** Amount in minor units of `currency` (fees included). */
  amount: number
  currency: string
  customer: { email: string | null; phone: string | null }
  /** The fiscal receipt to register with the payment (receipt transport `with_payment`). */
  receipt?: ReceiptDoc
}

export interface CreatePaymentResult {
  scenario: PaymentScenario
  /** The provider's own id of the payment, when it gives one at creation. */
  externalId?: string
}

/** Final state of a payment as the provider reports it. */
export type ProviderPaymentState =
  | {
      state: 'succeeded'
      amount: number
      currency: string
      eventKey: string
      /** What the provider says about the card that paid (the risk rules keep only a keyed hash). */
      card?: { first6?: string; last4?: string; masked?: string; issuerCountry?: string } | null
    }
  | { state: 'failed'; eventKey: string; reason?: string }
  | { state: 'pending' }

/** One payment provider adapter. Callbacks are routes of their own; they call the settle service. */
export interface PaymentProvider {
  readonly name: string
  /** The provider registers a fiscal receipt handed to it with the payment and the refund. */
  readonly carriesReceipt?: boolean
  /** Whether the adapter is configured and may be used for new payments. */
  isAvailable(deps: ApiDeps): boolean
  createPayment(input: CreatePaymentInput, deps: ApiDeps): Promise<CreatePaymentResult>
  /** Asks the provider for the state of a payment (status polls, 3DS returns). */
  fetchState?(payment: PaymentRow, deps: ApiDeps): Promise<ProviderPaymentState>
  /**
   * Gives a succeeded payment back in full. `key` is the same for every retry of one refund, so a
   * provider that dedupes requests refunds once. `amount`/`currency` (minor units): what the provider
   * took when it was not the payment's own amount (a refused payment). Throws ProviderError when
   * refused or unreachable.
   */
  refund?(payment: PaymentRow, deps: ApiDeps, opts: RefundOptions): Promise<ProviderRefundResult>
  /** Asks the provider for the state of a refund it answered `pending` (by the id it gave). */
  refundState?(externalId: string, deps: ApiDeps): Promise<ProviderRefundResult>
  /**
   * Registers the settlement receipt of an advance the payment took («чек зачёта предоплаты»,
   * decision 059), for providers that carry receipts; `key` the same for every retry.
   */
  registerSettlement?(
    doc: ReceiptDoc,
    payment: PaymentRow,
    deps: ApiDeps,
    key: string,
  ): Promise<ProviderReceiptState>
  /** Asks the provider for the state of a receipt it registered (by the id it gave). */
  receiptState?(id: string, deps: ApiDeps): Promise<ProviderReceiptState>
}

/** A receipt at the provider: still registering, registered with its fiscal attributes, or refused. */
export type ProviderReceiptState =
  | { state: 'pending'; id: string }
  | { state: 'registered'; id: string; fiscal: Record<string, string> }
  | { state: 'failed'; id: string; reason: string }

export interface RefundOptions {
  key: string
  /** The `sell_refund` receipt to register with the refund (receipt transport `with_payment`). */
  receipt?: ReceiptDoc
  amount?: number
  currency?: string
}

/**
 * A refund as the provider documents it (decision 110): `pending` — accepted and still being
 * processed, it may yet pay, so the shop waits (notification or requery) however long;
 * `succeeded` — paid back; `canceled` — the provider will not pay it, another route may be chosen.
 */
export type ProviderRefundState = 'pending' | 'succeeded' | 'canceled'

export interface ProviderRefundResult {
  state: ProviderRefundState
  /** The provider's id of the refund, when it gives one. */
  externalId: string | null
}

/**
 * A provider answered something we could not use (network, HTTP error, bad body). Whether the
 * request took effect is unknown: a refund call that throws this may still have created a refund.
 */
export class ProviderError extends Error {}

/**
 * The provider refused the request itself (a documented client error: bad request, not found,
 * forbidden): nothing was created. Only this, or a refund `canceled`, lets a refund leave the
 * provider's route (decision 110).
 */
export class ProviderRejected extends ProviderError {}
