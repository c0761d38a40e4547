import { createRoute } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { limitOffsetPage } from '../lib/pagination'
import { shareAnswer } from '../lib/shared-answer'
import { errorResponses, IdParam, jsonContent } from '../lib/schemas'
import { getActiveGift, type GiftList, listGifts, serializeGiftDetail } from '../services/gifts/catalogue'
import { GiftDetailSchema, GiftListQuery, GiftPageSchema } from './schemas/gifts'
import { registerRokkyOrders } from './orders-rokky'

const LISTS: Array<{ list: GiftList; path: string; summary: string }> = [
  { list: 'all', path: '/api/gifts/', summary: 'Active gifts' },
  { list: 'new', path: '/api/gifts/new/', summary: 'New gifts (is_new)' },
  { list: 'discounted', path: '/api/gifts/discounted/', summary: 'Gifts with a discount price' },
]

const detail = createRoute({
  method: 'get',
  path: '/api/gifts/{id}/',
  tags: ['gifts'],
  summary: 'One active gift with description, tags and created',
  description: 'Public; carries `in_stock`. A hidden or unknown gift answers 404.',
  request: { params: IdParam },
  responses: { 200: jsonContent(GiftDetailSchema), ...errorResponses(400, 404) },
})

export function registerGifts(app: ApiApp) {
  // The named lists come before /{id}/ so `new` and `discounted` are never read as ids.
  for (const { list, path, summary } of LISTS) {
    const route = createRoute({
      method: 'get',
      path,
      tags: ['gifts'],
      summary,
      description:
        'Paged by limit/offset. `search` matches title, type, region and tags; each gift carries `in_stock`.',
      request: { query: GiftListQuery },
      responses: { 200: jsonContent(GiftPageSchema), ...errorResponses(400) },
    })
    app.openapi(route, async (c) => {
      const params = c.req.valid('query')
      const page = await listGifts(c.var.deps.db, list, params)
      shareAnswer(c)
      return c.json(limitOffsetPage(c.req.url, page.count, page.limit, page.offset, page.results), 200)
    })
  }

  app.openapi(detail, async (c) => {
    const { id } = c.req.valid('param')
    const { gift, inStock } = await getActiveGift(c.var.deps.db, id)
    shareAnswer(c)
    return c.json(serializeGiftDetail(gift, inStock), 200)
  })

  registerRokkyOrders(app)
}
