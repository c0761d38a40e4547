import { createHash } from 'node:crypto'
import { createRoute, z } from '@hono/zod-openapi'
import { stringify } from 'yaml'
import type { ApiApp } from '../context'
import { errorResponses, jsonContent } from '../lib/schemas'
import { SHOP_VERSION } from '../lib/version'
import { withConventions } from '../lib/openapi-conventions'
import { databaseAnswers } from '../services/health'
import { getShopSettings } from '../services/shop/settings'
import { message } from '../lib/errors'

const OPENAPI_INFO = {
  ru: {
    title: 'API магазина игровых пополнений',
    description: 'Контракт витрины: каталог, заказы, оплата, аккаунты.',
  },
  en: {
    title: 'Game top-up shop API',
    description: 'The storefront contract: catalogue, orders, payments, accounts.',
  },
} as const

/** The document's title once the owner has named the shop (issue 37): the contract names it too. */
const NAMED_TITLE = {
  ru: (name: string) => `API магазина «${name}»`,
  en: (name: string) => `${name}: shop API`,
} as const

/** Documents kept per format, language and shop name; a rename rarely happens, so a few suffice. */
const MAX_BUILT_DOCUMENTS = 16

/** The health check answers within 2 s: this much for the database, the rest for the trip. */
const HEALTH_DB_BUDGET_MS = 1500

const health = createRoute({
  method: 'get',
  path: '/api/health/',
  tags: ['system'],
  summary: 'Readiness for load balancers: 503 while the database is unreachable or the process drains',
  description:
    'Public and never cached. 200 with the release while the database answers within 1.5 s; 503 otherwise, and from the moment the process starts to drain.',
  responses: {
    200: jsonContent(
      z.object({
        status: z.literal('ok'),
        version: z.string().openapi({ description: 'the release running (package.json)', example: '0.2.0' }),
      }),
    ),
    503: jsonContent(
      z.object({ status: z.literal('unavailable') }),
      'Database unreachable (no answer within 1.5 s) or shutting down',
    ),
  },
})

/**
 * The document describes itself (a client generated from it can fetch it too). Only described: the
 * handler below answers with a cached body, an ETag and 304s, which a typed handler cannot.
 */
const schemaDocument = createRoute({
  method: 'get',
  path: '/api/docs/schema/',
  tags: ['system'],
  summary: 'This OpenAPI 3.1 document (ETag; If-None-Match answers 304)',
  description:
    'Public. The answer is built once per process and language; send the ETag back in If-None-Match to get 304. `format=yaml` answers YAML.',
  request: {
    query: z.object({
      format: z
        .enum(['json', 'yaml'])
        .optional()
        .openapi({ param: { name: 'format', in: 'query' }, description: 'json (default) or yaml' }),
      lang: z
        .enum(['ru', 'en'])
        .optional()
        .openapi({
          param: { name: 'lang', in: 'query' },
          description: 'language of the title: ru (default) or en',
        }),
    }),
  },
  responses: {
    200: {
      description: 'The OpenAPI document',
      content: {
        'application/json': { schema: z.record(z.string(), z.unknown()) },
        // the same document, written as YAML
        'application/yaml': { schema: z.record(z.string(), z.unknown()) },
      },
    },
    304: { description: 'Not modified (the If-None-Match ETag is current)' },
    ...errorResponses(400),
  },
})

export function registerSystem(app: ApiApp) {
  app.openAPIRegistry.registerPath(schemaDocument)

  app.openapi(health, async (c) => {
    c.header('cache-control', 'no-store')
    // A balancer must get an answer even from a database that does not answer at all.
    const probe = databaseAnswers(c.var.deps.db)
    const timeout = new Promise<false>((resolve) => setTimeout(resolve, HEALTH_DB_BUDGET_MS, false).unref())
    if (await Promise.race([probe, timeout]))
      return c.json({ status: 'ok' as const, version: SHOP_VERSION }, 200)
    return c.json({ status: 'unavailable' as const }, 503)
  })

  // The document is built once per process, format, language and shop name (building the YAML took
  // ~75 ms of CPU: 100 parallel requests slowed everything else, issue 20 item 8) and served with an
  // ETag. The title names the owner's shop once it is saved; until then (and the demo) it is generic.
  const built = new Map<string, { body: string; etag: string; type: string }>()
  const documentFor = (format: 'json' | 'yaml', lang: 'ru' | 'en', shopName: string | null) => {
    const key = `${format}:${lang}:${shopName ?? ''}`
    let entry = built.get(key)
    if (!entry) {
      const info = OPENAPI_INFO[lang]
      const doc = withConventions(
        app.getOpenAPI31Document({
          openapi: '3.1.0',
          info: {
            version: '1.0.0',
            ...info,
            title: shopName ? NAMED_TITLE[lang](shopName) : info.title,
          },
        }),
      )
      const body = format === 'yaml' ? stringify(doc) : JSON.stringify(doc)
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
      const type = format === 'yaml' ? 'application/yaml; charset=utf-8' : 'application/json; charset=utf-8'
      entry = { body, etag, type }
      if (built.size >= MAX_BUILT_DOCUMENTS) built.clear()
      built.set(key, entry)
    }
    return entry
  }
  /** The saved shop name, or null (not saved, or no database: `npm run gen:api` pulls without one). */
  const savedShopName = async (deps: {
    db: Parameters<typeof getShopSettings>[0]
    config: { demo: boolean }
  }) => {
    try {
      const shop = await getShopSettings(deps.db, deps.config)
      return shop.saved ? shop.name : null
    } catch {
      return null
    }
  }

  app.get('/api/docs/schema/', async (c) => {
    const format = c.req.query('format') ?? 'json'
    const lang = c.req.query('lang') ?? 'ru'
    if (format !== 'json' && format !== 'yaml') {
      return c.json({ detail: message('field_contract_format'), code: 'validation_error' }, 400)
    }
    if (lang !== 'ru' && lang !== 'en') {
      return c.json({ detail: message('field_contract_lang'), code: 'validation_error' }, 400)
    }
    const doc = documentFor(format, lang, await savedShopName(c.var.deps))
    const headers = { etag: doc.etag, 'cache-control': 'public, max-age=300' }
    const match = c.req.header('if-none-match')
    if (match?.split(',').some((t) => t.trim().replace(/^W\//, '') === doc.etag))
      return c.body(null, 304, headers)
    return c.body(doc.body, 200, { ...headers, 'content-type': doc.type })
  })
}
