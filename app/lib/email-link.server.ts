// The server half of the "we mail you a link" pages (app/components/form/email-link-form.tsx): the
// email check, and the API's refusal as the form's errors with the status and Retry-After it gave.
import type { HeadersFunction } from '@remix-run/node'
import { type ApiSession, errorText } from '#app/lib/api/client.server'

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const isEmail = (email: string) => EMAIL_RE.test(email) && email.length <= 254

/** A limited request tells the client when to try again, as the API did. */
export const retryAfterHeaders: HeadersFunction = ({ actionHeaders }) => {
  const retryAfter = actionHeaders.get('retry-after')
  return retryAfter ? { 'retry-after': retryAfter } : new Headers()
}

/**
 * The API's refusal: its messages for the `fields` the form has, else its one message (or
 * `fallback`) for the form; 429 and 5xx keep their meaning, anything else is the form's 400.
 */
export function apiRefusal<F extends string>(
  api: ApiSession,
  error: unknown,
  response: Response,
  fields: readonly F[],
  fallback: string,
): { status: number; headers: Headers; errors: Partial<Record<F | 'form', string>> } {
  const headers = new Headers(api.headers)
  const retryAfter = response.headers.get('retry-after')
  if (retryAfter) headers.set('retry-after', retryAfter)
  const given = (error as { fields?: Record<string, string[]> } | undefined)?.fields ?? {}
  const errors: Partial<Record<F | 'form', string>> = {}
  for (const f of fields) {
    const message = given[f]?.[0]
    if (message) errors[f] = message
  }
  if (Object.keys(errors).length === 0) errors.form = errorText(error) ?? fallback
  const status = response.status === 429 ? 429 : response.status >= 500 ? 503 : 400
  return { status, headers, errors }
}
