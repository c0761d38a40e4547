import { createRoute, z } from '@hono/zod-openapi'
import { sql } from 'drizzle-orm'
import { stringify } from 'yaml'
import type { ApiApp } from '../context'
import { jsonContent } from '../lib/schemas'

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

const health = createRoute({
  method: 'get',
  path: '/api/health/',
  tags: ['system'],
  summary: 'Liveness and database readiness for load balancers',
  responses: {
    200: jsonContent(z.object({ status: z.literal('ok') })),
    503: jsonContent(z.object({ status: z.literal('unavailable') }), 'Database unreachable'),
  },
})

export function registerSystem(app: ApiApp) {
  app.openapi(health, async (c) => {
    try {
      await c.var.deps.db.execute(sql`select 1`)
      return c.json({ status: 'ok' as const }, 200)
    } catch {
      return c.json({ status: 'unavailable' as const }, 503)
    }
  })

  // The document itself is not part of the contract it describes.
  app.get('/api/docs/schema/', (c) => {
    const format = c.req.query('format') ?? 'json'
    const lang = c.req.query('lang') ?? 'ru'
    if (format !== 'json' && format !== 'yaml') {
      return c.json({ detail: 'format: допустимо json или yaml', code: 'validation_error' }, 400)
    }
    if (lang !== 'ru' && lang !== 'en') {
      return c.json({ detail: 'lang: допустимо ru или en', code: 'validation_error' }, 400)
    }
    const doc = app.getOpenAPI31Document({
      openapi: '3.1.0',
      info: { version: '1.0.0', ...OPENAPI_INFO[lang] },
    })
    if (format === 'yaml')
      return c.body(stringify(doc), 200, { 'content-type': 'application/yaml; charset=utf-8' })
    return c.json(doc)
  })
}
