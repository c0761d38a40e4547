import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { requireUser } from '../lib/auth'
import { DEFAULT_LIMIT, limitOffsetPage, limitOffsetQuery, pageSchema } from '../lib/pagination'
import { errorResponses, idParam, jsonContent } from '../lib/schemas'
import { SupplyServerSchema } from './schemas/catalogue'
import {
  latestOrder,
  standoffSettingsOut,
  steamSettingsOut,
  supplyServersPage,
} from '../services/orders/helpers'
import {
  StandoffLastOrderSchema,
  StandoffSettingsSchema,
  SteamLastOrderSchema,
  SteamSettingsSchema,
  SupplyLastOrderSchema,
} from './schemas/orders'

const GameIdParam = z.object({
  game_id: idParam('game_id'),
})

const LAST =
  "Signed-in users only (401 for guests): account data of the caller's latest order of this kind, null fields when there is none."

const standoffLast = createRoute({
  method: 'get',
  path: '/api/orders/standoff/last_order_data/',
  tags: ['orders'],
  summary: 'Account data of the latest Standoff order',
  description: LAST,
  responses: { 200: jsonContent(StandoffLastOrderSchema), ...errorResponses(401) },
})
const steamLast = createRoute({
  method: 'get',
  path: '/api/orders/steam/last_order_data/',
  tags: ['orders'],
  summary: 'Account data of the latest Steam order',
  description: LAST,
  responses: { 200: jsonContent(SteamLastOrderSchema), ...errorResponses(401) },
})
const supplyLast = createRoute({
  method: 'get',
  path: '/api/orders/supply_channel/last_order_data/{game_id}/',
  tags: ['orders'],
  summary: 'Account data of the latest supply-channel order of a game',
  description: LAST,
  request: { params: GameIdParam },
  responses: { 200: jsonContent(SupplyLastOrderSchema), ...errorResponses(400, 401) },
})
const standoffSettingsRoute = createRoute({
  method: 'get',
  path: '/api/orders/standoff/settings/',
  tags: ['orders'],
  summary: 'Standoff settings (market fee as a percent string)',
  description:
    'Public: what the Standoff order form needs (skin, market fee). 404 `settings_unavailable` until the settings row exists.',
  responses: { 200: jsonContent(StandoffSettingsSchema), ...errorResponses(404) },
})
const steamSettingsRoute = createRoute({
  method: 'get',
  path: '/api/orders/steam/settings/',
  tags: ['orders'],
  summary: 'Steam settings: commission as a percent string ("8.00") and the amount bounds',
  description:
    'Public: the bounds POST /api/orders/steam/ checks the amount against. 404 `settings_unavailable` until the settings row exists.',
  responses: { 200: jsonContent(SteamSettingsSchema), ...errorResponses(404) },
})
const serversRoute = createRoute({
  method: 'get',
  path: '/api/orders/supply_channel/servers/{game_id}/',
  tags: ['orders'],
  summary: 'Servers of an active SupplyGame, paged by limit/offset',
  description: 'Public. Any game that is not an active SupplyGame answers 404.',
  request: { params: GameIdParam, query: limitOffsetQuery },
  responses: {
    200: jsonContent(pageSchema(SupplyServerSchema).openapi('SupplyServerPage')),
    ...errorResponses(400, 404),
  },
})

export function registerOrderExtras(app: ApiApp) {
  app.openapi(standoffLast, async (c) => {
    const o = await latestOrder(c.var.deps.db, requireUser(c), 'StandoffOrder')
    return c.json(
      {
        game_account_id: o?.gameAccountId ?? null,
        game_avatar: o?.gameAvatar ?? null,
        email: o?.email ?? null,
      },
      200,
    )
  })

  app.openapi(steamLast, async (c) => {
    const o = await latestOrder(c.var.deps.db, requireUser(c), 'SteamOrder')
    return c.json({ steam_account_id: o?.steamAccountId ?? null, email: o?.email ?? null }, 200)
  })

  app.openapi(supplyLast, async (c) => {
    const userId = requireUser(c)
    const o = await latestOrder(c.var.deps.db, userId, 'MooGoldOrder', c.req.valid('param').game_id)
    return c.json(
      {
        moogold_user_id: o?.moogoldUserId ?? null,
        moogold_server: o?.moogoldServer ?? null,
        moogold_server_custom_id: o?.moogoldServerCustomId ?? null,
        email: o?.email ?? null,
      },
      200,
    )
  })

  app.openapi(standoffSettingsRoute, async (c) => c.json(await standoffSettingsOut(c.var.deps.db), 200))
  app.openapi(steamSettingsRoute, async (c) => c.json(await steamSettingsOut(c.var.deps.db), 200))

  app.openapi(serversRoute, async (c) => {
    const q = c.req.valid('query')
    const limit = q.limit ?? DEFAULT_LIMIT
    const offset = q.offset ?? 0
    const { count, results } = await supplyServersPage(
      c.var.deps.db,
      c.req.valid('param').game_id,
      limit,
      offset,
    )
    return c.json(limitOffsetPage(c.req.url, count, limit, offset, results), 200)
  })
}
