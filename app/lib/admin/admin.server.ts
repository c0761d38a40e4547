// The back-office BFF: every /admin loader and action goes through here. Non-staff get the very
// 404 an unknown address gets (the API answers them 404 too, so nothing here tells them apart);
// a support member opening an owner screen gets 403. Texts live in locales/ru/admin.json and are
// sent only with /admin pages, never with the shop's own.
import { type AppLoadContext, data, redirect } from '@remix-run/node'
import { serverT } from '#app/i18n/i18n.server'
import type { TFunction } from '#app/i18n/translate'
import { hasAccessCookie } from '#app/lib/account.server'
import { type ApiSession, apiFor, errorText } from '#app/lib/api/client.server'
import { redirectWithToast } from '#app/lib/toast.server'

export { ADMIN_MESSAGES } from '#app/i18n/i18n.server'

/** i18next over the back-office's messages (under `admin.`), then the shop's. */
export const adminT: TFunction = (key, params) => serverT('ru', ['admin', 'common'])(key, params)

/** The same answer as an unknown address (app/routes/$.tsx), with any refreshed cookies. */
function notFound(request: Request, headers?: Headers): never {
  const { pathname } = new URL(request.url)
  throw data({ message: `Page not found: ${pathname}` }, { status: 404, headers })
}

export type StaffRole = 'owner' | 'support'

/** A request's API session, after the API confirmed the caller is staff (else the 404). */
export async function staffApi(request: Request, context: AppLoadContext) {
  if (!hasAccessCookie(request)) notFound(request)
  const api = apiFor(request, context)
  const { data: me, error } = await api.client.GET('/api/admin/me/')
  // the ADMIN_EMAILS owner who has not confirmed the email yet is told so (issue 37)
  if ((error as { code?: string } | undefined)?.code === 'owner_email_unconfirmed')
    throw redirect('/auth/owner-pending', { headers: api.headers })
  if (!me) notFound(request, api.headers)
  return { api, me: me as { email: string; role: StaffRole } }
}

/** An owner-only screen: support members get 403 (they know the back-office exists). */
export async function ownerApi(request: Request, context: AppLoadContext) {
  const session = await staffApi(request, context)
  if (session.me.role !== 'owner')
    throw data({ message: adminT('admin.forbidden') }, { status: 403, headers: session.api.headers })
  return session
}

type Result<T> = { data?: T; error?: unknown; response: Response }

/** A loader's API read: 404 → the unknown-address page, other failures → an error screen. */
export async function read<T>(request: Request, api: ApiSession, call: Promise<Result<T>>): Promise<T> {
  const { data: body, error, response } = await call
  if (response.ok) return body as T
  if (response.status === 404) notFound(request, api.headers)
  const status = response.status >= 500 ? 503 : response.status
  throw data(
    { message: errorText(error) ?? adminT('errors.generic_error') },
    { status, headers: api.headers },
  )
}

export interface FormFailure {
  ok: false
  /** Which form failed (several forms on one page). */
  form: string
  message: string
  fields: Record<string, string>
  /** What was typed, so the form keeps it. */
  values: Record<string, string>
}

/** An API refusal as form errors: the message on top, the first message of each field by it. */
export function formFailure(
  form: string,
  values: FormData,
  error: unknown,
  response: Response,
  api: ApiSession,
) {
  const body = (error ?? {}) as { fields?: Record<string, string[]> }
  const fields: Record<string, string> = {}
  for (const [k, v] of Object.entries(body.fields ?? {})) if (v[0]) fields[k.split('.')[0]!] ??= v[0]
  const typed: Record<string, string> = {}
  for (const [k, v] of values) if (typeof v === 'string' && k !== 'intent') typed[k] = v
  const status = response.status >= 500 ? 503 : response.status === 413 ? 413 : 400
  return data<FormFailure>(
    {
      ok: false,
      form,
      message: errorText(error) ?? adminT('errors.generic_error'),
      fields,
      values: typed,
    },
    { status, headers: api.headers },
  )
}

/** After a change: back to the page (POST → redirect → GET) with a toast. */
export function done(request: Request, api: ApiSession, text: string, to?: string) {
  const url = new URL(request.url)
  return redirectWithToast(
    to ?? url.pathname + url.search,
    { type: 'success', text },
    {
      request,
      headers: api.headers,
    },
  )
}

/** A 400 for a form post that names no known intent. */
export function badIntent(): never {
  throw data({ message: adminT('admin.bad_request') }, { status: 400 })
}

/** A back-office form post: its fields, which form it was (`_form`) and what it asks (`intent`). */
export async function readForm(request: Request) {
  const form = await request.formData()
  return { form, key: String(form.get('_form') ?? ''), intent: String(form.get('intent') ?? '') }
}

/** The answer to a form post: the API's refusal as that form's errors, or back with a toast. */
export async function settle(
  request: Request,
  api: ApiSession,
  posted: { form: FormData; key: string },
  call: Promise<Result<unknown>>,
  okText: string,
) {
  const { error, response } = await call
  if (!response.ok) return formFailure(posted.key, posted.form, error, response, api)
  return done(request, api, okText)
}

/** A positive integer id from a form field or route parameter, else a 400. */
export function idFrom(value: unknown): number {
  const s = String(value ?? '')
  if (!/^[1-9]\d{0,8}$/.test(s)) badIntent()
  return Number(s)
}
