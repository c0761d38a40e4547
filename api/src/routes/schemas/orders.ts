import { z } from '@hono/zod-openapi'
import { MAX_DB_INT, MoneySchema, wholeNumber } from '../../lib/schemas'
import { ORDER_STATUSES } from '../../services/orders/history'
import { ConsentIn } from './consent'
import { ReceiptSchema } from './receipts'
import { RefundSchema } from './refunds'
import { message } from '../../lib/errors'

// ------------------------------------------------------------------ request bodies
// Every message is Russian, from locales/ru/api.json (its field_* keys): the first one becomes the
// error `detail` the storefront shows.

const int = () =>
  z
    .number({ error: message('field_integer') })
    .int(message('field_integer'))
    .max(2_147_483_647, message('field_number_too_large'))

export const QuantitySchema = int().min(0, message('field_not_negative'))
export const ProductIdSchema = int().min(1, message('field_product_id'))

export const MAX_ORDER_LINES = 50

const linesOf = <T extends z.ZodTypeAny>(line: T) =>
  z
    .array(line, { error: message('field_product_list') })
    .max(MAX_ORDER_LINES, message('field_lines_max', { max: MAX_ORDER_LINES }))

/** Creation lines: `{quantity, product_id}`. Lines with quantity 0 are dropped. */
export const CreateLineSchema = z
  .object({ quantity: QuantitySchema, product_id: ProductIdSchema }, { error: message('field_object') })
  .openapi('OrderLineIn')
/** Update lines: `{id: product id, quantity}` (§7). */
export const UpdateLineSchema = z
  .object(
    { id: int().min(1, message('field_product_id')), quantity: QuantitySchema },
    {
      error: message('field_object'),
    },
  )
  .openapi('OrderLineUpdate')

/** A JSON request body: a non-object body gets a Russian message too. */
const body = <T extends z.ZodRawShape>(shape: T) => z.object(shape, { error: message('field_json_object') })

const text = (max = 128) =>
  z
    .string({ error: message('field_string') })
    .trim()
    .max(max, message('field_max_chars', { max }))

/** Optional email; empty means "not given". Its format is checked by the order service. */
const EmailIn = text(254)
  .nullish()
  .openapi({ description: 'Required for guests; signed-in users default to their account email' })

/** The longest text of a number the order forms take ("0.07", "500.00"; room for zeros). */
const NUMBER_TEXT_MAX = 16

/** "0.07" or 0.07: 0.00–0.23 in steps of 0.01. Checked by the order service. */
export const SurplusIn = z
  .union([z.string().max(NUMBER_TEXT_MAX), z.number()], { error: message('field_surplus') })
  .openapi({
    example: '0.07',
    description: '0.00–0.23 in steps of 0.01 (string or number)',
  })

/** Steam amount in roubles: "500.00" or 500. */
export const AmountIn = z
  .union([z.string().max(NUMBER_TEXT_MAX), z.number()], { error: message('field_amount') })
  .openapi({
    example: '500.00',
    description: 'Roubles, at most 2 decimals (string or number)',
  })

const ServerIdIn = wholeNumber({ max: MAX_DB_INT, message: message('field_server_id') })
  .nullish()
  .openapi({ description: "Server id from the game's `servers` (when is_server_enum)" })

export const PubgCreateBody = body({
  products: linesOf(CreateLineSchema),
  email: EmailIn,
  personal_data_consent: ConsentIn,
}).openapi('PubgOrderCreate')

export const StandoffCreateBody = body({
  products: linesOf(CreateLineSchema),
  email: EmailIn,
  game_account_id: text(64).nullish(),
  surplus: SurplusIn.nullish(),
  personal_data_consent: ConsentIn,
}).openapi('StandoffOrderCreate')

export const SteamCreateBody = body({
  amount: AmountIn,
  steam_account_id: text().nullish(),
  email: EmailIn,
  game: int().min(1, message('field_game_id')).nullish().openapi({
    description: 'Steam game id; optional: without it the first active Steam game of the catalogue',
  }),
  personal_data_consent: ConsentIn,
}).openapi('SteamOrderCreate')

export const SupplyCreateBody = body({
  products: linesOf(CreateLineSchema),
  email: EmailIn,
  supply_channel_user_id: text(64).nullish(),
  supply_channel_server: ServerIdIn,
  supply_channel_server_custom_id: text(64).nullish(),
  personal_data_consent: ConsentIn,
}).openapi('SupplyOrderCreate')

export const LinesUpdateBody = body({ products: linesOf(UpdateLineSchema) }).openapi('OrderProductsUpdate')
export const SteamUpdateBody = body({ amount: AmountIn }).openapi('SteamOrderUpdate')

export const PubgDeliveryBody = body({ email: EmailIn }).openapi('PubgDeliveryUpdate')
export const StandoffDeliveryBody = body({ email: EmailIn, game_account_id: text(64).nullish() }).openapi(
  'StandoffDeliveryUpdate',
)
export const SteamDeliveryBody = body({ email: EmailIn, steam_account_id: text().nullish() }).openapi(
  'SteamDeliveryUpdate',
)
export const SupplyDeliveryBody = body({
  email: EmailIn,
  moogold_user_id: text(64).nullish(),
  moogold_server: ServerIdIn,
  moogold_server_custom_id: text(64).nullish(),
}).openapi('SupplyDeliveryUpdate')

export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .openapi({
      param: { name: 'idempotency-key', in: 'header' },
      description: 'Same key and body → the same order (200); same key, other body → 409',
    }),
})

// ------------------------------------------------------------------ responses

export const CreatedLineSchema = z
  .object({
    quantity: z.number().int(),
    product: z.number().int().openapi({ description: 'Product id' }),
    id: z.number().int().openapi({ description: 'Order line id' }),
  })
  .openapi('OrderCreatedLine')

/** Our extension: the order's short number people read out («№ 10234»); the id stays in URLs. */
export const OrderNumber = z.number().int().optional().openapi({
  example: 10234,
  description: 'Our extension: the short order number, unique in the shop, for people (the id stays in URLs)',
})

export const OrderCreatedSchema = z
  .object({ id: z.uuid(), number: OrderNumber, total: MoneySchema, products: z.array(CreatedLineSchema) })
  .openapi('OrderCreated')
export const StandoffOrderCreatedSchema = z
  .object({
    id: z.uuid(),
    number: OrderNumber,
    game_account_id: z.string(),
    game_avatar: z.string().nullable(),
    total: MoneySchema,
  })
  .openapi('StandoffOrderCreated')
export const SteamOrderCreatedSchema = z
  .object({ id: z.uuid(), number: OrderNumber, total: MoneySchema })
  .openapi('SteamOrderCreated')

export const OrderGameSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    logo: z.string(),
    resourcetype: z.enum(['PUBGGame', 'StandoffGame', 'Steam', 'SupplyGame']),
  })
  .openapi('OrderGame')
export const OrderGiftSchema = z
  .object({ id: z.number().int(), title: z.string(), logo: z.string() })
  .openapi('OrderGift')

export const DeliveredCodeSchema = z
  .object({ code: z.string(), amount_uc: z.number().int() })
  .openapi('DeliveredCode')

export const OrderLineSchema = z
  .object({
    id: z.number().int().openapi({ description: 'Order line id' }),
    product: z.number().int().openapi({ description: 'Product id' }),
    resourcetype: z.enum(['PUBGProduct', 'StandoffProduct', 'SteamProduct', 'SupplyProduct']),
    title: z.string(),
    picture: z.string(),
    quantity: z.number().int(),
    price: MoneySchema.openapi({ description: 'Unit price charged' }),
    total: MoneySchema.openapi({ description: 'quantity × price' }),
    amount_uc: z.number().int().nullable(),
    gold: z.number().int().nullable(),
    codes: z.array(DeliveredCodeSchema).openapi({
      description: 'PUBG lines: the voucher codes delivered for this line (empty until delivered)',
    }),
  })
  .openapi('OrderLine')

const ORDER_KIND = z.enum(['PUBGOrder', 'StandoffOrder', 'SteamOrder', 'MooGoldOrder', 'RokkyOrder'])

/** Our extension: a paid order waiting for a person shows the game's promised time («обычно до N мин»). */
const AwaitingMinutes = z.number().int().nullable().optional().openapi({
  description:
    'Our extension: set while a paid order waits for a person to deliver it, the minutes usually needed',
})

/** GET /api/orders/{id}/ and the update calls: the order recalculated from current state. */
export const RecalculatedOrderSchema = z
  .object({
    id: z.uuid(),
    number: OrderNumber,
    resourcetype: ORDER_KIND,
    status: z.enum(ORDER_STATUSES),
    created: z.string().openapi({ format: 'date-time' }),
    email: z.string().nullable(),
    game: OrderGameSchema.nullable(),
    gift: OrderGiftSchema.nullable(),
    products: z.array(OrderLineSchema),
    total: MoneySchema.openapi({ description: 'Same as total_without_promocode' }),
    total_without_promocode: MoneySchema,
    total_with_promocode: MoneySchema,
    promo_percent: z.number().int().nullable(),
    balance_used: MoneySchema,
    total_to_pay: MoneySchema,
    is_payment_active: z.boolean(),
    reject_reason: z.string().nullable(),
    game_avatar: z.string().nullable(),
    game_account_id: z.string().nullable(),
    surplus: z.string().nullable().openapi({ example: '0.07' }),
    listing_price: z.string().nullable().optional().openapi({
      example: '105.27',
      description: 'Our extension, StandoffOrder: the gold price to list the skin at, fixed by the server',
    }),
    skin_listed: z
      .boolean()
      .optional()
      .openapi({ description: 'Our extension, StandoffOrder: the buyer pressed «Я выставил скин»' }),
    steam_account_id: z.string().nullable(),
    amount: MoneySchema.nullable().openapi({ description: 'SteamOrder: top-up amount' }),
    commission: MoneySchema.nullable().openapi({ description: 'SteamOrder: commission added' }),
    moogold_user_id: z.string().nullable(),
    moogold_server: z.number().int().nullable(),
    moogold_server_custom_id: z.string().nullable(),
    player_nickname: z.string().nullable().openapi({
      description: 'Our extension: the nickname the player check answered for the id (null: not checked)',
    }),
    code: z
      .string()
      .nullable()
      .openapi({ description: 'RokkyOrder: the delivered gift code; null until delivered' }),
    refund: RefundSchema.nullable().optional(),
    receipts: z.array(ReceiptSchema).optional().openapi({
      description: 'Our extension, only when there is one: the fiscal receipts of the order',
    }),
    awaiting_delivery_minutes: AwaitingMinutes,
    on_review: z.boolean().optional().openapi({
      description:
        'Our extension, only when true: paid but held for review (issue 34); no code until staff approve it',
    }),
  })
  .openapi('RecalculatedOrder')

// Order history (§3): common fields plus each variant's own.
export const HistoryLineSchema = z
  .object({
    id: z.number().int(),
    product: z.number().int(),
    title: z.string(),
    picture: z.string(),
    quantity: z.number().int(),
    price: MoneySchema,
  })
  .openapi('HistoryLine')
export const PubgHistoryLineSchema = HistoryLineSchema.extend({
  codes: z.array(DeliveredCodeSchema),
}).openapi('PubgHistoryLine')

const historyBase = {
  awaiting_delivery_minutes: AwaitingMinutes,
  id: z.uuid(),
  number: OrderNumber,
  status: z.enum(ORDER_STATUSES),
  created: z.string().openapi({ format: 'date-time' }),
  total: MoneySchema,
  total_to_pay: MoneySchema,
  reject_reason: z.string().nullable(),
  is_payment_active: z.boolean(),
  email: z.string().nullable(),
  game: OrderGameSchema.nullable(),
  receipts: z.array(ReceiptSchema).optional().openapi({
    description: 'Our extension, only when there is one: the fiscal receipts of the order (54-ФЗ)',
  }),
}

export const MooGoldOrderSchema = z
  .object({
    resourcetype: z.literal('MooGoldOrder'),
    ...historyBase,
    moogold_user_id: z.string().nullable(),
    moogold_server: z.number().int().nullable(),
    moogold_server_custom_id: z.string().nullable(),
    player_nickname: z.string().nullable().openapi({
      description: 'Our extension: the nickname the player check answered for the id (null: not checked)',
    }),
    order_products: z.array(HistoryLineSchema),
  })
  .openapi('MooGoldOrder')
export const PUBGOrderSchema = z
  .object({
    resourcetype: z.literal('PUBGOrder'),
    ...historyBase,
    order_products: z.array(PubgHistoryLineSchema),
  })
  .openapi('PUBGOrder')
export const RokkyOrderSchema = z
  .object({
    resourcetype: z.literal('RokkyOrder'),
    ...historyBase,
    code: z.string().nullable(),
    gift: OrderGiftSchema.nullable(),
  })
  .openapi('RokkyOrder')
export const StandoffOrderSchema = z
  .object({
    resourcetype: z.literal('StandoffOrder'),
    ...historyBase,
    game_account_id: z.string().nullable(),
    game_avatar: z.string().nullable(),
    surplus: z.string().nullable(),
    listing_price: z.string().nullable().optional().openapi({
      example: '105.27',
      description: 'Our extension, StandoffOrder: the gold price to list the skin at, fixed by the server',
    }),
    skin_listed: z
      .boolean()
      .optional()
      .openapi({ description: 'Our extension, StandoffOrder: the buyer pressed «Я выставил скин»' }),
    player_nickname: z.string().nullable().openapi({
      description: 'Our extension: the nickname the player check answered for the id (null: not checked)',
    }),
    order_products: z.array(HistoryLineSchema),
  })
  .openapi('StandoffOrder')
export const SteamOrderSchema = z
  .object({
    resourcetype: z.literal('SteamOrder'),
    ...historyBase,
    steam_account_id: z.string().nullable(),
    amount: MoneySchema.nullable(),
    player_nickname: z.string().nullable().openapi({
      description: 'Our extension: the nickname the player check answered for the id (null: not checked)',
    }),
  })
  .openapi('SteamOrder')

export const OrderHistorySchema = z
  .discriminatedUnion('resourcetype', [
    MooGoldOrderSchema,
    PUBGOrderSchema,
    RokkyOrderSchema,
    StandoffOrderSchema,
    SteamOrderSchema,
  ])
  .openapi('OrderHistoryItem')

// ------------------------------------------------------------------ helpers' responses

export const StandoffSettingsSchema = z
  .object({
    id: z.number().int(),
    need_refund: z.boolean(),
    is_surplus_enabled: z.boolean(),
    skin_name: z.string(),
    skin_picture: z.string(),
    market_fee: z.string().openapi({ example: '5.00', description: 'Percent' }),
  })
  .openapi('StandoffSettings')
export const SteamSettingsSchema = z
  .object({
    id: z.number().int(),
    commission: z.string().openapi({ example: '8.00', description: 'Percent' }),
    min_amount: MoneySchema,
    max_amount: MoneySchema,
  })
  .openapi('SteamSettings')

export const StandoffLastOrderSchema = z
  .object({
    game_account_id: z.string().nullable(),
    game_avatar: z.string().nullable(),
    email: z.string().nullable(),
  })
  .openapi('StandoffLastOrderData')
export const SteamLastOrderSchema = z
  .object({ steam_account_id: z.string().nullable(), email: z.string().nullable() })
  .openapi('SteamLastOrderData')
export const SupplyLastOrderSchema = z
  .object({
    moogold_user_id: z.string().nullable(),
    moogold_server: z.number().int().nullable(),
    moogold_server_custom_id: z.string().nullable(),
    email: z.string().nullable(),
  })
  .openapi('SupplyLastOrderData')
