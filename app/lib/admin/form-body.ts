// A back-office form post → the API's JSON body. Only the shape changes here (numbers, booleans,
// lists, empty = absent or null); every rule on the values lives in the API, whose Russian
// messages come back as field errors.
import { DEFAULT_SHOP_TIMEZONE, fromShopWallTime, toShopWallTime } from '../../../shared/shop-time'

export type FieldKind =
  | 'text'
  | 'optText'
  | 'int'
  | 'nullableInt'
  | 'money'
  | 'nullableMoney'
  | 'bool'
  | 'tags'
  | 'nullableDateTime'
  /** a percent with up to 2 decimals ("3,5") → basis points (350) */
  | 'percentBp'
  /** a decimal with up to 6 decimals ("5.6") → millionths (5600000) */
  | 'micro'
  /** roubles with up to 2 decimals ("3000" or "2999,50") → kopecks (300000) */
  | 'rubles'

export type FormSpec = Record<string, FieldKind>

const INT = /^-?\d{1,10}$/

/** "3,5" with `places` = 2 → 350; anything else is left as typed, for the API to refuse. */
function scaled(v: string, places: number): unknown {
  const m = new RegExp(`^(\\d{1,7})(?:[.,](\\d{1,${places}}))?$`).exec(v)
  if (!m) return v
  return Number(m[1]) * 10 ** places + Number((m[2] ?? '').padEnd(places, '0'))
}

function convert(kind: FieldKind, raw: string | null, zone: string): unknown {
  const v = (raw ?? '').trim()
  switch (kind) {
    case 'bool':
      return raw !== null
    case 'text':
      return raw ?? ''
    case 'optText':
    case 'money':
      return v === '' ? undefined : v
    case 'nullableMoney':
      return v === '' ? null : v
    case 'int':
      return v === '' ? undefined : INT.test(v) ? Number(v) : v
    case 'nullableInt':
      return v === '' ? null : INT.test(v) ? Number(v) : v
    case 'tags':
      return v === ''
        ? []
        : v
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean)
    case 'percentBp':
    case 'rubles':
      return v === '' ? undefined : scaled(v, 2)
    case 'micro':
      return v === '' ? undefined : scaled(v, 6)
    case 'nullableDateTime':
      // <input type="datetime-local"> sends a wall time without a zone: the shop's (decision 136)
      return v === '' ? null : (fromShopWallTime(v, zone)?.toISOString() ?? v)
  }
}

/** The JSON body for `spec`'s fields; absent values are left out; wall times are in `zone`. */
export function formBody(
  form: FormData,
  spec: FormSpec,
  zone: string = DEFAULT_SHOP_TIMEZONE,
): Record<string, unknown> {
  const body: Record<string, unknown> = {}
  for (const [name, kind] of Object.entries(spec)) {
    const raw = form.get(name)
    const value = convert(kind, typeof raw === 'string' ? raw : null, zone)
    if (value !== undefined) body[name] = value
  }
  return body
}

/** An ISO time as the value of a datetime-local input in the shop's zone ("2026-12-31T23:59"). */
export const toDateTimeLocal = (iso: string | null, zone: string) => toShopWallTime(iso, zone)

/** The inverse of the scaled kinds, for a form's starting value: 350, 2 → "3.5". */
export function fromScaled(n: number, places: number): string {
  const s = (n / 10 ** places).toFixed(places)
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s
}
