/** Input names of the gift purchase form, shared by the form and its action. */
export const PURCHASE_FIELD = {
  email: 'email',
  idempotencyKey: 'idempotency_key',
} as const
