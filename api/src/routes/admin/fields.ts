// Input fields of the back-office forms, with Russian messages from locales/ru/api.json (the first
// becomes the `detail`).
import { z } from '@hono/zod-openapi'
import { parseMoney } from '../../lib/money'
import { MAX_DB_INT } from '../../lib/schemas'
import { message } from '../../lib/errors'

export const Text = (max: number) =>
  z
    .string({ error: message('field_string') })
    .trim()
    .max(max, message('field_max_chars', { max }))
/**
 * A text that must say something: blank after trimming is refused, and the contract says so with a
 * pattern (a non-space character), so a spaces-only value is off the contract, not a surprise.
 */
export const Filled = (max: number, error?: string) => Text(max).min(1, error).openapi({ pattern: '\\S' })
export const Title = Filled(200, message('field_name_required'))
export const Int = (min: number, max = MAX_DB_INT) =>
  z
    .number({ error: message('field_integer') })
    .int(message('field_integer'))
    .min(min, message('field_min', { min }))
    .max(max, message('field_max', { max }))
export const Percent = Int(0, 100)

/**
 * A day of the back-office's date filters (YYYY-MM-DD, the shop's time zone): one that exists
 * (2026-02-31 would roll over to March 3) in the years 2000-2999 (Date reads 0050 as 1950),
 * published as a date with that pattern.
 */
export const Day = z
  .string()
  .max(10, message('field_date'))
  .regex(/^2\d{3}-\d{2}-\d{2}$/, message('field_date'))
  .refine((d) => {
    const t = Date.parse(`${d}T00:00:00Z`)
    return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d
  }, message('field_date_unknown'))
  .openapi({ format: 'date' })

/** The longest amount text the back-office takes: "1000000.00". */
const MONEY_TEXT_MAX = 10

const MONEY_FORMS = [
  {
    type: 'string' as const,
    maxLength: MONEY_TEXT_MAX,
    pattern: '^((0|[1-9]\\d{0,5})(\\.\\d{1,2})?|1000000(\\.00?)?)$',
  },
  { type: 'number' as const, minimum: 0, maximum: 1_000_000, multipleOf: 0.01 },
]

/** A rouble amount "199.00" (or 199) → kopecks; negative, malformed or over a million roubles refused. */
export const Money = z
  .union([z.string().max(MONEY_TEXT_MAX), z.number()], { error: message('field_amount') })
  .transform((v, ctx) => {
    const minor = parseMoney(v)
    if (minor === null || minor > 100_000_000) {
      ctx.addIssue({ code: 'custom', message: message('field_rubles') })
      return z.NEVER
    }
    return minor
  })
  // what parseMoney takes, published (a union alone would say any string or number)
  .openapi({ anyOf: MONEY_FORMS, example: '199.00' })

/**
 * An amount or null (no discount). Its own alternatives: `.nullable()` of Money alone published no
 * null (Money's `anyOf` replaces what the generator would add), so the storefront's null was a
 * request off the contract that the server took (found by the e2e contract watch, issue 44).
 */
export const NullableMoney = Money.nullable().openapi({
  anyOf: [...MONEY_FORMS, { type: 'null' }],
  example: '199.00',
})

export const Tags = z
  .array(Filled(40), { error: message('field_tag_list') })
  .max(20, message('field_tags_max', { max: 20 }))

export const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
})
