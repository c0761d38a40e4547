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
}

export interface MethodGroupOption {
  name: string
  methods: MethodOption[]
}

export interface ShownPayment extends Payment {
  /** The QR code of qr / invoice_qr scenarios, drawn on the server. */
  qr: QrImage | null
}

export interface PayPageData {
  order: Order
  status: StatusResult | null
  /** The latest payment while it waits for the shopper (shown with its scenario). */
  payment: ShownPayment | null
  /** Why the last payment failed (declined), while the order can still be paid. */
  paymentMessage: string | null
  countries: Country[]
  country: ActiveCountry | null
  groups: MethodGroupOption[]
  /** The first method that can take this order: checked by default. */
  defaultMethod: string | null
  promo: { code: string; percent: number } | null
  /** The order can be paid, but the methods could not be loaded. */
  methodsUnavailable: boolean
  /** The page should keep refreshing itself (the order is on its way, or the payment waits for it). */
  waiting: boolean
  /** Poll the status (with JavaScript) while the shopper pays elsewhere. */
  poll: boolean
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
