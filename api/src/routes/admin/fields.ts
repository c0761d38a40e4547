// Input fields of the back-office forms, with Russian messages (the first becomes the `detail`).
import { z } from '@hono/zod-openapi'
import { parseMoney } from '../../lib/money'
import { MAX_DB_INT } from '../../lib/schemas'

export const Text = (max: number) =>
  z.string({ error: 'ожидается строка' }).trim().max(max, `не длиннее ${max} символов`)
export const Title = Text(200).min(1, 'заполните название')
export const Int = (min: number, max = MAX_DB_INT) =>
  z
    .number({ error: 'ожидается целое число' })
    .int('ожидается целое число')
    .min(min, `не меньше ${min}`)
    .max(max, `не больше ${max}`)
export const Percent = Int(0, 100)

/** A rouble amount "199.00" (or 199) → kopecks; negative, malformed or over a million roubles refused. */
export const Money = z
  .union([z.string(), z.number()], { error: 'ожидается сумма' })
  .transform((v, ctx) => {
    const minor = parseMoney(v)
    if (minor === null || minor > 100_000_000) {
      ctx.addIssue({ code: 'custom', message: 'сумма в рублях, не больше двух знаков после запятой' })
      return z.NEVER
    }
    return minor
  })
  .openapi({ type: 'string', example: '199.00' })

export const Tags = z
  .array(Text(40).min(1), { error: 'ожидается список меток' })
  .max(20, 'не больше 20 меток')

export const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  body: { content: { 'application/json': { schema } }, required: true },
})
