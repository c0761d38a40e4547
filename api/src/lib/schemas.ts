import { z } from '@hono/zod-openapi'
import { message } from './errors'

/** The largest id an `integer`/`serial` column holds. */
export const MAX_DB_INT = 2_147_483_647

/** Shared wire shapes. */
export const ErrorSchema = z
  .object({
    detail: z.string(),
    code: z.string(),
    fields: z.record(z.string(), z.array(z.string())).optional(),
  })
  .openapi('Error')

export const MoneySchema = z
  .string()
  .regex(/^-?\d+\.\d{2}$/)
  .openapi({ example: '199.00' })

/** The largest whole number a path or query parameter may carry: nine digits. */
export const MAX_PARAM_INT = 999_999_999

const digits = (v: unknown) => (typeof v === 'string' && /^\d{1,9}$/.test(v) ? Number(v) : v)

/**
 * A whole number in a path or query string ("42"; also a JSON number or digit string in a body):
 * one to nine digits, `min`..`max`. The bounds are the zod schema's own, so the contract publishes
 * exactly what the server checks (`type: integer`, `minimum`, `maximum`).
 */
export function wholeNumber(opts: { min?: number; max?: number; message?: string } = {}) {
  const min = opts.min ?? 1
  const max = opts.max ?? MAX_PARAM_INT
  const expected = opts.message ?? message('field_integer')
  return z.preprocess(
    digits,
    z
      .number({ error: expected })
      .int(expected)
      .min(min, message('field_minimum', { min }))
      .max(max, message('field_maximum', { max })),
  )
}

/** `{id}` of a path: a database id, 1 to nine digits. */
export const idParam = (name = 'id') =>
  wholeNumber({ message: message('field_number') }).openapi({ param: { name, in: 'path' } })

export const IdParam = z.object({ id: idParam() })

/**
 * A UUID as the server checks it (RFC 9562: a version nibble 1–8 and the variant bits, or the nil
 * and max UUIDs). `format: uuid` alone lets other 8-4-4-4-12 strings through, so the contract
 * carries zod's own pattern too.
 */
export const UUID_PATTERN = z.regexes.uuid()
export const uuidString = (error?: string) =>
  z.uuid(error).max(36).openapi({ format: 'uuid', pattern: UUID_PATTERN.source })

export const UuidParam = z.object({
  id: uuidString(message('order_id_invalid')).openapi({ param: { name: 'id', in: 'path' } }),
})

/**
 * The security of an operation a guest may call and a signed-in user calls as themselves; set it on
 * a route that lists 401 for another reason (a stale token is listed on every operation anyway).
 */
export const OPTIONAL_BEARER: Array<Record<string, string[]>> = [{}, { bearer: [] }]

/** Standard error responses to list on a route. */
export function errorResponses(...statuses: Array<400 | 401 | 403 | 404 | 409 | 413 | 415 | 429>) {
  const out: Record<
    string,
    { description: string; content: { 'application/json': { schema: typeof ErrorSchema } } }
  > = {}
  for (const s of statuses) {
    out[s] = { description: `Error ${s}`, content: { 'application/json': { schema: ErrorSchema } } }
  }
  return out
}

export const jsonContent = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
})
