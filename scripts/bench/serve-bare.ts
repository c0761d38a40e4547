// Serves the bare Remix build through the same Hono node server the shop uses, so the SSR ratio
// compares our pages with an empty page on the same stack.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { serveStatic } from '@hono/node-server/serve-static'
import { createRequestHandler, type ServerBuild } from '@remix-run/node'
import { Hono } from 'hono'

const dir = fileURLToPath(new URL('../../.cache/bench-bare-remix', import.meta.url))
const build = (await import(path.join(dir, 'server/index.js'))) as ServerBuild
const handle = createRequestHandler(build, 'production')
const app = new Hono()
app.use('/assets/*', serveStatic({ root: path.relative(process.cwd(), path.join(dir, 'client')) }))
app.all('*', (c) => handle(c.req.raw))
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3901) })
