// Cross-site request forgery guard, by origin check (no tokens: every storefront form works with
// JavaScript off, and browsers send `Origin` on every form POST).
//
// - Storefront requests (everything outside /api) that change state (not GET/HEAD/OPTIONS) are
//   refused when `Origin` names another origin, or when there is no `Origin` and the browser says
//   `Sec-Fetch-Site: cross-site`.
// - The API authenticates with bearer tokens, which a foreign page cannot send. Only its
//   cookie-reading calls (e.g. the `country_id` cookie of /api/payments/countries/active/select/)
//   could be forged, so an /api request is checked only when it carries cookies and no
//   Authorization header. Server-to-server calls (the storefront's own API calls, provider
//   callbacks) send no `Origin` and no `Sec-Fetch-Site`, so they pass.
import type { MiddlewareHandler } from 'hono'
import { message } from '#api/lib/errors'

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * API paths a payment provider's page legitimately posts the browser to, from its own origin
 * (the Payselection return). A cookie set moments ago without SameSite may ride along, so these
 * stay open; they change nothing a shopper controls (the state comes from the provider).
 */
const CROSS_SITE_ENTRY_POINTS = [/^\/api\/payments\/[^/]+\/term\//]

export interface CsrfOptions {
  /** The shop's public origin (PUBLIC_URL), accepted besides the request's own Host. */
  publicUrl?: string | null
}

/** Origins a state-changing request may come from: the request's own host and PUBLIC_URL's. */
function isOwnOrigin(origin: string, request: Request, publicUrl: string | null | undefined): boolean {
  if (!URL.canParse(origin)) return false // includes the opaque "null" origin
  const from = new URL(origin)
  if (publicUrl && URL.canParse(publicUrl) && new URL(publicUrl).origin === from.origin) return true
  // Behind a TLS-terminating proxy the request URL may say http while the browser saw https:
  // the host (name and port) is what has to match.
  const host = request.headers.get('host') ?? new URL(request.url).host
  return from.host.toLowerCase() === host.toLowerCase()
}

/** True when the request must be refused as a cross-site forgery. */
export function isForgedRequest(request: Request, options: CsrfOptions = {}): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false
  const { pathname } = new URL(request.url)
  if (pathname === '/api' || pathname.startsWith('/api/')) {
    const usesCookies = Boolean(request.headers.get('cookie'))
    if (!usesCookies || request.headers.has('authorization')) return false
    if (CROSS_SITE_ENTRY_POINTS.some((re) => re.test(pathname))) return false
  }
  const origin = request.headers.get('origin')
  if (origin !== null) return !isOwnOrigin(origin, request, options.publicUrl)
  return request.headers.get('sec-fetch-site')?.toLowerCase() === 'cross-site'
}

/** The refusal: a small Russian page (storefront) or the API's JSON error shape (/api). */
export function forgedRequestResponse(request: Request): Response {
  const detail = message('csrf_origin_mismatch')
  const headers = { 'cache-control': 'no-store' }
  if (new URL(request.url).pathname.startsWith('/api/')) {
    return Response.json({ detail, code: 'csrf_origin_mismatch' }, { status: 403, headers })
  }
  const html = `<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>403 — ${message('csrf_title')}</title></head><body><main><h1>${message('csrf_title')}</h1><p>${detail}</p><p><a href="/">${message('csrf_home')}</a></p></main></body></html>`
  return new Response(html, {
    status: 403,
    headers: { ...headers, 'content-type': 'text/html; charset=utf-8' },
  })
}

/** Hono middleware: refuses forged state-changing requests before they reach the API or Remix. */
export function csrfGuard(options: CsrfOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    if (isForgedRequest(c.req.raw, options)) return forgedRequestResponse(c.req.raw)
    await next()
  }
}
