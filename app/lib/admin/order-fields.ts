// The admin order card's summary in words (issue 47): each field of the order's answer with its
// Russian label and its value as people read it (money «1 101,60 ₽», times in the shop's zone,
// yes/no). A field without a label here is not shown: the answer's raw keys are the API's words,
// not a person's. Add a label (locales/ru/admin.json, admin.orders.fields) to show a new one.
import { formatWireMoney } from '#app/lib/money'

export type FieldKind = 'money' | 'time' | 'bool' | 'minutes' | 'percent' | 'gold' | 'text'

/** The order answer's fields shown on the card, in this order, with how their values read. */
export const ORDER_FIELDS: ReadonlyArray<readonly [string, FieldKind]> = [
  ['created', 'time'],
  ['email', 'text'],
  ['total', 'money'],
  ['total_with_promocode', 'money'],
  ['total_without_promocode', 'money'],
  ['total_to_pay', 'money'],
  ['balance_used', 'money'],
  ['promo_percent', 'percent'],
  ['is_payment_active', 'bool'],
  ['on_review', 'bool'],
  ['awaiting_delivery_minutes', 'minutes'],
  ['amount', 'money'],
  ['commission', 'money'],
  ['steam_account_id', 'text'],
  ['game_account_id', 'text'],
  ['player_nickname', 'text'],
  ['listing_price', 'gold'],
  ['surplus', 'gold'],
  ['skin_listed', 'bool'],
  ['supply_channel_user_id', 'text'],
  ['supply_channel_server', 'text'],
  ['supply_channel_server_custom_id', 'text'],
  ['moogold_user_id', 'text'],
  ['moogold_server', 'text'],
  ['moogold_server_custom_id', 'text'],
  ['personal_data_consent', 'bool'],
]

type Words = {
  yes: string
  no: string
  minutes: (n: number) => string
  when: (iso: string) => string
  gold: (text: string) => string
}

/** A field's value as a person reads it; «—» for none. */
export function fieldText(kind: FieldKind, value: unknown, w: Words): string {
  if (value === null || value === undefined || value === '') return '—'
  switch (kind) {
    case 'money':
      return formatWireMoney(String(value))
    case 'time':
      return w.when(String(value))
    case 'bool':
      return value === true || value === 'true' ? w.yes : w.no
    case 'minutes':
      return w.minutes(Number(value))
    case 'percent':
      return `${String(value).replace('.', ',')} %`
    case 'gold':
      return `${w.gold(String(value))} G`
    case 'text':
      return typeof value === 'object' ? JSON.stringify(value) : String(value)
  }
}
