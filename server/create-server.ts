import { createReadStream, existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { getConnInfo } from '@hono/node-server/conninfo'
import { serveStatic } from '@hono/node-server/serve-static'
import { createRequestHandler, type ServerBuild } from '@remix-run/node'
import { Hono } from 'hono'
import { createApi } from '#api/app'
import type { Database } from '#api/db/client'
import { loadApiConfig } from '#api/env'
import type { ServerEnv } from './env'

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
  const app = new Hono()
  const mountApi = !env.API_URL && env.SHOP_ROLE !== 'storefront'
  const api =
    mountApi && database
      ? createApi({
          db: database.db,
          config: loadApiConfig(process.env, { dataDir: env.dataDir, port: env.PORT }),
          fetch: globalThis.fetch,
        })
      : null

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

  const clientDir = path.relative(process.cwd(), path.join(root, 'build/client'))
  app.use(
    '/assets/*',
    serveStatic({
      root: clientDir,
      onFound: (_p, c) => c.header('cache-control', 'public, max-age=31536000, immutable'),
    }),
  )
  app.use(
    '*',
    serveStatic({ root: clientDir, onFound: (_p, c) => c.header('cache-control', 'public, max-age=3600') }),
  )

  const build = (await import(path.join(root, 'build/server/index.js'))) as ServerBuild
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
    }),
  )
  return { fetch: app.fetch, api }
}

// biome-ignore lint/suspicious/noExplicitAny: hono context of any env
function remoteAddress(c: any): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown'
  } catch {
    return 'unknown'
  }
}
