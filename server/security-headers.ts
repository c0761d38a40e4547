import { randomBytes } from 'node:crypto'
import { isLocalHost } from '../shared/local-host'

/** A fresh CSP nonce for one response (128 bits, base64). */
export function createNonce(): string {
  return randomBytes(16).toString('base64')
}

export interface CspSources {
  /** Extra origins forms may post (or redirect after posting) to: payment and sign-in providers. */
  formAction: string[]
  /** Extra origins scripts may call: the error-reporting service when a DSN is set. */
  connect: string[]
  /**
   * The support chat widget's origin (CHAT_WIDGET_URL), when one is configured: its script is
   * loaded by ours ('strict-dynamic'), and it needs to call, frame, style and draw from its origin.
   */
  widget?: string | null
}

/** The origin of a URL, or null when it is empty or not absolute http(s). */
export function originOf(value: string | undefined | null): string | null {
  if (!value) return null
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null
  } catch {
    return null
  }
}

/**
 * The page policy: scripts run only with this response's nonce (and what they load, via
 * 'strict-dynamic'); no plugins, no framing, no foreign <base>, forms post only to us and the
 * providers we redirect shoppers to. `application/ld+json` blocks are data, not scripts, so they
 * need no nonce.
 */
export function pagePolicy(nonce: string, sources: CspSources, secure: boolean): string {
  const w = sources.widget ? [sources.widget] : []
  // third-party widgets style themselves inline; without one, styles come only from our files
  const styles = sources.widget ? ["'self'", "'unsafe-inline'", ...w] : ["'self'"]
  const directives = [
    "default-src 'self'",
    `script-src 'nonce-${nonce}' 'strict-dynamic'`,
    ['style-src', ...styles].join(' '),
    ['img-src', "'self'", 'data:', 'blob:', ...w].join(' '),
    ['font-src', "'self'", ...w].join(' '),
    ['connect-src', "'self'", ...sources.connect, ...w, ...w.map((o) => o.replace(/^http/, 'ws'))].join(' '),
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    w.length ? ['frame-src', ...w].join(' ') : "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    ['form-action', "'self'", ...sources.formAction].join(' '),
  ]
  if (secure) directives.push('upgrade-insecure-requests')
  return directives.join('; ')
}

/** Anything that is not a page (JSON, assets, media) may load nothing and be framed by no one. */
export const RESOURCE_POLICY =
  "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), usb=(), payment=(self)'

/** Sets the security headers every response carries; the page CSP only on HTML. */
export function applySecurityHeaders(
  headers: Headers,
  opts: { url: URL; nonce: string; sources: CspSources },
): void {
  const isHtml = (headers.get('content-type') ?? '').startsWith('text/html')
  const secure = opts.url.protocol === 'https:'
  headers.set(
    'content-security-policy',
    isHtml ? pagePolicy(opts.nonce, opts.sources, secure) : RESOURCE_POLICY,
  )
  if (!isLocalHost(opts.url)) headers.set('strict-transport-security', 'max-age=63072000; includeSubDomains')
  headers.set('referrer-policy', 'strict-origin-when-cross-origin')
  headers.set('x-content-type-options', 'nosniff')
  headers.set('x-frame-options', 'DENY')
  headers.set('permissions-policy', PERMISSIONS_POLICY)
  headers.set('cross-origin-opener-policy', 'same-origin')
}

/** Origins the page policy must allow beyond 'self', from the server's settings. */
export function cspSourcesFromEnv(
  env: Record<string, string | undefined>,
  providerUrls: Array<string | undefined | null>,
): CspSources {
  const extra = (env.CSP_FORM_ACTION ?? '').split(/\s+/).filter(Boolean)
  const formAction = [...providerUrls.map(originOf), ...extra.map(originOf)].filter(
    (o): o is string => o !== null,
  )
  const dsn = originOf(env.PUBLIC_SENTRY_DSN || env.SENTRY_DSN)
  return {
    formAction: [...new Set(formAction)],
    connect: dsn ? [dsn] : [],
    widget: originOf(env.CHAT_WIDGET_URL),
  }
}
