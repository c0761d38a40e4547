/**
 * The error-text rule (§8) over a parsed JSON error body: `detail` when the object has a `code`,
 * otherwise the first non-empty string found (depth first, in key order; a `code` value itself is
 * never the text). Null when there is none;
 * the caller then shows `errors.generic_error`.
 */
export function errorText(body: unknown): string | null {
  if (typeof body === 'string') return body || null
  if (Array.isArray(body)) {
    for (const v of body) {
      const t = errorText(v)
      if (t) return t
    }
    return null
  }
  if (body && typeof body === 'object') {
    const o = body as Record<string, unknown>
    const hasCode = 'code' in o
    if (hasCode && typeof o.detail === 'string' && o.detail) return o.detail
    for (const [key, v] of Object.entries(o)) {
      // a machine code is not text for people
      if (hasCode && key === 'code') continue
      const t = errorText(v)
      if (t) return t
    }
  }
  return null
}
