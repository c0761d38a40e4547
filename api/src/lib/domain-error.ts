// Refusals of the shop's rules, thrown by services as a code with its parameters (and the field it
// concerns), never as an HTTP status: DOMAIN_STATUS below is the one place a refusal becomes a
// status, and the API's error body (`detail` in Russian from locales/ru/api.json, `code`, `fields`)
// is written by errorResponse (lib/errors.ts) as for every ApiError, so answers stay byte for byte.
// A DomainError is an ApiError, so code that catches those (settle, requery, expiry) is unchanged.
// Converted so far: order creation and starting a payment (issue 35, decision 097).
import { ApiError, type ErrorStatus, type MessageCode, message } from './errors'

export const DOMAIN_STATUS = {
  // 400: the request breaks a rule of the order or the payment (a field says which)
  avatar_required: 400,
  order_duplicate_product: 400,
  order_email_invalid: 400,
  order_email_required: 400,
  order_empty: 400,
  order_game_unavailable: 400,
  order_product_inactive: 400,
  order_product_unknown: 400,
  order_products_mixed_games: 400,
  order_quantity_above_max: 400,
  order_quantity_below_min: 400,
  order_wrong_game_kind: 400,
  payment_amount_below_minimum: 400,
  payment_currency_not_supported: 400,
  payment_email_invalid: 400,
  payment_email_required: 400,
  payment_method_inactive: 400,
  payment_phone_invalid: 400,
  payment_phone_required: 400,
  steam_amount_above_max: 400,
  steam_amount_below_min: 400,
  steam_amount_invalid: 400,
  steam_unavailable: 400,
  supply_server_required: 400,
  supply_server_unknown: 400,
  surplus_invalid: 400,
  // 401: no one is signed in
  not_authenticated: 401,
  // 403: the rule needs a signed-in buyer
  order_auth_required: 403,
  // 404: what the request names is not there (or not the caller's)
  order_not_found: 404,
  payment_method_not_found: 404,
  // 409: the order's state forbids it now
  order_already_paid: 409,
  order_not_payable: 409,
  order_total_changed: 409,
  promo_code_dropped: 409,
} as const satisfies Partial<Record<MessageCode, ErrorStatus>>

export type DomainCode = keyof typeof DOMAIN_STATUS

export class DomainError extends ApiError {
  constructor(code: DomainCode, params?: Record<string, string | number>, field?: string) {
    const detail = message(code, params)
    super(DOMAIN_STATUS[code], code, detail, field === undefined ? undefined : { [field]: [detail] })
  }
}

/** A rule refuses the request. */
export const refuse = (code: DomainCode, params?: Record<string, string | number>) =>
  new DomainError(code, params)

/** A rule refuses the value of one field of the request. */
export const refuseField = (field: string, code: DomainCode, params?: Record<string, string | number>) =>
  new DomainError(code, params, field)
