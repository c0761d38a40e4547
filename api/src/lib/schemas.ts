import { z } from '@hono/zod-openapi'

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

export const IdParam = z.object({
  id: z
    .string()
    .regex(/^\d{1,9}$/, 'ожидается число')
    .transform(Number)
    .openapi({ param: { name: 'id', in: 'path' }, type: 'integer' }),
})

export const UuidParam = z.object({
  id: z.uuid('Неверный номер заказа').openapi({ param: { name: 'id', in: 'path' } }),
})

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
