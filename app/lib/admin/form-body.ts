// A back-office form post → the API's JSON body. Only the shape changes here (numbers, booleans,
// lists, empty = absent or null); every rule on the values lives in the API, whose Russian
// messages come back as field errors. A spec is written for one API operation (`formSpec`), so the
// body it yields has that operation's body type and the client call needs no cast.
import type { paths } from '#openapi/schema'
import { DEFAULT_SHOP_TIMEZONE, fromShopWallTime, toShopWallTime } from '../../../shared/shop-time'

export type FieldKind =
  | 'text'
  | 'optText'
  /** trimmed text, or null when empty */
  | 'nullableText'
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

/** Any spec: a form field's name → how its text becomes the body's value. */
export type FormSpec = Readonly<Record<string, FieldKind>>

type Method = 'post' | 'put' | 'patch'
type JsonOf<Op> = Op extends { requestBody?: infer R }
  ? NonNullable<R> extends { content: { 'application/json': infer B } }
    ? B
    : never
  : never
/** The JSON body of an operation of the contract (`openapi/schema.d.ts`). */
export type JsonBody<P extends keyof paths, M extends Method> = JsonOf<paths[P][M]>

type Has<V, T> = [Extract<V, T>] extends [never] ? false : true
/**
 * The kinds whose value fits a body field of type V. A value that does not parse (a word in a
 * number field, a string outside an enum) is still sent as typed, for the API to refuse with its
 * message; the type describes what a well-filled form sends.
 */
type KindFor<V> =
  | (Has<V, string> extends true
      ?
          | 'text'
          | 'optText'
          | 'money'
          | (null extends V ? 'nullableText' | 'nullableMoney' | 'nullableDateTime' : never)
      : never)
  | (Has<V, number> extends true
      ? 'int' | 'percentBp' | 'rubles' | 'micro' | (null extends V ? 'nullableInt' : never)
      : never)
  | (Has<V, boolean> extends true ? 'bool' : never)
  | (Has<V, readonly unknown[]> extends true ? 'tags' : never)

declare const BODY: unique symbol
/** A spec checked against the body type B: its fields are B's, each with a kind that fits. */
export type TypedFormSpec<B, S extends FormSpec> = S & { readonly [BODY]?: B }

type SpecFor<B> = { readonly [K in keyof B]?: KindFor<B[K]> }

/**
 * A form spec for the JSON body of `method path`: a field the body does not have, or a kind that
 * does not fit the field's type, fails to compile. The path and method are only read by the compiler.
 */
export function formSpec<
  P extends keyof paths,
  M extends Method,
  const S extends FormSpec & SpecFor<JsonBody<P, M>>,
>(
  _method: M,
  _path: P,
  spec: S & Record<Exclude<keyof S, keyof JsonBody<P, M>>, never>,
): TypedFormSpec<JsonBody<P, M>, S> {
  return spec
}

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
    case 'nullableText':
      return v === '' ? null : v
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
export function formBody<S extends FormSpec, B = Record<keyof S, unknown>>(
  form: FormData,
  spec: TypedFormSpec<B, S>,
  zone: string = DEFAULT_SHOP_TIMEZONE,
): Pick<B, keyof S & keyof B> {
  const body: Record<string, unknown> = {}
  for (const [name, kind] of Object.entries(spec as FormSpec)) {
    const raw = form.get(name)
    const value = convert(kind, typeof raw === 'string' ? raw : null, zone)
    if (value !== undefined) body[name] = value
  }
  // the one place the form's text is taken for the body's type: see KindFor
  return body as Pick<B, keyof S & keyof B>
}

/** An ISO time as the value of a datetime-local input in the shop's zone ("2026-12-31T23:59"). */
export const toDateTimeLocal = (iso: string | null, zone: string) => toShopWallTime(iso, zone)

/** The inverse of the scaled kinds, for a form's starting value: 350, 2 → "3.5". */
export function fromScaled(n: number, places: number): string {
  const s = (n / 10 ** places).toFixed(places)
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s
}
