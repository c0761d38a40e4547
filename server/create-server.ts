import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { getConnInfo } from '@hono/node-server/conninfo'
import { serveStatic } from '@hono/node-server/serve-static'
import { createRequestHandler, type ServerBuild } from '@remix-run/node'
import { Hono } from 'hono'
import { createApi } from '#api/app'
import type { Database } from '#api/db/client'
import { loadApiConfig } from '#api/env'
import { csrfGuard } from './csrf'
import type { ServerEnv } from './env'
import { applySecurityHeaders, createNonce, cspSourcesFromEnv } from './security-headers'
import { initServerSentry } from '#app/lib/sentry.server'
import { readLatestVersion } from './version'

const root = fileURLToPath(new URL('..', import.meta.url))
export const CLIENT_IP_HEADER = 'x-shop-client-ip'

export interface ShopServer {
  fetch: (req: Request, env?: unknown) => Response | Promise<Response>
  api: ReturnType<typeof createApi> | null
}

/**
 * One Hono app: the shop API at /api (unless API_URL points elsewhere), the built client assets,
 * uploaded media and the Remix storefront for everything else.
 */
export async function createShopServer(env: ServerEnv, database: Database | null): Promise<ShopServer> {
  const app = new Hono<{ Variables: { cspNonce: string } }>()
  const mountApi = !env.API_URL && env.SHOP_ROLE !== 'storefront'
  const config = loadApiConfig(process.env, { dataDir: env.dataDir, port: env.PORT })
  const api = mountApi && database ? createApi({ db: database.db, config, fetch: globalThis.fetch }) : null
  await initServerSentry(process.env)

  // Security headers on every response (pages, API, assets, media); the page policy's script
  // nonce is made here and reaches Remix through the load context.
  const cspSources = cspSourcesFromEnv(process.env, [
    config.publicUrl, // the sandbox checkout's forms post to the public origin
    config.getpay?.payUrl,
    config.payselection ? 'https://webform.payselection.com' : null,
    ...Object.values(config.social).flatMap((s) => signInPageUrls(s)),
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

  if (api) {
    const uploadDir = path.join(env.dataDir, 'uploads')
    app.all('/api/*', (c) => {
      // the client address header is ours to set: never trust one that came from outside
      const headers = new Headers(c.req.raw.headers)
      headers.set(CLIENT_IP_HEADER, remoteAddress(c))
      return api.fetch(new Request(c.req.raw, { headers }))
    })
    app.get('/media/:name{[A-Za-z0-9_-]+\\.(png|jpg|jpeg|webp|gif)}', (c) => {
      const file = path.join(uploadDir, c.req.param('name'))
      if (!existsSync(file)) return c.notFound()
      const ext = path.extname(file).slice(1)
      return new Response(createReadStream(file) as unknown as ReadableStream, {
        headers: {
          'content-type': `image/${ext === 'jpg' ? 'jpeg' : ext}`,
          'content-length': String(statSync(file).size),
          'cache-control': 'public, max-age=31536000, immutable',
          'x-content-type-options': 'nosniff',
        },
      })
    })
  }
  if (env.SHOP_ROLE === 'api') {
    app.notFound((c) => c.json({ detail: 'Not found', code: 'not_found' }, 404))
    return { fetch: app.fetch, api }
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
  const apiFetch = api ? async (req: Request) => api.fetch(req) : (req: Request) => fetch(req)

  app.all('*', (c) =>
    handle(c.req.raw, {
      api: { baseUrl: apiBase, fetch: apiFetch },
      clientAddress: remoteAddress(c),
      cspNonce: c.get('cspNonce'),
    }),
  )
  return { fetch: app.fetch, api }
}

/** The provider pages a sign-in form may redirect the browser to (not the server-to-server URLs). */
function signInPageUrls(provider: object | undefined): string[] {
  const pageKeys = ['authorizeUrl', 'openidUrl', 'authUrl']
  return Object.entries(provider ?? {})
    .filter(([k, v]) => pageKeys.includes(k) && typeof v === 'string')
    .map(([, v]) => v as string)
}

// biome-ignore lint/suspicious/noExplicitAny: hono context of any env
function remoteAddress(c: any): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
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
