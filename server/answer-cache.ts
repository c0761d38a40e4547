// The API's catalogue answers for anonymous clients (no Authorization, no cookies), kept in memory
// for CATALOGUE_CACHE_SECONDS and served straight from the node request listener: a hit skips the
// Request/Response objects, the middleware stack and the API, yet carries the same headers as the
// answer it copies (security headers, Vary, ETag), a fresh X-Request-Id, an access line and its
// metrics. Only answers the API marks as shared (api/src/lib/shared-answer.ts) are kept: the same
// for every anonymous requester of the URL. Per process, like the API's read cache; nothing
// another instance needs. Decision: docs/decisions/039-answer-cache.md.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { SHARED_ANSWER_HEADER } from '#api/lib/shared-answer'
import type { AccessLine } from './access-log'
import { elapsedMs, requestIdOf } from './access-log'
import { CacheStore } from './cache-store'
import { chooseEncoding, compressWhole, type Encoding, isCompressible, vary } from './compression'
import { applySecurityHeaders } from './security-headers'

export const ANSWER_CACHE_HEADER = 'x-answer-cache'

/** Headers of the stored answer that are per response, or describe bytes the cache re-makes. */
const PER_RESPONSE = ['content-length', 'content-encoding', 'transfer-encoding', 'x-request-id', 'date']

interface Entry {
  /** The path and query as the API saw them (normalised), for the access line and metrics. */
  path: string
  expires: number
  /** When a request was let through to refresh this expired answer (others get it meanwhile). */
  refreshing?: number
  /**
   * What every hit sends, as writeHead's flat [name, value, …] list; the request id, the body's
   * own length and encoding are added per hit.
   */
  headers: string[]
  etag: string | null
  body: Buffer
  compressible: boolean
  encoded: Partial<Record<Encoding, Buffer>>
  size: number
}

export interface AnswerCacheOptions {
  ttlMs: number
  maxEntries?: number
  /** All bodies together, compressed copies included. */
  maxBytes?: number
  maxBodyBytes?: number
  /** The client address the access line names (TRUST_PROXY's rule). */
  clientOf?: (req: IncomingMessage) => string
  /** Called once per answer served from the cache. */
  onServed?: (line: AccessLine) => void
  /** A failure while answering (the request then goes through, or its connection is closed). */
  onError?: (err: unknown) => void
  now?: () => number
}

export type AnswerCache = ReturnType<typeof createAnswerCache>

export function createAnswerCache(options: AnswerCacheOptions) {
  const maxEntries = options.maxEntries ?? 500
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024
  const maxBodyBytes = options.maxBodyBytes ?? 256 * 1024
  const now = options.now ?? Date.now
  // storage and bounds: never-read answers go first, then the least recently read (server/cache-store.ts)
  const entries = new CacheStore<Entry>({ maxEntries, maxBytes, sizeOf: (e) => e.size })
  const drop = (key: string) => entries.delete(key)

  /**
   * The answer to serve for `key`, or undefined to let the request through. Once expired, one
   * GET goes through to refresh it (a HEAD stores nothing) while the others still get it, for at
   * most another TTL. A hit moves the answer to the back of the eviction order.
   */
  const lookup = (key: string, method: string) => {
    const e = entries.peek(key)
    if (!e) return undefined
    const t = now()
    if (e.expires <= t) {
      if (t - e.expires >= options.ttlMs) {
        drop(key)
        return undefined
      }
      const refreshing = e.refreshing !== undefined && t - e.refreshing < options.ttlMs
      if (!refreshing) {
        if (method !== 'GET') return undefined
        e.refreshing = t
        return undefined
      }
    }
    entries.read(key)
    return e
  }

  const cache = {
    enabled: options.ttlMs > 0,
    size: () => entries.size,
    bytes: () => entries.bytes,

    /**
     * The cache key of a request that may be answered from the cache, or null: GET or HEAD of an
     * /api/ path, without Authorization or cookies. The Host is part of it (answers link to it).
     */
    keyOf(
      method: string,
      target: string,
      header: (name: string) => string | null | undefined,
    ): string | null {
      if (options.ttlMs <= 0 || (method !== 'GET' && method !== 'HEAD')) return null
      if (!target.startsWith('/api/')) return null
      if (header('authorization') != null || header('cookie') != null) return null
      return `${header('host') ?? ''} ${target}`
    },

    /**
     * The API's answer to a GET on its way out: the shared mark is always removed, and a marked
     * 200 JSON answer to a request with a key is kept. `url` is the request's (for the headers
     * that depend on it). Returns the answer to send on.
     */
    async store(key: string | null, method: string, res: Response, url: URL): Promise<Response> {
      const mark = res.headers.get(SHARED_ANSWER_HEADER)
      const keep =
        mark !== null &&
        key !== null &&
        method === 'GET' &&
        res.status === 200 &&
        res.body !== null &&
        // a cookie is one client's: an answer that sets one is never shared
        !res.headers.has('set-cookie') &&
        (res.headers.get('content-type') ?? '').startsWith('application/json')
      // whatever the URL answers now (a 404 for a hidden game) replaces what was kept
      if (!keep && key !== null && method === 'GET') drop(key)
      if (mark === null) return res
      const headers = new Headers(res.headers)
      headers.delete(SHARED_ANSWER_HEADER)
      if (!keep || key === null) {
        return new Response(res.body, { status: res.status, statusText: res.statusText, headers })
      }

      const body = Buffer.from(await res.arrayBuffer())
      const t = now()
      const readAt = Number(mark)
      const expires = (Number.isFinite(readAt) && readAt > 0 ? Math.min(readAt, t) : t) + options.ttlMs
      drop(key)
      if (body.byteLength <= maxBodyBytes && expires > t) {
        const sent = new Headers(headers)
        for (const name of PER_RESPONSE) sent.delete(name)
        // what the outer middleware adds to this answer on its way out (server/create-server.ts)
        applySecurityHeaders(sent, { url, nonce: '', sources: { formAction: [], connect: [] } })
        sent.set('content-length', String(body.byteLength))
        const compressible = isCompressible(sent)
        sent.delete('content-length')
        if (compressible) vary(sent)
        const entry: Entry = {
          path: url.pathname + url.search,
          expires,
          headers: [...sent.entries()].flat(),
          etag: sent.get('etag'),
          body,
          compressible,
          encoded: {},
          size: body.byteLength + key.length,
        }
        entries.set(key, entry)
      }
      headers.set(ANSWER_CACHE_HEADER, 'miss')
      return new Response(body, { status: 200, statusText: res.statusText, headers })
    },

    /**
     * Answers `req` from the cache when it holds a live answer for it: true when answered (the
     * caller then does nothing more), false to let the request through.
     */
    serve(req: IncomingMessage, res: ServerResponse): boolean {
      // this runs in the node listener, outside Hono's error handling: nothing may escape it
      try {
        return answer(req, res)
      } catch (err) {
        options.onError?.(err)
        if (!res.headersSent) return false
        res.destroy()
        return true
      }
    },
  }

  /** A hit, answered whole; false for anything else. */
  function answer(req: IncomingMessage, res: ServerResponse): boolean {
    const key = cache.keyOf(req.method ?? '', req.url ?? '', (n) => requestHeader(req, n))
    if (key === null) return false
    const entry = lookup(key, req.method ?? '')
    if (!entry) return false
    const started = performance.now()
    const reqId = requestIdOf(requestHeader(req, 'x-request-id'))
    const out = entry.headers.slice()
    out.push('x-request-id', reqId, ANSWER_CACHE_HEADER, 'hit')

    let status = 200
    let body: Buffer | null = entry.body
    if (entry.etag && matchesEtag(requestHeader(req, 'if-none-match'), entry.etag)) {
      status = 304
      body = null
    } else {
      const encoding = entry.compressible ? chooseEncoding(requestHeader(req, 'accept-encoding')) : null
      if (encoding) {
        body = entry.encoded[encoding] ?? compressOnce(key, entry, encoding)
        out.push('content-encoding', encoding)
      }
      out.push('content-length', String(body.byteLength))
    }
    res.writeHead(status, out)
    if (body && req.method !== 'HEAD') res.end(body)
    else res.end()
    try {
      options.onServed?.({
        reqId,
        method: req.method ?? 'GET',
        path: entry.path,
        status,
        durationMs: elapsedMs(started),
        client: options.clientOf?.(req) ?? req.socket.remoteAddress ?? 'unknown',
      })
    } catch (err) {
      // the answer has gone out whole: a failed access line must not cost the connection
      options.onError?.(err)
    }
    return true
  }

  function compressOnce(key: string, entry: Entry, encoding: Encoding): Buffer {
    const packed = compressWhole(entry.body, encoding, false)
    entry.encoded[encoding] = packed
    entry.size += packed.byteLength
    // a body that grows past the byte cap makes room by dropping unread, then the oldest answers
    entries.grew(key, packed.byteLength)
    return packed
  }
  return cache
}

/** A request header as one string (node joins repeated ones), or null. */
export function requestHeader(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name]
  return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v
}

/** If-None-Match against a tag, compared weakly (as for GET), `*` matching any. */
export function matchesEtag(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false
  const bare = (t: string) => t.trim().replace(/^W\//, '')
  const tag = bare(etag)
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || bare(t) === tag)
}
