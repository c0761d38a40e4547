import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { cachedReadWithTime } from '../lib/read-cache'
import { shareAnswer } from '../lib/shared-answer'
import { fail, message } from '../lib/errors'
import {
  DEFAULT_LIMIT,
  limitOffsetPage,
  limitOffsetQuery,
  pageNumberPage,
  pageQuery,
  pageSchema,
} from '../lib/pagination'
import { errorResponses, IdParam, jsonContent, wholeNumber } from '../lib/schemas'
import { getGame, getProduct, listGames, listProducts } from '../services/catalogue/queries'
import { GameSchema, ProductSchema } from './schemas/catalogue'

const text = (name: string) =>
  z
    .string()
    .trim()
    .max(100, message('field_max_chars', { max: 100 }))
    .optional()
    .openapi({ param: { name, in: 'query' } })

const listGamesRoute = createRoute({
  method: 'get',
  path: '/api/games/',
  tags: ['catalogue'],
  summary: 'Active games with their active products, paged by limit/offset',
  description:
    '`search` matches the title or detail title, `title__icontains` the title only (both case-insensitive).',
  request: {
    query: limitOffsetQuery.extend({ search: text('search'), title__icontains: text('title__icontains') }),
  },
  responses: { 200: jsonContent(pageSchema(GameSchema).openapi('GamePage')), ...errorResponses(400) },
})

const getGameRoute = createRoute({
  method: 'get',
  path: '/api/games/{id}/',
  tags: ['catalogue'],
  summary: 'One active game with its active products (and servers for a SupplyGame)',
  description:
    'Public; read through the catalogue cache, so a change shows within the catalogue cache time. A hidden or unknown game answers 404.',
  request: { params: IdParam },
  responses: { 200: jsonContent(GameSchema), ...errorResponses(400, 404) },
})

const listProductsRoute = createRoute({
  method: 'get',
  path: '/api/products/',
  tags: ['catalogue'],
  summary: 'Active products of active games, paged by page/page_size or by limit/offset',
  description:
    'With `page` or `page_size` the list is paged by number (page_size 20 by default) and `next`/`previous` are page links; otherwise by `limit`/`offset`.',
  request: {
    query: limitOffsetQuery.merge(pageQuery).extend({
      game: wholeNumber({ message: message('field_number') })
        .optional()
        .openapi({ param: { name: 'game', in: 'query' }, description: 'Only this game' }),
    }),
  },
  responses: { 200: jsonContent(pageSchema(ProductSchema).openapi('ProductPage')), ...errorResponses(400) },
})

const getProductRoute = createRoute({
  method: 'get',
  path: '/api/products/{id}/',
  tags: ['catalogue'],
  summary: 'One active product of an active game',
  description: 'Public. A hidden product, or one of a hidden game, answers 404.',
  request: { params: IdParam },
  responses: { 200: jsonContent(ProductSchema), ...errorResponses(400, 404) },
})

export function registerCatalogue(app: ApiApp) {
  app.openapi(listGamesRoute, async (c) => {
    const q = c.req.valid('query')
    const limit = q.limit ?? DEFAULT_LIMIT
    const offset = q.offset ?? 0
    const { count, results } = await listGames(c.var.deps.db, {
      limit,
      offset,
      search: q.search || undefined,
      titleContains: q.title__icontains || undefined,
      playerCheck: c.var.deps.config.playerCheck,
    })
    shareAnswer(c)
    return c.json(limitOffsetPage(c.req.url, count, limit, offset, results), 200)
  })

  app.openapi(getGameRoute, async (c) => {
    const id = c.req.valid('param').id
    const { value: game, readAt } = await cachedReadWithTime(c.var.deps, `game:${id}`, () =>
      getGame(c.var.deps.db, id, c.var.deps.config.playerCheck),
    )
    if (!game) throw fail(404, 'game_not_found')
    shareAnswer(c, readAt)
    return c.json(game, 200)
  })

  app.openapi(listProductsRoute, async (c) => {
    const q = c.req.valid('query')
    if (q.page !== undefined || q.page_size !== undefined) {
      const page = q.page ?? 1
      const size = q.page_size ?? DEFAULT_LIMIT
      const { count, results } = await listProducts(c.var.deps.db, {
        limit: size,
        offset: (page - 1) * size,
        gameId: q.game,
      })
      shareAnswer(c)
      return c.json(pageNumberPage(c.req.url, count, page, size, results), 200)
    }
    const limit = q.limit ?? DEFAULT_LIMIT
    const offset = q.offset ?? 0
    const { count, results } = await listProducts(c.var.deps.db, { limit, offset, gameId: q.game })
    shareAnswer(c)
    return c.json(limitOffsetPage(c.req.url, count, limit, offset, results), 200)
  })

  app.openapi(getProductRoute, async (c) => {
    const product = await getProduct(c.var.deps.db, c.req.valid('param').id)
    if (!product) throw fail(404, 'product_not_found')
    shareAnswer(c)
    return c.json(product, 200)
  })
}
