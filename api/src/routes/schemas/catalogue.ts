import { z } from '@hono/zod-openapi'
import { MoneySchema } from '../../lib/schemas'

// Wire shapes of the catalogue (§3). Every variant carries its `resourcetype` discriminator.

const productBase = {
  id: z.number().int(),
  game: z.number().int().openapi({ description: 'Id of the game the product belongs to' }),
  title: z.string(),
  price: MoneySchema,
  picture: z.string(),
  min_quantity: z.number().int(),
  max_quantity: z.number().int(),
  is_active: z.boolean(),
  discount_price: MoneySchema.nullable().openapi({ description: 'Discounted unit price; null when none' }),
  discount_percent: z.number().int(),
}

export const PUBGProductSchema = z
  .object({
    resourcetype: z.literal('PUBGProduct'),
    ...productBase,
    amount_uc: z.number().int(),
    in_stock: z.boolean().optional().openapi({
      description:
        'Extension: false while fewer than min_quantity codes are free (sold or held for payments); such a product cannot be ordered until stock returns',
    }),
    stock_left: z.number().int().min(0).optional().openapi({
      description:
        'Extension (issue 50): the free codes, present only when few are left (5 or fewer); absent when more are free',
    }),
  })
  .openapi('PUBGProduct')
export const StandoffProductSchema = z
  .object({ resourcetype: z.literal('StandoffProduct'), ...productBase, gold: z.number().int() })
  .openapi('StandoffProduct')
export const SteamProductSchema = z
  .object({ resourcetype: z.literal('SteamProduct'), ...productBase })
  .openapi('SteamProduct')
export const SupplyProductSchema = z
  .object({ resourcetype: z.literal('SupplyProduct'), ...productBase })
  .openapi('SupplyProduct')

export const ProductSchema = z
  .discriminatedUnion('resourcetype', [
    PUBGProductSchema,
    StandoffProductSchema,
    SteamProductSchema,
    SupplyProductSchema,
  ])
  .openapi('Product')

export const SupplyServerSchema = z.object({ id: z.number().int(), name: z.string() }).openapi('SupplyServer')

const gameBase = {
  id: z.number().int(),
  title: z.string(),
  detail_title: z.string(),
  detail_description: z.string(),
  logo: z.string(),
  created: z.string().openapi({ format: 'date-time' }),
  is_auth_required: z.boolean(),
  discount_percent: z.number().int(),
  is_active: z.boolean(),
  product_preview_name: z.string(),
  product_preview_icon: z.string(),
  tags: z.array(z.string()),
  delivery_minutes: z.number().int().nullable().optional().openapi({
    description:
      'Our extension: a person delivers this game’s orders, usually within this many minutes; null: at once',
  }),
}

/** Our extension: whether POST /api/games/{id}/check_player/ can look a player up for this game. */
const playerCheck = {
  player_check: z.boolean().openapi({
    description:
      'Our extension: true when POST /api/games/{id}/check_player/ can look up the player id typed for this game',
  }),
}

export const PUBGGameSchema = z
  .object({ resourcetype: z.literal('PUBGGame'), ...gameBase, products: z.array(PUBGProductSchema) })
  .openapi('PUBGGame')
export const StandoffGameSchema = z
  .object({
    resourcetype: z.literal('StandoffGame'),
    ...gameBase,
    ...playerCheck,
    products: z.array(StandoffProductSchema),
  })
  .openapi('StandoffGame')
export const SteamGameSchema = z
  .object({
    resourcetype: z.literal('Steam'),
    ...gameBase,
    ...playerCheck,
    products: z.array(SteamProductSchema),
  })
  .openapi('SteamGame')
export const SupplyGameSchema = z
  .object({
    resourcetype: z.literal('SupplyGame'),
    ...gameBase,
    ...playerCheck,
    products: z.array(SupplyProductSchema),
    servers: z.array(SupplyServerSchema),
    is_server_needed: z.boolean(),
    is_server_enum: z.boolean(),
  })
  .openapi('SupplyGame')

export const GameSchema = z
  .discriminatedUnion('resourcetype', [PUBGGameSchema, StandoffGameSchema, SteamGameSchema, SupplyGameSchema])
  .openapi('Game')
