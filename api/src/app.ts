import { createHash } from 'node:crypto'
import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { etag } from 'hono/etag'
import type { ApiApp, ApiDeps, AppEnv } from './context'
import { bearerAuth } from './lib/auth'
import { errorResponse, message } from './lib/errors'
import { validationHook } from './lib/validation'
import { registerAdmin } from './routes/admin'
import { registerAuth } from './routes/auth'
import { registerCatalogue } from './routes/catalogue'
import { registerContent } from './routes/content'
import { registerGifts } from './routes/gifts'
import { registerMedia } from './routes/media'
import { registerOrders } from './routes/orders'
import { registerOrderLookup } from './routes/orders-lookup'
import { registerPersonalData } from './routes/personal-data'
import { registerPayments } from './routes/payments'
import { registerPlayerCheck } from './routes/player-check'
import { registerPromo } from './routes/promo'
import { registerShop } from './routes/shop'
import { registerSocial } from './routes/social'
import { registerSystem } from './routes/system'

const STOCK_IMPORT_BYTES = 4 * 1024 * 1024

const CATALOGUE_READS = [
  '/api/games/*',
  '/api/products/*',
  '/api/gifts/*',
  '/api/faq/*',
  '/api/articles/*',
  '/api/contacts/',
]

function sha1(body: Uint8Array): ArrayBuffer {
  const d = createHash('sha1').update(body).digest()
  return d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength) as ArrayBuffer
}

/** Builds the shop API. Every path carries the full `/api/...` prefix, as in the contract. */
export function createApi(deps: ApiDeps): ApiApp {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })

  app.use('*', async (c, next) => {
    c.set('deps', deps)
    await next()
  })
  app.use('/api/*', async (c, next) => {
    const multipart = c.req.header('content-type')?.startsWith('multipart/form-data')
    // a back-office code import carries thousands of lines in one JSON body
    const stockImport = c.req.path.startsWith('/api/admin/stock/')
    const limit = bodyLimit({
      maxSize: multipart
        ? deps.config.maxUploadBytes
        : stockImport
          ? STOCK_IMPORT_BYTES
          : deps.config.maxJsonBytes,
      onError: (cx) => cx.json({ detail: message('body_too_large'), code: 'body_too_large' }, 413),
    })
    return limit(c, next)
  })
  app.use('/api/*', bearerAuth)
  // Catalogue reads answer 304 to a client that already holds the same answer (the tag is a hash
  // of this requester's body, so prices by country or account never mix).
  // The same SHA-1 as the middleware's default, hashed synchronously: WebCrypto's async digest was
  // about 4 % of a rendered game page's CPU (its loaders' API reads all pass through here).
  const catalogueEtag = etag({ weak: true, generateDigest: sha1 })
  // The storefront in this process never sends If-None-Match: its calls skip the hash.
  for (const path of CATALOGUE_READS)
    app.use(path, (c, next) =>
      c.req.method === 'GET' && !c.env?.inProcess ? catalogueEtag(c, next) : next(),
    )

  registerSystem(app)
  registerContent(app)
  registerCatalogue(app)
  registerGifts(app)
  registerOrders(app)
  registerPayments(app)
  registerPromo(app)
  registerAuth(app)
  registerSocial(app)
  registerOrderLookup(app)
  registerPersonalData(app)
  registerPlayerCheck(app)
  registerAdmin(app)
  // after the admin guard: /api/admin/shop/ is guarded like the other admin routes
  registerShop(app)
  registerMedia(app)

  app.notFound((c) =>
    c.json({ detail: message('route_not_found', { path: c.req.path }), code: 'not_found' }, 404),
  )
  app.onError((err, c) => errorResponse(c, err))
  return app
}
