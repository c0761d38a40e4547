import { createHash } from 'node:crypto'
import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import { etag } from 'hono/etag'
import type { ApiApp, ApiDeps, AppEnv } from './context'
import { bearerAuth } from './lib/auth'
import { type BodyLimit, bodyLimitsOf } from './lib/body-limits'
import { contractWatch } from './lib/contract-watch'
import { errorResponse, message } from './lib/errors'
import { allowedMethods } from './lib/methods'
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
import { registerTelegram } from './routes/telegram'
import { enableTelegramNews } from './services/telegram/follow'
import { CATALOGUE_READS } from './lib/catalogue-reads'

/**
 * No operation's JSON body may be longer than this, whatever its schema's bound. The longest is the
 * back-office code import: 4,000,000 characters, 24 MB when every character is escaped (issue 44).
 * Only a route's handler reads the body, after the back-office guard: a stranger's long body is
 * refused unread.
 */
const LONGEST_JSON_BYTES = 32 * 1024 * 1024

function sha1(body: Uint8Array): ArrayBuffer {
  const d = createHash('sha1').update(body).digest()
  return d.buffer.slice(d.byteOffset, d.byteOffset + d.byteLength) as ArrayBuffer
}

/** Builds the shop API. Every path carries the full `/api/...` prefix, as in the contract. */
export function createApi(deps: ApiDeps): ApiApp {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
  // the e2e run only (a demo process with E2E=1): every exchange judged against the contract
  if (deps.config.contractWatchFile) app.use('*', contractWatch(deps.config.contractWatchFile))
  // order events and staff mails make Telegram news only where a bot is configured
  enableTelegramNews(deps.config.telegram !== null)

  app.use('*', async (c, next) => {
    c.set('deps', deps)
    await next()
  })
  // operations whose schema allows a longer JSON body than the default (an article's text, a code
  // import), read from the app's own contract once every route is registered (lib/body-limits.ts)
  let longBodies: BodyLimit[] | null = null
  const jsonLimitOf = (method: string, path: string) => {
    longBodies ??= bodyLimitsOf(
      app.getOpenAPI31Document({ openapi: '3.1.0', info: { title: 'limits', version: '1' } }) as never,
      deps.config.maxJsonBytes,
      LONGEST_JSON_BYTES,
    )
    return (
      longBodies.find((l) => l.method === method && l.pattern.test(path))?.bytes ?? deps.config.maxJsonBytes
    )
  }
  app.use('/api/*', async (c, next) => {
    const multipart = c.req.header('content-type')?.startsWith('multipart/form-data')
    const limit = bodyLimit({
      maxSize: multipart ? deps.config.maxUploadBytes : jsonLimitOf(c.req.method, c.req.path),
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
  registerTelegram(app)

  app.notFound((c) => {
    // a path the API has, asked with a method it does not declare: 405 naming the methods it does
    // (a route of this method that found nothing, e.g. an unknown media name, is a 404 as usual)
    const allow = allowedMethods(app as never, c.req.path)
    if (allow && !allow.includes(c.req.method.toUpperCase())) {
      c.header('Allow', allow.join(', '))
      return c.json({ detail: message('method_not_allowed'), code: 'method_not_allowed' }, 405)
    }
    return c.json({ detail: message('route_not_found', { path: c.req.path }), code: 'not_found' }, 404)
  })
  app.onError((err, c) => errorResponse(c, err))
  return app
}
