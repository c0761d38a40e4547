// The one rule for where a shopper may be sent back to after sign-in, sign-out or a social flow
// (`returnTo` in a query, a form or the flow cookie). Browsers parse a Location with the WHATWG
// URL parser, which drops tabs and newlines and reads `\` as `/`: `/\t/evil.example` becomes
// `//evil.example`. So the value is parsed exactly that way against our origin, must stay on it,
// and what comes back is the parser's own serialisation (percent-encoded, header-safe).

const BASE = 'http://return-to.invalid'
const MAX_LENGTH = 2048

/**
 * A same-origin path (with query and fragment) to redirect to; anything else, including values
 * a browser would read as another origin, becomes `fallback`. Never throws.
 */
export function safeReturnTo(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LENGTH) return fallback
  // only a path: not absolute, not protocol-relative, before and after the parser's clean-up
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return fallback // tabs and newlines the parser would drop
  }
  let url: URL
  try {
    url = new URL(value, BASE)
  } catch {
    return fallback
  }
  if (url.origin !== BASE) return fallback
  const path = `${url.pathname}${url.search}${url.hash}`
  // the serialisation must itself be a plain path that parses back to the same place
  if (!path.startsWith('/') || path.startsWith('//') || new URL(path, BASE).href !== url.href) return fallback
  return path
}

/**
 * The current page's path as a link target that cannot leave the origin: leading slashes and
 * backslashes collapse to one (`//evil.example/x` → `/evil.example/x`, never protocol-relative).
 * The popup links are built from the page's own path (issue 38, finding 4).
 */
export function ownPath(pathname: string): string {
  return `/${pathname.replace(/^[/\\]+/, '')}`
}
