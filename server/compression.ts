// Response compression by Accept-Encoding: brotli, else gzip. Pages are compressed as they stream
// (flushed whenever the page pauses, so streamed HTML still arrives in pieces); hashed assets are
// compressed once at the highest level and kept in memory (the build is a few hundred KB and never
// changes).
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { promisify } from 'node:util'
import {
  brotliCompress,
  brotliCompressSync,
  constants,
  createBrotliCompress,
  createGzip,
  gzip,
  gzipSync,
} from 'node:zlib'
import type { Context, MiddlewareHandler } from 'hono'

export type Encoding = 'br' | 'gzip'

const COMPRESSIBLE =
  /^(text\/(?!event-stream)|application\/(json|javascript|xml|manifest\+json)|image\/svg\+xml)/
const JSON_TYPE = /^application\/json/

/** Below this, the headers cost more than the bytes saved. */
const MIN_BYTES = 1024

/** Whether an answer with these headers is worth compressing (by type, and size when known). */
export function isCompressible(headers: Headers): boolean {
  if (!COMPRESSIBLE.test(headers.get('content-type') ?? '')) return false
  const length = Number(headers.get('content-length') ?? Number.NaN)
  return !(length < MIN_BYTES)
}

/** Bigger JSON answers are compressed off the event loop. */
const SYNC_LIMIT = 64 * 1024
const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

function compressWholeAsync(plain: Uint8Array, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotliAsync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
    : gzipAsync(plain, { level: 6 })
}

/** A whole body compressed at once: `best` for files kept forever, else a quick level. */
export function compressWhole(plain: Uint8Array, encoding: Encoding, best: boolean): Buffer<ArrayBuffer> {
  return encoding === 'br'
    ? brotliCompressSync(plain, { params: { [constants.BROTLI_PARAM_QUALITY]: best ? 11 : 5 } })
    : gzipSync(plain, { level: best ? 9 : 6 })
}

/** The encoding to use for an Accept-Encoding header (q=0 refuses), or null. */
export function chooseEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  if (accepts(acceptEncoding, 'br')) return 'br'
  if (accepts(acceptEncoding, 'gzip')) return 'gzip'
  return null
}

/** Whether an Accept-Encoding header lets the answer come in `encoding` (by name or `*`, q > 0). */
export function accepts(acceptEncoding: string | null | undefined, encoding: Encoding): boolean {
  if (!acceptEncoding) return false
  const accepted = new Map<string, number>()
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';')
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
    accepted.set(name!.trim(), q ? Number(q.slice(2)) || 0 : 1)
  }
  return (accepted.get(encoding) ?? accepted.get('*') ?? 0) > 0
}

/**
 * Brotli at quality 5, as whole JSON answers get: on the Standoff 2 page (37 KB, compressed whole)
 * 9,190 B against 10,093 B at quality 4, in 0.60 ms against 0.75 ms (issue 46, 2026-12-03).
 */
function streamingCompressor(encoding: Encoding) {
  return encoding === 'br'
    ? createBrotliCompress({
        flush: constants.BROTLI_OPERATION_FLUSH,
        params: { [constants.BROTLI_PARAM_QUALITY]: 5 },
      })
    : createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH })
}

/** Past this many bytes held, what came so far goes on without waiting for the pause. */
const COALESCE_BYTES = 64 * 1024

/**
 * Passes a stream's chunks on in one piece per burst: what arrives before the event loop's next
 * turn goes on together. React writes a page in 2 KB chunks, all in one burst; flushed one by one,
 * each became a deflate block with its own code tables (a game page's gzip measured 10,925 B on the
 * wire against 10,461 B for the same text compressed whole, issue 46). A piece that follows a
 * pause (a streamed boundary) still goes out as soon as it comes.
 */
async function* coalesceBursts(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  const chunks = source[Symbol.asyncIterator]()
  const pause = Symbol('pause')
  const nextTurn = () => new Promise<typeof pause>((resolve) => setImmediate(() => resolve(pause)))
  let held: Buffer[] = []
  let bytes = 0
  const piece = () => {
    const out = held.length === 1 ? held[0]! : Buffer.concat(held)
    held = []
    bytes = 0
    return out
  }
  // a read left pending when the reader goes away (a browser closed mid-page) must not reject unheard
  const read = () => {
    const r = chunks.next()
    r.catch(() => {})
    return r
  }
  let next = read()
  for (;;) {
    // with nothing held, wait for the next chunk; with something held, only until the loop turns
    const got = held.length === 0 ? await next : await Promise.race([next, nextTurn()])
    if (got === pause) {
      // a generator's yield waits for the reader: a slow client slows the render (backpressure)
      yield piece()
      continue
    }
    if (got.done) break
    held.push(got.value)
    bytes += got.value.byteLength
    next = read()
    if (bytes >= COALESCE_BYTES) yield piece()
  }
  if (held.length > 0) yield piece()
}

const staticCache = new Map<string, Buffer<ArrayBuffer>>()

export function compression(options: { isImmutable: (path: string) => boolean }): MiddlewareHandler {
  return async (c, next) => {
    await next()
    let res = c.res
    if (c.req.method === 'HEAD' || !res.body || res.headers.has('content-encoding')) return
    if (res.status === 204 || res.status === 304 || res.status === 206) return
    // JSON answers are built whole, never streamed: measured, a small one goes as it is and a
    // big one is compressed at once (a stream per answer costs more than the answer)
    let whole: Uint8Array<ArrayBuffer> | null = null
    if (JSON_TYPE.test(res.headers.get('content-type') ?? '')) {
      whole = new Uint8Array(await res.arrayBuffer())
      const headers = new Headers(res.headers)
      headers.set('content-length', String(whole.byteLength))
      res = new Response(whole, { status: res.status, statusText: res.statusText, headers })
      replace(c, res)
    }
    if (!res.body || !isCompressible(res.headers)) return
    try {
      vary(res.headers)
    } catch {
      // immutable headers (a response passed through from fetch): it gets new ones below if compressed
    }
    const encoding = chooseEncoding(c.req.header('accept-encoding'))
    if (!encoding) return

    const headers = new Headers(res.headers)
    vary(headers)
    headers.set('content-encoding', encoding)
    headers.delete('content-length')
    // a strong validator names the bytes; the compressed bytes differ
    const etag = headers.get('etag')
    if (etag && !etag.startsWith('W/')) headers.set('etag', `W/${etag}`)

    if (res.status === 200 && options.isImmutable(c.req.path)) {
      const key = `${encoding} ${c.req.path}`
      let bytes = staticCache.get(key)
      if (!bytes) {
        bytes = compressWhole(new Uint8Array(await res.arrayBuffer()), encoding, true)
        staticCache.set(key, bytes)
      } else {
        await res.body.cancel().catch(() => {})
      }
      headers.set('content-length', String(bytes.byteLength))
      replace(c, new Response(new Uint8Array(bytes), { status: res.status, headers }))
      return
    }

    if (whole) {
      // a big answer is compressed on the thread pool, not on the event loop
      const bytes =
        whole.byteLength > SYNC_LIMIT
          ? await compressWholeAsync(whole, encoding)
          : compressWhole(whole, encoding, false)
      headers.set('content-length', String(bytes.byteLength))
      replace(c, new Response(new Uint8Array(bytes), { status: res.status, headers }))
      return
    }

    const compressor = streamingCompressor(encoding)
    // A client that goes away mid-response destroys the compressor with an AbortError, possibly
    // after the pipeline has finished and dropped its listeners: without a listener of its own
    // that 'error' is unhandled and ends the process (one disconnecting client killed a worker).
    compressor.on('error', () => {})
    pipeline(Readable.fromWeb(res.body as never), coalesceBursts, compressor).catch(() => {})
    replace(c, new Response(Readable.toWeb(compressor) as ReadableStream, { status: res.status, headers }))
  }
}

/** Hono's `c.res =` copies the old response's headers over the new one's (its content-length too). */
function replace(c: Context, res: Response) {
  c.res = undefined
  c.res = res
}

/** Adds Accept-Encoding to Vary (an answer that may be compressed). */
export function vary(headers: Headers) {
  const current = headers.get('vary')
  if (!current) headers.set('vary', 'Accept-Encoding')
  else if (!/accept-encoding|\*/i.test(current)) headers.set('vary', `${current}, Accept-Encoding`)
}
