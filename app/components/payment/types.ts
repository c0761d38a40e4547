import type { components } from '#openapi/schema'
// Shapes the payment page's loader hands to its components (shared by server and browser code).
import type { QrImage } from '#app/lib/qr.server'
import type {
  ActiveCountry,
  availability,
  Country,
  Order,
  Payment,
  PaymentMethod,
  StatusResult,
} from '#app/lib/view-models/order'

export interface MethodOption {
  method: PaymentMethod
  availability: ReturnType<typeof availability>
  /** What the shopper reads under the method: its fee, then the total or why it is disabled. */
  details: string
  /** The total through this method, fee included, in its currency's minor units (null: no rate). */
  amount: number | null
  /** That total as the pay button says it, e.g. «416,22 ₽». */
  amountText: string | null
}

export interface MethodGroupOption {
  name: string
  methods: MethodOption[]
}

export interface ShownPayment extends Payment {
  /** The QR code of qr / invoice_qr scenarios, drawn on the server. */
  qr: QrImage | null
  /** An SBP QR's time limit (Moscow time) and whether it has passed (then a new one is offered). */
  qrExpiry: { until: string; expired: boolean } | null
}

export interface PayPageData {
  order: Order
  /** The order's fiscal receipts (54-ФЗ), from the status answer's optional `receipts` (issue 33). */
  receipts: Array<components['schemas']['OrderReceipt']>
  status: StatusResult | null
  /** The latest payment while it waits for the shopper (shown with its scenario). */
  payment: ShownPayment | null
  /**
   * What the shopper should know about payments, one line each: «Платёж не засчитан — возвращаем
   * деньги» for each payment taken but not accepted, then why the last payment failed (declined)
   * while the order can still be paid and no other payment is under way. Null when nothing.
   */
  paymentMessage: string | null
  /**
   * The latest payment was declined and the order can be paid again (no other payment under way):
   * why (the API's text), and the method to retry with when it can take the order as it is.
   */
  declined: { reason: string; retryMethod: string | null } | null
  /** A done order's success screen: activation, or what was delivered (the done mail's texts). */
  done: DoneTexts | null
  countries: Country[]
  country: ActiveCountry | null
  groups: MethodGroupOption[]
  /** The first method that can take this order: checked by default. */
  defaultMethod: string | null
  promo: { code: string; percent: number } | null
  /** The order can be paid, but the methods could not be loaded. */
  methodsUnavailable: boolean
  /** The shop has no method a buyer can use (none set up, or all off): it takes no payments now. */
  noPayments: boolean
  /** The page should keep refreshing itself (the order is on its way, or the payment waits for it). */
  waiting: boolean
  /** Standoff: the skin to list (name, picture), when the order has a listing price. */
  skin: { name: string; picture: string } | null
  /** Poll the status (with JavaScript) while the shopper pays elsewhere. */
  poll: boolean
  /** What the order editor offers while the order is unpaid and no payment is under way (else null). */
  edit: OrderEditData | null
}

export interface DoneTexts {
  /** How to activate the codes, and the page to do it on (Midasbuy, the gift's page). */
  activation: { heading: string; text: string; link: { href: string; external: boolean } | null } | null
  /** «Храните коды как деньги…», when there are codes. */
  keep: string | null
  /** An order without codes: what was topped up, and for whom. */
  delivered: string | null
}

export interface OrderEditData {
  /** The game's products on sale now (PUBG, Standoff, supply-channel orders; empty for others). */
  products: Array<{ id: number; title: string; unitPrice: number; minQuantity: number; maxQuantity: number }>
  servers: Array<{ id: number; name: string }>
  /** The supply game needs a server: from its list (`serverEnum`, a select) or typed. */
  serverNeeded: boolean
  serverEnum: boolean
}

/** Fields of the editor's forms (the API's names; `qty_<product id>` for quantities). */
export type EditFieldName =
  | 'email'
  | 'game_account_id'
  | 'steam_account_id'
  | 'moogold_user_id'
  | 'moogold_server'
  | 'moogold_server_custom_id'
  | 'amount'
  | `qty_${number}`

export interface EditActionData {
  intent: 'edit_lines' | 'edit_amount' | 'edit_delivery'
  /** A refusal that belongs to no one field. */
  error: string | null
  fieldErrors: Partial<Record<EditFieldName, string>>
  /** What was sent, shown again (the page works without JavaScript). */
  values: Record<string, string>
}

export type PayActionData =
  | { intent: 'promo'; error: string; code: string }
  | {
      intent: 'pay'
      error: string | null
      fieldErrors: { email?: string; phone?: string }
      values: { method: string; email: string; phone: string }
    }
  | { intent: 'pay_started'; paymentId: string }
  | { intent: 'country'; error: string }
  | EditActionData
