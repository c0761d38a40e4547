// Flash toasts: an action (or loader) that redirects puts the result for the shopper in a
// short-lived cookie; the root loader reads it, clears it and the page renders the toast on the
// server, so it shows with JavaScript off too.
//
//   return redirectWithToast('/profile', { type: 'success', text: t('profile.saved') })
//   throw redirect(url, { headers: await toastHeaders({ type: 'error', text }, request) })
//
// Loaders that do not redirect return toasts for the page they render instead:
//   return { ...data, toasts: [loaderToast('warning', text)] }   (or `notifications`, as apiFor does)
//
// The cookie is signed (HMAC-SHA256 with a key derived from the shop's secret, JWT_SECRET, found as
// the API finds it): a value someone else set for the shop's host shows nothing.
import { createHmac, timingSafeEqual } from 'node:crypto'
import path from 'node:path'
import { redirect } from '@remix-run/node'
import { parse, serialize } from 'cookie'
import { isToastInput, type ToastInput } from '#app/components/notifications/queue'
import { isLocalHost } from '../../shared/local-host'
import { DEFAULT_DATA_DIR, shopSecret } from '../../shared/shop-secret'

export type { ToastInput }

export const TOAST_COOKIE = 'toast'
/** Long enough for the redirect to be followed; a toast must not surface minutes later. */
export const TOAST_MAX_AGE_SECONDS = 60
const MAX_TOASTS = 5
const MAX_TEXT = 500

function secureFor(request: Request | undefined): boolean {
  if (!request) return true
  const url = new URL(request.url)
  return !(url.protocol === 'http:' && isLocalHost(url))
}

function clean(toasts: unknown[]): ToastInput[] {
  return toasts
    .filter(isToastInput)
    .slice(0, MAX_TOASTS)
    .map((t) => ({ type: t.type, text: t.text.slice(0, MAX_TEXT) }))
}

let signingKey: Buffer | null = null

/** The toast cookie's own key, derived from the shop's secret (read once, when first needed). */
function toastKey(): Buffer {
  signingKey ??= createHmac(
    'sha256',
    shopSecret(process.env.JWT_SECRET || undefined, path.resolve(process.env.DATA_DIR || DEFAULT_DATA_DIR)),
  )
    .update('toast-cookie-v1')
    .digest()
  return signingKey
}

const signatureOf = (payload: string) => createHmac('sha256', toastKey()).update(payload).digest()

/** The cookie value: the toasts as base64url JSON, a dot, and their signature. */
export function encodeToasts(toasts: ToastInput[]): string {
  const payload = Buffer.from(JSON.stringify(clean(toasts)), 'utf8').toString('base64url')
  return `${payload}.${signatureOf(payload).toString('base64url')}`
}

/** The payload of a value signed with our key, or null (unsigned, tampered, another key). */
function verified(value: string): string | null {
  const dot = value.lastIndexOf('.')
  if (dot < 0) return null
  const payload = value.slice(0, dot)
  const given = Buffer.from(value.slice(dot + 1), 'base64url')
  const expected = signatureOf(payload)
  return given.length === expected.length && timingSafeEqual(given, expected) ? payload : null
}

/** The toasts in a cookie value; anything unsigned, tampered or malformed is ignored, never an error. */
export function decodeToasts(value: string | undefined): ToastInput[] {
  const payload = value ? verified(value) : null
  if (payload === null) return []
  try {
    const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))
    return Array.isArray(parsed) ? clean(parsed) : []
  } catch {
    return []
  }
}

function toastCookie(value: string, maxAge: number, request?: Request): string {
  return serialize(TOAST_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: secureFor(request),
    path: '/',
    maxAge,
    ...(maxAge === 0 ? { expires: new Date(0) } : {}),
  })
}

/** The flash toasts a request carries. */
export function toastsFrom(request: Request): ToastInput[] {
  return decodeToasts(parse(request.headers.get('cookie') ?? '')[TOAST_COOKIE])
}

/**
 * Headers that flash the toast(s) to the next page. With the request, toasts still waiting in
 * its cookie are kept (a chain of redirects loses none).
 */
export function toastHeaders(toast: ToastInput | ToastInput[], request?: Request): Headers {
  const list = [...(request ? toastsFrom(request) : []), ...(Array.isArray(toast) ? toast : [toast])]
  const headers = new Headers()
  headers.append('set-cookie', toastCookie(encodeToasts(list), TOAST_MAX_AGE_SECONDS, request))
  return headers
}

/** A redirect that shows the toast(s) on the page it leads to (and makes every loader reload). */
export function redirectWithToast(
  url: string,
  toast: ToastInput | ToastInput[],
  init?: { request?: Request; headers?: HeadersInit; status?: number },
): Response {
  const headers = new Headers(init?.headers)
  for (const cookie of toastHeaders(toast, init?.request).getSetCookie()) headers.append('set-cookie', cookie)
  // the root loader, which reads the flash, must run again on a client-side redirect
  headers.set('X-Remix-Revalidate', 'yes')
  return redirect(url, { status: init?.status ?? 302, headers })
}

/** For the root loader: the flash toasts and the header that clears them (when there were any). */
export function readToasts(request: Request): { toasts: ToastInput[]; headers: Headers } {
  const headers = new Headers()
  const raw = parse(request.headers.get('cookie') ?? '')[TOAST_COOKIE]
  if (raw === undefined) return { toasts: [], headers }
  headers.append('set-cookie', toastCookie('', 0, request))
  return { toasts: decodeToasts(raw), headers }
}
