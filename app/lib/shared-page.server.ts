// What a loader tells the page cache (server/page-cache.ts), and the per-response keys it hands out.
import { randomUUID } from 'node:crypto'
import type { AppLoadContext, HeadersFunction } from '@remix-run/node'
import type { ApiSession } from '#app/lib/api/client.server'

/**
 * Internal response header: "this answer is the same for every signed-out visitor" (a catalogue
 * page, an article). The page cache may keep such an answer for CATALOGUE_CACHE_SECONDS and strips
 * the header; it never reaches a browser.
 */
export const SHARED_PAGE_HEADER = 'x-shared-page'

/**
 * Marks the answer shareable, unless the API session is signed in (then it is one person's; a
 * personal fill's template is signed in as nobody, server/personal-fill.ts) or brought a notice to
 * show (an API refusal is not for everybody).
 */
export function markShared(
  api: Pick<ApiSession, 'headers' | 'signedIn' | 'notifications' | 'template'>,
): void {
  if ((!api.signedIn || api.template) && api.notifications.length === 0)
    api.headers.set(SHARED_PAGE_HEADER, '1')
}

/**
 * Internal response header: "this answer is the signed-in buyer's own page and shows nothing but
 * their data, the URL and the catalogue" (the profile, the pay page). The storefront may keep it
 * for that buyer until their data changes or CATALOGUE_CACHE_SECONDS pass (server/personal-pages.ts,
 * decision 103) and strips the header.
 */
export const PERSONAL_PAGE_HEADER = 'x-personal-page'

/** Marks the answer as the buyer's own page, unless it brought a notice (a toast is shown once). */
export function markPersonal(
  api: Pick<ApiSession, 'headers' | 'signedIn' | 'notifications' | 'template'>,
): void {
  if (api.signedIn && !api.template && api.notifications.length === 0)
    api.headers.set(PERSONAL_PAGE_HEADER, '1')
}

/**
 * A key that a rendered form posts back (the order's idempotency key). It must differ on every
 * response, also one served from the page cache: the server gives each response fresh ones.
 */
export function newFormKey(context: AppLoadContext): string {
  return context.formKey?.() ?? randomUUID()
}

/**
 * A page filled with what this device remembers of a guest (issue 50): nothing may keep it, the
 * browser's own caches included, so that after «Забыть» going back shows no copy with the email.
 */
export function markNoStore(api: Pick<ApiSession, 'headers'>): void {
  api.headers.set('cache-control', 'private, no-store')
}

/**
 * The `headers` export of a route whose answer may be kept (shared or personal): passes its
 * loader's mark on to the answer
 * (Remix passes other loader headers than Set-Cookie only through a route's `headers`).
 */
export const sharedPageHeaders: HeadersFunction = ({ loaderHeaders, parentHeaders }) => {
  const headers = new Headers(parentHeaders)
  for (const name of [SHARED_PAGE_HEADER, PERSONAL_PAGE_HEADER, 'cache-control']) {
    const mark = loaderHeaders.get(name)
    if (mark) headers.set(name, mark)
  }
  return headers
}
