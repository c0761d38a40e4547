// Back-office games: every game (inactive ones too), adding one, changing one. Who delivers a
// game's orders is part of it (decision 042).
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../../context'
import { IdParam } from '../../../lib/schemas'
import { createGame, GAME_KINDS, patchGame } from '../../../services/admin/catalogue/games'
import { adminGameOut, listAllGames } from '../../../services/admin/catalogue/views'
import { SUPPLIERS } from '../../../services/delivery/suppliers'
import { Int, jsonBody, Percent, Tags, Text, Title } from '../fields'
import { staffOf } from '../guard'
import { ownerRoute } from './owner-route'
import { message } from '../../../lib/errors'

const GameOut = z
  .object({
    id: z.number().int(),
    kind: z.enum(GAME_KINDS),
    title: z.string(),
    detail_title: z.string(),
    detail_description: z.string(),
    logo: z.string(),
    is_active: z.boolean(),
    is_auth_required: z.boolean(),
    discount_percent: z.number().int(),
    product_preview_name: z.string(),
    tags: z.array(z.string()),
    sort_order: z.number().int(),
    supplier: z.string(),
    delivery_minutes: z.number().int(),
    auto_refund_hours: z.number().int().nullable().openapi({
      description:
        'Manual delivery: hours after which an order nobody took is refunded by itself; null: DELIVERY_REFUND_HOURS, 0: never (decision 125)',
    }),
  })
  .openapi('AdminGame')
const GameFields = z.object({
  title: Title,
  detail_title: Text(200).optional(),
  detail_description: Text(20_000).optional(),
  logo: Text(500).optional(),
  is_active: z.boolean().optional(),
  is_auth_required: z.boolean().optional(),
  discount_percent: Percent.optional(),
  product_preview_name: Text(100).optional(),
  tags: Tags.optional(),
  sort_order: Int(-1000, 1000).optional(),
  // who delivers its orders (a person by default) and the time a buyer is promised (decision 042)
  supplier: z.enum(SUPPLIERS, message('field_fulfiller_choose')).optional(),
  delivery_minutes: Int(1, 10_080).optional(),
  auto_refund_hours: Int(0, 720).nullable().optional(),
})
const GameCreate = GameFields.extend({ kind: z.enum(GAME_KINDS, message('field_game_kind_choose')) }).openapi(
  'AdminGameCreate',
)
const GamePatch = GameFields.partial().openapi('AdminGamePatch')

const routes = {
  games: ownerRoute(
    { method: 'get', path: '/api/admin/games/', summary: 'Every game, inactive ones too' },
    z.array(GameOut),
  ),
  gameCreate: ownerRoute(
    { method: 'post', path: '/api/admin/games/', summary: 'Add a game', request: jsonBody(GameCreate) },
    GameOut,
  ),
  gamePatch: ownerRoute(
    {
      method: 'patch',
      path: '/api/admin/games/{id}/',
      summary: 'Change a game',
      request: { params: IdParam, ...jsonBody(GamePatch) },
    },
    GameOut,
  ),
}

/** The API's fields as the table's columns. */
const gameValues = (b: z.infer<typeof GamePatch>) => ({
  supplier: b.supplier,
  deliveryMinutes: b.delivery_minutes,
  autoRefundHours: b.auto_refund_hours,
  detailTitle: b.detail_title,
  detailDescription: b.detail_description,
  logo: b.logo,
  isActive: b.is_active,
  isAuthRequired: b.is_auth_required,
  discountPercent: b.discount_percent,
  productPreviewName: b.product_preview_name,
  tags: b.tags,
  sortOrder: b.sort_order,
  title: b.title,
})

export function registerAdminGames(app: ApiApp) {
  app.openapi(routes.games, async (c) => c.json((await listAllGames(c.var.deps.db)).map(adminGameOut), 200))

  app.openapi(routes.gameCreate, async (c) => {
    const b = c.req.valid('json')
    const { db, config } = c.var.deps
    const row = await createGame(db, staffOf(c), config, { ...gameValues(b), kind: b.kind, title: b.title })
    return c.json(adminGameOut(row), 200)
  })

  app.openapi(routes.gamePatch, async (c) => {
    const { db, config } = c.var.deps
    const row = await patchGame(
      db,
      staffOf(c),
      config,
      c.req.valid('param').id,
      gameValues(c.req.valid('json')),
    )
    return c.json(adminGameOut(row), 200)
  })
}
