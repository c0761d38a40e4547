// Names of the order form's inputs: the same in the HTML form, the shared schema and the action.

export const FIELD = {
  idempotencyKey: 'idempotency_key',
  email: 'email',
  /** SupplyGame user id and StandoffGame game account id. */
  userId: 'user_id',
  serverId: 'server_id',
  serverCustomId: 'server_custom_id',
  avatar: 'game_avatar',
  /** The order whose avatar a repeated Standoff order reuses. */
  repeatOrderId: 'repeat_order_id',
  /** A repeat: the method the repeated order was paid with, for its pay page (issue 50). */
  repeatMethod: 'repeat_method',
  surplus: 'surplus',
  steamAccountId: 'steam_account_id',
  amount: 'amount',
  /** The player (id and server) the shopper confirmed, or the live check found (player-check.server.ts). */
  playerChecked: 'player_checked',
  /** Standoff without JavaScript: the avatar carried through the player confirmation step. */
  avatarData: 'avatar_data',
  /** The consent box of a guest (issue 33): the API's extension field of the same name. */
  consent: 'personal_data_consent',
  /** Pseudo-field for errors about the product lines as a whole (no line chosen). */
  products: 'products',
} as const

const QTY_PREFIX = 'qty_'

/** The quantity input of one product. */
export function qtyField(productId: number): string {
  return `${QTY_PREFIX}${productId}`
}

/** DOM id of an input, for labels, `aria-describedby` and focusing the first invalid field. */
export function fieldId(name: string): string {
  return `order-${name.replace(/_/g, '-')}`
}

export function errorId(name: string): string {
  return `${fieldId(name)}-error`
}

/** The spec's message keys (§5). */
export const MESSAGE = {
  mailMissing: 'top_up_balance.errors.mail_is_missing',
  userIdMissing: 'top_up_balance.errors.user_id_is_missing',
  avatarMissing: 'top_up_balance.errors.avatar_is_missing',
  mailInvalid: 'top_up_balance.errors.mail_invalid',
  userIdTooLong: 'top_up_balance.errors.user_id_too_long',
  avatarNotImage: 'top_up_balance.errors.avatar_not_image',
  avatarTooLarge: 'top_up_balance.errors.avatar_too_large',
  serverMissing: 'top_up_balance.errors.server_is_missing',
  amountInvalid: 'top_up_balance.errors.amount_invalid',
  amountRange: 'top_up_balance.errors.amount_range',
  quantityInvalid: 'products.errors.quantity_invalid',
  quantityRange: 'products.errors.quantity_range',
  emptyCart: 'products.errors.empty_cart',
  surplusInvalid: 'top_up_balance.errors.surplus_invalid',
  unavailable: 'products.errors.unavailable',
  consentMissing: 'legal.consent.required',
} as const
