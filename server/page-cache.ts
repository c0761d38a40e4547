// A short-lived in-memory cache of whole storefront answers (pages and their `.data` twins) for
// signed-out visitors: the catalogue pages everybody sees the same. It is a cache, not state: each
// instance keeps its own, nothing else needs it, and it holds answers for at most
// CATALOGUE_CACHE_SECONDS, the staleness the catalogue already promises.
//
// Only an answer that its route marked shared (app/lib/shared-page.server.ts) is kept, and only
// for a request without cookies other than the locale's and without Authorization. What must be
// unique per response is made unique again on every hit: the CSP script nonce and the forms'
// idempotency keys. The first answer streams to its client untouched while a copy is kept.
import { randomUUID } from 'node:crypto'
import { parse as parseCookies } from 'cookie'
import { isbot } from 'isbot'
import { LOCALE_COOKIE, localeFromCookie } from '#app/i18n/i18n.server'
import { PERSONAL_PAGE_HEADER, SHARED_PAGE_HEADER } from '#app/lib/shared-page.server'
import { CacheStore } from './cache-store'
import { accepts, vary } from './compression'
import { compileGzipTemplate, fillGzipTemplate, type GzipTemplate, textBytes } from './gzip-template'

/** What a render of the storefront needs from the cache: this response's nonce and form keys. */
export interface PageRender {
  nonce: string
  formKey: () => string
  /** Called when the page went wrong after its first bytes were sent (then it is not kept). */
  spoil: () => void
}

export interface PageCacheOptions {
  /** How long an answer may be served again; 0 turns the cache off. */
  ttlMs: number
  /** At most this many answers are kept (the oldest goes first)... */
  maxEntries?: number
  /** ...and at most this many bytes of them. */
  maxTotalBytes?: number
  /** A larger answer is not kept. */
  maxBodyBytes?: number
  /**
   * The internal header a route sets on an answer this cache may keep: SHARED_PAGE_HEADER (the
   * same for every signed-out visitor, the default) or PERSONAL_PAGE_HEADER (one buyer's own page,
   * kept under a key naming them and the state of their data, server/personal-pages.ts).
   */
  marker?: typeof SHARED_PAGE_HEADER | typeof PERSONAL_PAGE_HEADER
  now?: () => number
}

/** Response header telling whether an answer came from the cache: `hit` or `miss`. */
export const PAGE_CACHE_STATUS_HEADER = 'x-page-cache'

/** A kept answer: its text cut at the per-response values (NONCE or the index of a form key). */
interface Entry {
  expires: number
  bytes: number
  status: number
  headers: Array<[string, string]>
  parts: Array<Buffer | number>
  /** The answer gzipped once with holes for the nonce and the form keys (null until compiled). */
  gzip: GzipTemplate | null
}
const NONCE = -1

export interface PageCache {
  /** `key` names the copy; by default the page of a signed-out visitor (null: not kept). */
  serve(
    req: Request,
    nonce: string,
    render: (r: PageRender) => Promise<Response>,
    key?: string | null,
  ): Promise<Response>
  /** How many answers are kept now (tests, metrics). */
  readonly size: number
}

export function createPageCache(options: PageCacheOptions): PageCache {
  const {
    ttlMs,
    maxEntries = 300,
    maxBodyBytes = 512 * 1024,
    maxTotalBytes = 32 * 1024 * 1024,
    marker = SHARED_PAGE_HEADER,
    now = Date.now,
  } = options
  // storage and bounds: never-read pages go first, then the least recently read (server/cache-store.ts)
  const entries = new CacheStore<Entry>({ maxEntries, maxBytes: maxTotalBytes, sizeOf: (e) => e.bytes })
  /**
   * Keys being rendered now, each with a promise settled once that render's copy is kept or given
   * up. Meanwhile an expired copy is still served, for at most one more cache time, and requests
   * for a page with no copy yet wait for that render instead of rendering the page again.
   */
  const rendering = new Map<string, Promise<void>>()
  const drop = (key: string) => entries.delete(key)

  function hit(key: string, entry: Entry, req: Request, nonce: string) {
    entries.read(key)
    return replay(entry, nonce, accepts(req.headers.get('accept-encoding'), 'gzip'))
  }

  async function serve(
    req: Request,
    nonce: string,
    render: (r: PageRender) => Promise<Response>,
    given: string | null = cacheKey(req),
  ) {
    const key = ttlMs > 0 ? given : null
    if (!key) return withoutMarker(await render({ nonce, formKey: randomUUID, spoil: () => {} }))
    const kept = entries.peek(key)
    const underway = rendering.get(key)
    if (kept && (kept.expires > now() || (underway && now() - kept.expires < ttlMs)))
      return hit(key, kept, req, nonce)
    if (!kept && underway) {
      // the first render of this page is under way: its copy, once kept, answers this request too
      await settledWithin(underway, ttlMs)
      const first = entries.peek(key)
      if (first && first.expires > now()) return hit(key, first, req, nonce)
    }

    // the answer's age counts from before its data was read
    const started = now()
    const formKeys: string[] = []
    let spoiled = false
    let settle = () => {}
    const mine = new Promise<void>((resolve) => {
      settle = resolve
    })
    rendering.set(key, mine)
    const done = () => {
      if (rendering.get(key) === mine) rendering.delete(key)
      settle()
    }
    let res: Response
    try {
      res = await render({
        nonce,
        formKey: () => {
          const k = randomUUID()
          formKeys.push(k)
          return k
        },
        spoil: () => {
          spoiled = true
        },
      })
    } catch (error) {
      done()
      throw error
    }
    if (!keepable(res, marker) || !res.body) {
      if (kept) drop(key)
      done()
      return withoutMarker(res)
    }
    const [toClient, toKeep] = res.body.tee()
    const headers = headersOf(res)
    void readText(toKeep, maxBodyBytes)
      .then((text) => {
        if (text === null || spoiled) return drop(key)
        const parts = cut(text, nonce, formKeys)
        const entry: Entry = {
          expires: started + ttlMs,
          bytes: textBytes(parts),
          status: res.status,
          headers: [...headers],
          parts,
          gzip: null,
        }
        entries.set(key, entry)
        // Compressed once for the hits to come (a browser always asks for compression); until then,
        // or if it fails, hits are compressed per response by the compression middleware.
        const holeBytes = new Map<number, number>([[NONCE, Buffer.byteLength(nonce)]])
        for (const [i, k] of formKeys.entries()) holeBytes.set(i, Buffer.byteLength(k))
        compileGzipTemplate(parts, holeBytes).then(
          (gzip) => {
            if (entries.peek(key) !== entry) return // replaced or dropped meanwhile
            entry.gzip = gzip
            // the compressed copy counts towards the cache's byte limit too
            const extra = textBytes(gzip.pieces)
            entry.bytes += extra
            entries.grew(key, extra)
          },
          () => {},
        )
      })
      .finally(done)
    headers.set(PAGE_CACHE_STATUS_HEADER, 'miss')
    return new Response(toClient, { status: res.status, headers })
  }

  return {
    serve,
    get size() {
      return entries.size
    },
  }
}

/** The cache key of a request that may be served from the cache, or null. */
function cacheKey(req: Request): string | null {
  if (req.method !== 'GET' || req.headers.has('authorization')) return null
  const cookie = req.headers.get('cookie')
  if (cookie && Object.keys(parseCookies(cookie)).some((name) => name !== LOCALE_COOKIE)) return null
  return pageKeyOf(req)
}

/** Which copy of a page a request gets: reader, locale, host, path and query (no cookies). */
export function pageKeyOf(req: Request): string {
  // an unknown locale value renders like none: one key for both
  const locale = localeFromCookie(req) ?? ''
  const url = new URL(req.url)
  // bots get the page rendered whole, browsers streamed (app/entry.server.tsx)
  const reader = isbot(req.headers.get('user-agent') ?? '') ? 'bot' : 'browser'
  return `${reader} ${locale} ${url.host}${url.pathname}${url.search}`
}

/** A full answer its route marked for this cache, that sets no cookie but the locale's. */
function keepable(res: Response, marker: string): boolean {
  if (res.status !== 200 || res.headers.get(marker) !== '1') return false
  return res.headers.getSetCookie().every((c) => c.startsWith(`${LOCALE_COOKIE}=`))
}

/** The internal marks: never sent to a browser. */
const MARKERS = [SHARED_PAGE_HEADER, PERSONAL_PAGE_HEADER]

function headersOf(res: Response): Headers {
  const headers = new Headers(res.headers)
  for (const m of MARKERS) headers.delete(m)
  headers.delete('content-length')
  return headers
}

function withoutMarker(res: Response): Response {
  if (!MARKERS.some((m) => res.headers.has(m))) return res
  return new Response(res.body, { status: res.status, statusText: res.statusText, headers: headersOf(res) })
}

/** The whole body as text, or null when it fails or is larger than `max` bytes. */
export async function readText(body: ReadableStream<Uint8Array>, max: number): Promise<string | null> {
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      size += value.byteLength
      if (size > max) {
        await reader.cancel()
        return null
      }
      chunks.push(value)
    }
  } catch {
    return null
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** The text cut at every occurrence of the nonce and the form keys. */
function cut(text: string, nonce: string, formKeys: string[]): Array<Buffer | number> {
  const tokens = [nonce, ...formKeys].filter(Boolean)
  if (tokens.length === 0) return [Buffer.from(text)]
  const pattern = new RegExp(`(${tokens.map(escapeRegExp).join('|')})`)
  return text.split(pattern).map((piece, i) => {
    if (i % 2 === 0) return Buffer.from(piece)
    return piece === nonce ? NONCE : formKeys.indexOf(piece)
  })
}

/**
 * A kept answer with a fresh nonce and fresh form keys (the same key wherever one key stood):
 * gzipped from its template when the client takes gzip and the template is ready.
 */
function replay(entry: Entry, nonce: string, gzipAccepted: boolean): Response {
  const fresh = new Map<number, Buffer>()
  const nonceBytes = Buffer.from(nonce)
  const holeValue = (hole: number) => {
    if (hole === NONCE) return nonceBytes
    let key = fresh.get(hole)
    if (!key) {
      key = Buffer.from(randomUUID())
      fresh.set(hole, key)
    }
    return key
  }
  const headers = new Headers(entry.headers)
  headers.set(PAGE_CACHE_STATUS_HEADER, 'hit')
  vary(headers)
  const gzipped = gzipAccepted && entry.gzip ? fillGzipTemplate(entry.gzip, holeValue) : null
  if (gzipped) {
    headers.set('content-encoding', 'gzip')
    headers.set('content-length', String(gzipped.byteLength))
    return new Response(gzipped, { status: entry.status, headers })
  }
  const chunks = entry.parts.map((part) => (typeof part === 'number' ? holeValue(part) : part))
  return new Response(Buffer.concat(chunks), { status: entry.status, headers })
}

export function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** Resolves when `promise` settles or after `ms`, whichever comes first. */
function settledWithin(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
