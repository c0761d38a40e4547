import type { Hook } from '@hono/zod-openapi'
import type { AppEnv } from '../context'
import { message } from './errors'

type Issue = { path: PropertyKey[]; message: string }

/** Turns zod issues into the API's error body: the first message as `detail`, all of them by field. */
export function issuesToBody(issues: readonly Issue[]) {
  const fields: Record<string, string[]> = {}
  for (const i of issues) {
    const key = i.path.map(String).join('.') || 'non_field_errors'
    fields[key] ??= []
    fields[key].push(i.message)
  }
  const first = issues[0]
  const where = first?.path.length ? `${first.path.map(String).join('.')}: ` : ''
  return {
    detail: first ? `${where}${first.message}` : message('validation_error'),
    code: 'validation_error',
    fields,
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the hook is shared by every route's input types
export const validationHook: Hook<any, AppEnv, any, any> = (result, c) => {
  if (!result.success) return c.json(issuesToBody(result.error.issues), 400)
}
