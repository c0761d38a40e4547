// Refusals of the shop's rules, thrown by services as a code with its parameters (and the field it
// concerns), never as an HTTP status: DOMAIN_STATUS below is the one place a refusal becomes a
// status, and the API's error body (`detail` in Russian from locales/ru/api.json, `code`, `fields`)
// is written by errorResponse (lib/errors.ts) as for every ApiError, so answers stay byte for byte.
// A DomainError is an ApiError, so code that catches those (settle, requery, expiry) is unchanged.
// Every service throws these (issue 35, decision 097), except four codes whose status depends on
// where they are refused (promo_code_exhausted and promo_code_already_used: 400 when applied, 409 when
// a race is lost at redemption; password_not_set; gift_not_found), which keep `fail` with their status.
import { ApiError, type ErrorStatus, type MessageCode, message } from './errors'

export const DOMAIN_STATUS = {
  // 400: the request breaks a rule of the order or the payment (a field says which)
  article_requisites_unfilled: 400,
  avatar_history_missing: 400,
  avatar_not_image: 400,
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
  // the other services' refusals (issue 35: every service throws domain errors)
  admin_discount_not_below_price: 400,
  admin_min_over_max: 400,
  block_value_card: 400,
  block_value_domain: 400,
  block_value_email: 400,
  block_value_network: 400,
  consent_required: 400,
  current_password_wrong: 400,
  idempotency_key_invalid: 400,
  order_id_invalid: 400,
  order_wrong_kind: 400,
  password_same: 400,
  payment_method_kind_unknown: 400,
  payment_provider_currency: 400,
  payment_provider_not_configured: 400,
  payment_provider_sandbox_off: 400,
  player_id_malformed: 400,
  player_not_found: 400,
  promo_code_expired: 400,
  promo_code_foreign_game: 400,
  promo_code_excluded_kind: 400,
  promo_code_foreign_gift: 400,
  promo_code_inactive: 400,
  refresh_expired: 400,
  refresh_invalid: 400,
  refresh_reused: 400,
  reset_link_invalid: 400,
  social_auth_expired: 400,
  social_browser_mismatch: 400,
  social_code_invalid: 400,
  social_provider_not_configured: 400,
  social_redirect_invalid: 400,
  social_signature_invalid: 400,
  social_state_invalid: 400,
  supplier_sandbox_off: 400,
  yookassa_notice_invalid: 400,
  token_not_valid: 401,
  wrong_password: 401,
  buyer_blocked: 403,
  game_not_found: 404,
  not_found: 404,
  payment_not_found: 404,
  promo_code_not_active: 404,
  promo_code_unknown: 404,
  receipt_not_found: 404,
  settings_unavailable: 404,
  social_not_bound: 404,
  admin_order_not_retryable: 409,
  block_conflict: 409,
  delivery_not_waiting: 409,
  delivery_taken_by_other: 409,
  hold_limit: 409,
  listing_hold_limit: 409,
  hold_time_over: 409,
  idempotency_conflict: 409,
  order_not_editable: 409,
  out_of_stock: 409,
  payment_country_default_delete: 409,
  payment_country_has_payments: 409,
  payment_group_has_payments: 409,
  payment_method_builtin: 409,
  payment_method_has_payments: 409,
  promo_order_paid: 409,
  receipt_not_failed: 409,
  review_not_held: 409,
  social_already_bound: 409,
  social_email_taken: 409,
  social_last_login_method: 409,
  social_provider_already_bound: 409,
  standoff_listing_busy: 409,
  standoff_listing_busy_paid: 409,
  rate_limited: 429,
  social_provider_unavailable: 502,
  // the back-office's refusals (issue 46: its workflows moved from the routes into services)
  admin_promo_scope: 400,
  payment_country_default_hidden: 400,
  payment_method_name_taken: 400,
  refund_done_reason_required: 400,
  seller_inn_invalid: 400,
  seller_ogrn_invalid: 400,
  seller_sandbox_in_production: 400,
  steam_settings_bounds: 400,
  admin_forbidden: 403,
  admin_mail_nothing_to_resend: 409,
  admin_order_no_email: 409,
  admin_order_not_cancellable: 409,
  admin_promo_exists: 409,
  admin_import_too_many: 413,
  avatar_too_large: 413,
  refund_exists: 409,
  refund_not_allowed: 409,
  refund_nothing_paid: 409,
  refund_route_not_allowed: 409,
  shop_not_saved: 409,
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

/** Over a rate limit: 429 `rate_limited`, and the answer says when to retry (Retry-After). */
export function refuseOverLimit(retryAfter: number): DomainError {
  const err = new DomainError('rate_limited', { seconds: retryAfter })
  err.retryAfter = retryAfter
  return err
}
