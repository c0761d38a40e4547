import { OpenAPIHono } from '@hono/zod-openapi'
import { bodyLimit } from 'hono/body-limit'
import type { ApiApp, ApiDeps, AppEnv } from './context'
import { bearerAuth } from './lib/auth'
import { errorResponse, message } from './lib/errors'
import { validationHook } from './lib/validation'
import { registerAuth } from './routes/auth'
import { registerCatalogue } from './routes/catalogue'
import { registerContent } from './routes/content'
import { registerGifts } from './routes/gifts'
import { registerOrders } from './routes/orders'
import { registerPayments } from './routes/payments'
import { registerPromo } from './routes/promo'
import { registerSocial } from './routes/social'
import { registerSystem } from './routes/system'

/** Builds the shop API. Every path carries the full `/api/...` prefix, as in the contract. */
export function createApi(deps: ApiDeps): ApiApp {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook })

  app.use('*', async (c, next) => {
    c.set('deps', deps)
    await next()
  })
  app.use('/api/*', async (c, next) => {
    const multipart = c.req.header('content-type')?.startsWith('multipart/form-data')
    const limit = bodyLimit({
      maxSize: multipart ? deps.config.maxUploadBytes : deps.config.maxJsonBytes,
      onError: (cx) => cx.json({ detail: message('body_too_large'), code: 'body_too_large' }, 413),
    })
    return limit(c, next)
  })
  app.use('/api/*', bearerAuth)

  registerSystem(app)
  registerContent(app)
  registerCatalogue(app)
  registerGifts(app)
  registerOrders(app)
  registerPayments(app)
  registerPromo(app)
  registerAuth(app)
  registerSocial(app)

  app.notFound((c) =>
    c.json({ detail: message('route_not_found', { path: c.req.path }), code: 'not_found' }, 404),
  )
  app.onError((err, c) => errorResponse(c, err))
  return app
}
