import { existsSync, readdirSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import path from 'node:path'
import { getConnInfo } from '@hono/node-server/conninfo'
import { serveStatic } from '@hono/node-server/serve-static'
import { createRequestHandler, type ServerBuild } from '@remix-run/node'
import { Hono } from 'hono'
import { createApi } from '#api/app'
import type { ApiDeps } from '#api/context'
import type { Database } from '#api/db/client'
import { loadApiConfig } from '#api/env'
import { CLIENT_IP_HEADER } from '#api/lib/client-address'
import { inProcessCall } from '#api/lib/in-process'
import { log } from '#api/lib/log'
import { allowedMethods, NEVER_ANSWERED } from '#api/lib/methods'
import { personalPageKey } from '#api/services/auth/page-stamp'
import { profileOfBearer } from '#api/services/auth/profile'
import {
  CLIENT_SIGNATURE_HEADER,
  type ClientAddressRule,
  resolveClientAddress,
  signClientAddress,
} from './client-address'
import { accessLog, writeAccessLine } from './access-log'
import { type AnswerCache, createAnswerCache, requestHeader } from './answer-cache'
import { storefrontBodyLimit } from './body-limit'
import { projectRoot } from '../shared/project-root'
import { collapseDoubledSlashes } from './path-collapse'
import { compression } from './compression'
import { csrfGuard } from './csrf'
import type { ServerEnv } from './env'
import { createReadiness, type Readiness } from './lifecycle'
import { createPageCache, type PageRender } from './page-cache'
import { createPersonalFill, PROFILE } from './personal-fill'
import { createPersonalPages } from './personal-pages'
import { createReadReuse } from './read-reuse'
import { applySecurityHeaders, createNonce, cspSourcesFromEnv } from './security-headers'
import { initServerSentry } from '#app/lib/sentry.server'
import { PERSONAL_PAGE_HEADER } from '#app/lib/shared-page.server'
import { watchUndeclaredProxy } from './undeclared-proxy'
import { readLatestVersion } from './version'
import apiMessages from '../locales/ru/api.json' with { type: 'json' }

const root = projectRoot

export interface ShopServer {
  fetch: (req: Request, env?: unknown) => Response | Promise<Response>
  api: ReturnType<typeof createApi> | null
  /** What the mounted API runs on (also what this process's job worker uses); null without an API. */
  deps: ApiDeps | null
  /**
   * Answers a node request from the answer cache when it can (true), before any of `fetch`
   * (server/answer-cache.ts); false lets it through to `fetch`.
   */
  serveCached: (req: IncomingMessage, res: ServerResponse) => boolean
}

/**
 * One Hono app: the shop API at /api (unless API_URL points elsewhere), the built client assets,
 * uploaded media and the Remix storefront for everything else.
 */
export async function createShopServer(
  env: ServerEnv,
  database: Database | null,
  readiness: Readiness = createReadiness(),
): Promise<ShopServer> {
  const app = new Hono<{ Variables: { cspNonce: string; clientAddress: string } }>()
  // TRACE (and TRACK, CONNECT) is answered by nothing: @hono/node-server builds a TRACE request as
  // a GET, so without this it would get a GET's answer, a buyer's data included (issue 44)
  app.use('*', async (c, next) => {
    if (!NEVER_ANSWERED.has(c.req.method.toUpperCase())) return next()
    const onApi = c.req.path.startsWith('/api/')
    const allow = (onApi && api ? allowedMethods(api as never, c.req.path) : null) ?? ['GET', 'HEAD', 'POST']
    c.header('Allow', allow.join(', '))
    c.header('cache-control', 'no-store')
    return c.json({ detail: apiMessages.method_not_allowed, code: 'method_not_allowed' }, 405)
  })
  // Readiness first: a draining process answers 503 at once (the API's own route checks the
  // database); a process without the API (storefront only) answers here.
  app.get('/api/health/', (c, next) => {
    if (readiness.draining || !mountApiOf(env, database)) {
      c.header('cache-control', 'no-store')
      return readiness.draining
        ? c.json({ status: 'unavailable' as const }, 503)
        : c.json({ status: 'ok' as const }, 200)
    }
    return next()
  })
  const mountApi = mountApiOf(env, database)
  const config = loadApiConfig(process.env, { dataDir: env.dataDir, port: env.PORT })
  const deps: ApiDeps | null = database ? { db: database.db, config, fetch: globalThis.fetch } : null
  const api = mountApi && deps ? createApi(deps) : null
  await initServerSentry(process.env)

  // Who the client is, decided once per request (TRUST_PROXY, a storefront's signed address).
  const addressRule: ClientAddressRule = {
    trustProxy: env.trustProxy,
    secret: config.jwtSecret,
    addressHeader: CLIENT_IP_HEADER,
  }
  // production: X-Forwarded-For from a peer TRUST_PROXY does not list is reported (issue 42)
  const watchProxy = deps && !config.demo ? watchUndeclaredProxy(deps.db, env.trustProxy) : null
  app.use('*', async (c, next) => {
    const peer = remoteAddress(c)
    c.set('clientAddress', resolveClientAddress(peer, c.req.raw.headers, addressRule))
    watchProxy?.(peer, c.req.raw.headers)
    await next()
  })
  // One access line per request, with its request id (X-Request-Id) on every log line it causes.
  app.use('*', accessLog())

  // Outermost, so that it compresses the finished response (headers included) of every route.
  app.use('*', compression({ isImmutable: (p) => p.startsWith('/assets/') }))

  // Security headers on every response (pages, API, assets, media); the page policy's script
  // nonce is made here and reaches Remix through the load context.
  const cspSources = cspSourcesFromEnv(process.env, [
    config.publicUrl, // the sandbox checkout's forms post to the public origin
    config.getpay?.payUrl,
    config.payselection ? 'https://webform.payselection.com' : null,
    ...Object.values(config.social).flatMap((s) => signInPageUrls(s)),
    // «Следить в Telegram» and «Привязать Telegram» post a form answered by a redirect to the bot
    config.telegram ? 'https://t.me' : null,
  ])
  app.use('*', async (c, next) => {
    const nonce = createNonce()
    c.set('cspNonce', nonce)
    await next()
    try {
      applySecurityHeaders(c.res.headers, { url: new URL(c.req.url), nonce, sources: cspSources })
    } catch {
      // a response with immutable headers (e.g. passed through from fetch): copy it once
      c.res = new Response(c.res.body, c.res)
      applySecurityHeaders(c.res.headers, { url: new URL(c.req.url), nonce, sources: cspSources })
    }
  })
  app.use('*', csrfGuard({ publicUrl: config.publicUrl }))

  // Catalogue answers of the API for anonymous clients, served before all of the above on a hit.
  const answers: AnswerCache = createAnswerCache({
    ttlMs: config.catalogueCacheSeconds * 1000,
    clientOf: (req) =>
      resolveClientAddress(req.socket.remoteAddress, { get: (n) => requestHeader(req, n) }, addressRule),
    onServed: (line) => writeAccessLine(line),
    onError: (err) => log.error({ err }, 'answer cache failed'),
  })
  const serveCached = (req: IncomingMessage, res: ServerResponse) =>
    answers.enabled && !readiness.draining && answers.serve(req, res)

  if (api) {
    app.all('/api/*', async (c) => {
      // the client address header is ours to set: never pass on one that came from outside
      const headers = new Headers(c.req.raw.headers)
      headers.set(CLIENT_IP_HEADER, c.get('clientAddress'))
      headers.delete(CLIENT_SIGNATURE_HEADER)
      const res = await api.fetch(new Request(c.req.raw, { headers }))
      const key = answers.keyOf(c.req.method, requestTarget(c), (n) => c.req.header(n))
      return answers.store(key, c.req.method, res, new URL(c.req.url))
    })
    // uploaded images are in the database (api/src/routes/media.ts): any instance serves any of them
    app.get('/media/*', (c) => api.fetch(c.req.raw))
  } else if (env.API_URL) {
    // a storefront in front of an API elsewhere: its pages link /media/<name> on this origin
    const apiOrigin = env.API_URL.replace(/\/$/, '')
    app.get('/media/*', (c) => relayMedia(`${apiOrigin}${c.req.path}`, c.req.raw))
  }
  if (env.SHOP_ROLE === 'api') {
    app.notFound((c) => c.json({ detail: 'Not found', code: 'not_found' }, 404))
    return { fetch: app.fetch, api, deps, serveCached }
  }

  const build = (await import(path.join(root, 'build/server/index.js'))) as ServerBuild
  // The build the browser should run: this server's own, unless a deploy announces a newer one.
  app.get('/version.json', (c) => {
    c.header('cache-control', 'no-store')
    return c.json({ version: readLatestVersion(env.dataDir) ?? build.assets.version })
  })

  const clientDir = path.relative(process.cwd(), path.join(root, 'build/client'))
  app.use(
    '/assets/*',
    serveStatic({
      root: clientDir,
      onFound: (_p, c) => c.header('cache-control', 'public, max-age=31536000, immutable'),
    }),
  )
  // Other public files (favicon, pictures) are known at start-up: pages skip the file-system look-up.
  const publicFiles = listFiles(path.join(root, 'build/client'))
  const servePublic = serveStatic({
    root: clientDir,
    onFound: (_p, c) => c.header('cache-control', 'public, max-age=3600'),
  })
  app.use('*', (c, next) => (publicFiles.has(c.req.path) ? servePublic(c, next) : next()))

  const handle = createRequestHandler(
    build,
    process.env.NODE_ENV === 'development' ? 'development' : 'production',
  )
  const apiBase = env.API_URL ? env.API_URL.replace(/\/$/, '') : 'http://shop.internal'
  // In process, each storefront request marks its calls as its own (api/src/lib/in-process.ts).
  const apiFetchFor = (): ((req: Request) => Promise<Response>) => {
    if (!api) return (req) => fetch(signedForApi(req, config.jwtSecret))
    const bindings = { inProcess: inProcessCall() }
    return async (req) => api.fetch(req, bindings)
  }

  // `//host/x` is never a page: the same path with one slash (its links would leave the shop)
  app.use('*', collapseDoubledSlashes())
  // Form posts to pages are bounded before Remix reads them (the API bounds its own bodies);
  // multipart carries an upload (its base64 copy too, on the order form's confirmation step).
  app.use('*', storefrontBodyLimit({ multipartBytes: 2 * config.maxUploadBytes }))
  // Catalogue pages of signed-out visitors are kept as long as catalogue reads (server/page-cache.ts).
  const pages = createPageCache({ ttlMs: config.catalogueCacheSeconds * 1000 })
  type PageContext = { req: { raw: Request }; get: (k: 'cspNonce' | 'clientAddress') => string }
  const renderPage =
    (c: PageContext, apiFetch: (req: Request) => Promise<Response>) =>
    ({ nonce, formKey, spoil }: PageRender) =>
      handle(c.req.raw, {
        api: { baseUrl: apiBase, fetch: apiFetch },
        clientAddress: c.get('clientAddress'),
        cspNonce: nonce,
        demoStrip: config.demoStrip,
        formKey,
        spoilPage: spoil,
      })
  const full = (c: PageContext, apiFetch: (req: Request) => Promise<Response> = apiFetchFor()) =>
    pages.serve(c.req.raw, c.get('cspNonce'), renderPage(c, apiFetch))
  // A signed-in buyer's profile and pay page, kept for them until their data changes
  // (server/personal-pages.ts, decision 103); only with the API and its database in process.
  const personal = deps
    ? createPersonalPages(
        createPageCache({
          ttlMs: config.catalogueCacheSeconds * 1000,
          marker: PERSONAL_PAGE_HEADER,
          maxTotalBytes: 16 * 1024 * 1024,
        }),
        (access, orderId) => personalPageKey(deps.db, config.jwtSecret, access, orderId),
      )
    : null
  // Signed-in buyers' shared pages: a template per page and user shape, filled per request with
  // the buyer's own reads (server/personal-fill.ts, decision 098); only with the API in process.
  const fills = createPersonalFill({ ttlMs: api ? config.catalogueCacheSeconds * 1000 : 0 })
  app.all('*', (c) => {
    if (!api) return full(c)
    const clientAddress = c.get('clientAddress')
    // one sign-in check for the fill's reads through the API and, when the page is not filled,
    // its whole render, which also gets the answers the fill read (server/read-reuse.ts)
    const inProcess = { inProcess: inProcessCall() }
    const reads = createReadReuse(async (req) => api.fetch(req, inProcess))
    const apiHeaders = (access?: string) => {
      const headers = new Headers({ [CLIENT_IP_HEADER]: clientAddress })
      if (access) headers.set('authorization', `Bearer ${access}`)
      return headers
    }
    return fills.serve(c.req.raw, c.get('cspNonce'), {
      readAsBuyer: async (path, access) => {
        // the profile, which every filled page reads, straight from the API's services: the
        // Request, middleware and JSON round trip of an in-process call cost more than its reads
        if (path === PROFILE && deps) {
          const profile = await profileOfBearer(deps.db, config.jwtSecret, access)
          return { status: profile ? 200 : 401, json: async () => profile }
        }
        return reads.keep(new Request(`${apiBase}${path}`, { headers: apiHeaders(access) }))
      },
      readPublic: async (req) => api.fetch(req, { inProcess: inProcessCall() }),
      renderTemplate: (req, { nonce, formKey, spoil, apiFetch }) =>
        handle(req, {
          api: { baseUrl: apiBase, fetch: apiFetch },
          clientAddress,
          cspNonce: nonce,
          demoStrip: config.demoStrip,
          formKey,
          spoilPage: spoil,
          personalTemplate: true,
        }),
      full: async () =>
        (await personal?.serve(c.req.raw, c.get('cspNonce'), renderPage(c, reads.fetch))) ??
        full(c, reads.fetch),
    })
  })
  return { fetch: app.fetch, api, deps, serveCached }
}

/** The request target as the client sent it (path and query), which the answer cache keys on. */
// biome-ignore lint/suspicious/noExplicitAny: hono context of any env
function requestTarget(c: any): string {
  const incoming = c.env?.incoming as IncomingMessage | undefined
  if (incoming?.url) return incoming.url
  const url = new URL(c.req.url)
  return url.pathname + url.search
}

function mountApiOf(env: ServerEnv, database: Database | null): boolean {
  return !env.API_URL && env.SHOP_ROLE !== 'storefront' && !!database
}

/** The provider pages a sign-in form may redirect the browser to (not the server-to-server URLs). */
function signInPageUrls(provider: object | undefined): string[] {
  const pageKeys = ['authorizeUrl', 'openidUrl', 'authUrl']
  return Object.entries(provider ?? {})
    .filter(([k, v]) => pageKeys.includes(k) && typeof v === 'string')
    .map(([, v]) => v as string)
}

/**
 * A storefront's call to an API over HTTP (split mode): the shopper's address, put there by the
 * session transport, goes out signed so the API believes it (and as X-Forwarded-For, for an API
 * that lists this storefront in TRUST_PROXY instead).
 */
function signedForApi(req: Request, secret: string): Request {
  const address = req.headers.get(CLIENT_IP_HEADER)
  if (!address) return req
  const headers = new Headers(req.headers)
  headers.set(CLIENT_SIGNATURE_HEADER, signClientAddress(secret, address))
  headers.set('x-forwarded-for', address)
  return new Request(req, { headers })
}

const MEDIA_HEADERS = [
  'content-type',
  'content-length',
  'cache-control',
  'etag',
  'x-content-type-options',
  'content-disposition',
]

/** An upload fetched from the API and passed on whole (images are small; no stream to break). */
async function relayMedia(url: string, req: Request): Promise<Response> {
  const headers = new Headers()
  const tag = req.headers.get('if-none-match')
  if (tag) headers.set('if-none-match', tag)
  try {
    const res = await fetch(url, { method: req.method === 'HEAD' ? 'HEAD' : 'GET', headers })
    const body = res.status === 200 && req.method !== 'HEAD' ? new Uint8Array(await res.arrayBuffer()) : null
    if (!body) await res.body?.cancel().catch(() => {})
    const out = new Headers()
    for (const name of MEDIA_HEADERS) {
      const value = res.headers.get(name)
      if (value) out.set(name, value)
    }
    return new Response(body, { status: res.status, headers: out })
  } catch {
    return new Response(null, { status: 502, headers: { 'retry-after': '1' } })
  }
}

// biome-ignore lint/suspicious/noExplicitAny: hono context of any env
function remoteAddress(c: any): string | undefined {
  try {
    return getConnInfo(c).remote.address
  } catch {
    return undefined
  }
}

/** URL paths ("/images/logo.svg") of every file under `dir`. */
function listFiles(dir: string, prefix = ''): Set<string> {
  const out = new Set<string>()
  if (!existsSync(dir)) return out
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const urlPath = `${prefix}/${entry.name}`
    if (entry.isDirectory()) for (const f of listFiles(path.join(dir, entry.name), urlPath)) out.add(f)
    else out.add(urlPath)
  }
  return out
}
