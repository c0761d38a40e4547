// Bounded request bodies for the storefront's own routes (issue 38, finding 3). The API caps its
// bodies (api/src/app.ts), but Remix actions read whatever a form post carries: a 120 MB
// urlencoded post to /orders/find took a worker from 0.7 to 2.1 GB. Here every body for a page
// route is bounded before Remix sees it — forms to FORM_BYTES, multipart (avatars, logos, code
// files) to `multipartBytes` — and refused with 413 and a Russian page: from Content-Length before
// a byte is read, or, for a chunked body without one, as soon as the bytes read pass the limit
// (such a body is read here, at most the limit, and handed on whole).
import type { IncomingMessage } from 'node:http'
import type { Context, MiddlewareHandler } from 'hono'
import { ARTICLE_HEADER_MAX, ARTICLE_TEXT_MAX } from '#api/routes/admin/catalogue/texts'
import apiMessages from '../locales/ru/api.json' with { type: 'json' }

/** Urlencoded and other non-multipart form posts: far above any form of the shop. */
export const FORM_BYTES = 64 * 1024
/**
 * Back-office forms carry FAQ answers, descriptions and other texts that the API takes up to its
 * 64 KB JSON limit; urlencoded, Cyrillic takes three times the bytes.
 */
export const ADMIN_FORM_BYTES = 3 * FORM_BYTES
/**
 * The most bytes one character of a text field takes in an urlencoded form post: a character of
 * the Basic Multilingual Plane outside Cyrillic («—», «€», «№» is 3 bytes in UTF-8) is sent as
 * three %XX, 9 bytes; Cyrillic takes 6 (2 bytes), ASCII punctuation 3, a line break 6 (the browser
 * sends CRLF, %0D%0A), and a character outside the plane 12 for its two UTF-16 units (6 each).
 */
export const FORM_BYTES_PER_CHAR = 9
/**
 * The info article form (/admin/articles): every article the API takes (issue 44: its schema's
 * ARTICLE_TEXT_MAX characters, 200,000) fits however it is written, plus the form's other fields.
 */
export const ARTICLE_FORM_BYTES = FORM_BYTES_PER_CHAR * (ARTICLE_TEXT_MAX + ARTICLE_HEADER_MAX) + FORM_BYTES
const ARTICLE_FORM_PATH = '/admin/articles'

export interface BodyLimits {
  /** Multipart bodies: an upload of the largest allowed file, plus its form. */
  multipartBytes: number
  formBytes?: number
  adminFormBytes?: number
}

const tooLargePage = () =>
  `<!doctype html><html lang="ru"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${apiMessages.body_too_large}</title></head><body><main><h1>${apiMessages.body_too_large}</h1><p>${apiMessages.body_too_large_hint}</p><p><a href="/">На главную</a></p></main></body></html>`

/** How long a refused request's connection stays open before it is cut. */
const LINGER_MS = 1000

/**
 * 413 with the Russian page. Closing the connection as the answer goes out, with the client still
 * sending, makes the kernel reset it, and a reset can throw the answer away before the client reads
 * it (a browser then shows "connection reset", not our page). So the answer goes out on an open
 * connection; the rest of the body is not read (the stream stays paused: memory stays flat), and
 * the connection is cut LINGER_MS later, by when the client has read the answer.
 */
function tooLarge(c: Context): Response {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming
  if (incoming && !incoming.complete) {
    const cut = setTimeout(() => incoming.socket?.destroy(), LINGER_MS)
    cut.unref()
    incoming.once('end', () => clearTimeout(cut))
  }
  return new Response(tooLargePage(), {
    status: 413,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  })
}

/** Reads a body without a declared length, up to `limit` bytes; null once it is longer. */
async function readUpTo(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      // not cancelled: that destroys the socket before the 413 is written; unread, the rest of
      // the body stays in the kernel's buffers (back-pressure) until the answer closes the socket
      reader.releaseLock()
      return null
    }
    chunks.push(value)
  }
  const out = new Uint8Array(size)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.byteLength
  }
  return out
}

export function storefrontBodyLimit(limits: BodyLimits): MiddlewareHandler {
  const formBytes = limits.formBytes ?? FORM_BYTES
  const adminFormBytes = limits.adminFormBytes ?? ADMIN_FORM_BYTES
  return async (c, next) => {
    const req = c.req.raw
    if (req.method === 'GET' || req.method === 'HEAD' || !req.body) return next()
    const multipart = (req.headers.get('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')
    const admin = c.req.path === '/admin' || c.req.path.startsWith('/admin/')
    const limit = multipart
      ? limits.multipartBytes
      : c.req.path.replace(/\/$/, '') === ARTICLE_FORM_PATH
        ? Math.max(adminFormBytes, ARTICLE_FORM_BYTES)
        : admin
          ? adminFormBytes
          : formBytes
    const declared = req.headers.get('content-length')
    if (declared !== null) {
      // the HTTP parser never delivers more than the declared length
      const n = Number(declared)
      if (!Number.isFinite(n) || n > limit) return tooLarge(c)
      return next()
    }
    const bytes = await readUpTo(req.body, limit).catch(() => null)
    if (!bytes) return tooLarge(c)
    const headers = new Headers(req.headers)
    headers.set('content-length', String(bytes.byteLength))
    c.req.raw = new Request(req.url, { method: req.method, headers, body: bytes, signal: req.signal })
    return next()
  }
}
