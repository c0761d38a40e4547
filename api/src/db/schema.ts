// One schema for PGlite and PostgreSQL. Money columns hold integer minor units (kopecks);
// percents are whole numbers; fees are basis points (1 % = 100).
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core'

const money = (name: string) => bigint(name, { mode: 'number' })
const created = () => timestamp('created', { withTimezone: true }).notNull().defaultNow()

export const GAME_KINDS = ['PUBGGame', 'StandoffGame', 'Steam', 'SupplyGame'] as const
export type GameKind = (typeof GAME_KINDS)[number]
export const PRODUCT_KINDS = ['PUBGProduct', 'StandoffProduct', 'SteamProduct', 'SupplyProduct'] as const
export type ProductKind = (typeof PRODUCT_KINDS)[number]
export const ORDER_KINDS = ['PUBGOrder', 'StandoffOrder', 'SteamOrder', 'MooGoldOrder', 'RokkyOrder'] as const
export type OrderKind = (typeof ORDER_KINDS)[number]
export const ORDER_STATUSES = [
  'created',
  'waiting_for_payment',
  'paid',
  'sending',
  'sent',
  'done',
  'failed',
] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

// ---------------------------------------------------------------- catalogue
export const games = pgTable('games', {
  id: serial('id').primaryKey(),
  kind: text('kind').$type<GameKind>().notNull(),
  title: text('title').notNull(),
  detailTitle: text('detail_title').notNull().default(''),
  detailDescription: text('detail_description').notNull().default(''),
  logo: text('logo').notNull().default(''),
  created: created(),
  isAuthRequired: boolean('is_auth_required').notNull().default(false),
  discountPercent: integer('discount_percent').notNull().default(0),
  isActive: boolean('is_active').notNull().default(true),
  productPreviewName: text('product_preview_name').notNull().default(''),
  productPreviewIcon: text('product_preview_icon').notNull().default(''),
  tags: jsonb('tags').$type<string[]>().notNull().default([]),
  // SupplyGame only
  isServerNeeded: boolean('is_server_needed').notNull().default(false),
  isServerEnum: boolean('is_server_enum').notNull().default(false),
  // which fulfilment adapter delivers this game's orders, and its id there
  supplier: text('supplier').notNull().default('sandbox'),
  supplierRef: text('supplier_ref'),
  sortOrder: integer('sort_order').notNull().default(0),
})

export const supplyServers = pgTable(
  'supply_servers',
  {
    id: serial('id').primaryKey(),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    code: text('code').notNull(),
  },
  (t) => [index('supply_servers_game_idx').on(t.gameId)],
)

export const products = pgTable(
  'products',
  {
    id: serial('id').primaryKey(),
    gameId: integer('game_id')
      .notNull()
      .references(() => games.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<ProductKind>().notNull(),
    title: text('title').notNull(),
    price: money('price').notNull(),
    picture: text('picture').notNull().default(''),
    minQuantity: integer('min_quantity').notNull().default(1),
    maxQuantity: integer('max_quantity').notNull().default(10),
    isActive: boolean('is_active').notNull().default(true),
    // discounted unit price; null when there is no discount
    discountPrice: money('discount_price'),
    discountPercent: integer('discount_percent').notNull().default(0),
    amountUc: integer('amount_uc'),
    gold: integer('gold'),
    supplierRef: text('supplier_ref'),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('products_game_idx').on(t.gameId)],
)

export const faq = pgTable('faq', {
  id: serial('id').primaryKey(),
  gameId: integer('game_id')
    .notNull()
    .references(() => games.id, { onDelete: 'cascade' }),
  text: text('text').notNull(),
  answer: text('answer').notNull(),
  order: integer('order').notNull().default(0),
})

export const gifts = pgTable('gifts', {
  id: serial('id').primaryKey(),
  title: text('title').notNull(),
  type: text('type').notNull(),
  price: money('price').notNull(),
  region: text('region').notNull(),
  cashback: integer('cashback').notNull().default(0),
  logo: text('logo').notNull().default(''),
  discountPrice: money('discount_price'),
  discountPercent: integer('discount_percent').notNull().default(0),
  description: text('description').notNull().default(''),
  tags: jsonb('tags').$type<string[]>().notNull().default([]),
  created: created(),
  isMain: boolean('is_main').notNull().default(false),
  isNew: boolean('is_new').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
})

// ---------------------------------------------------------------- content
export const articles = pgTable('articles', {
  slug: text('slug').primaryKey(),
  header: text('header').notNull(),
  text: text('text').notNull(),
})

export const contacts = pgTable('contacts', {
  id: serial('id').primaryKey(),
  companyName: text('company_name').notNull(),
  address: text('address').notNull(),
  inn: text('inn').notNull(),
  companyId: text('company_id').notNull(),
  extra: text('extra').notNull().default(''),
})

/** Single-row settings tables (id = 1). */
export const standoffSettings = pgTable('standoff_settings', {
  id: integer('id').primaryKey(),
  needRefund: boolean('need_refund').notNull().default(false),
  isSurplusEnabled: boolean('is_surplus_enabled').notNull().default(true),
  skinName: text('skin_name').notNull(),
  skinPicture: text('skin_picture').notNull(),
  // market fee in basis points
  marketFee: integer('market_fee').notNull(),
})

export const steamSettings = pgTable('steam_settings', {
  id: integer('id').primaryKey(),
  // commission in basis points
  commission: integer('commission').notNull(),
  minAmount: money('min_amount').notNull(),
  maxAmount: money('max_amount').notNull(),
})

// ---------------------------------------------------------------- inventory
export const voucherCodes = pgTable(
  'voucher_codes',
  {
    id: serial('id').primaryKey(),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    amountUc: integer('amount_uc').notNull(),
    orderProductId: integer('order_product_id'),
    soldAt: timestamp('sold_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('voucher_codes_code_uq').on(t.code),
    index('voucher_codes_free_idx').on(t.productId, t.soldAt),
  ],
)

export const giftCodes = pgTable(
  'gift_codes',
  {
    id: serial('id').primaryKey(),
    giftId: integer('gift_id')
      .notNull()
      .references(() => gifts.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    orderId: uuid('order_id'),
    soldAt: timestamp('sold_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('gift_codes_code_uq').on(t.code), index('gift_codes_free_idx').on(t.giftId, t.soldAt)],
)

// ---------------------------------------------------------------- accounts
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    // null once the account is deleted (orders stay, personal data goes)
    email: text('email'),
    passwordHash: text('password_hash'),
    nickname: text('nickname').notNull().default(''),
    avatarImg: text('avatar_img'),
    balance: money('balance').notNull().default(0),
    activePromoCodeId: integer('active_promo_code_id'),
    countryId: integer('country_id'),
    created: created(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('users_email_uq').on(t.email)],
)

export const socialAccounts = pgTable(
  'social_accounts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    created: created(),
  },
  (t) => [
    uniqueIndex('social_accounts_provider_uid_uq').on(t.provider, t.providerUserId),
    uniqueIndex('social_accounts_user_provider_uq').on(t.userId, t.provider),
  ],
)

/** Refresh tokens: each works once; a family is one sign-in (rotation chain). */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey(),
    familyId: uuid('family_id').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    created: created(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
)

/** Fixed-window counters shared by every instance (sign-in rate limits). */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
})

/** One-time OAuth `state` values for social sign-in. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  provider: text('provider').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  created: created(),
})

// ---------------------------------------------------------------- promo codes
export const promoCodes = pgTable(
  'promo_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    // 'PromoCode' (per game) or 'GiftPromoCode' (per gift)
    kind: text('kind').$type<'PromoCode' | 'GiftPromoCode'>().notNull(),
    percent: integer('percent').notNull(),
    gameId: integer('game_id').references(() => games.id, { onDelete: 'cascade' }),
    giftId: integer('gift_id').references(() => gifts.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    // how many paid orders may use it; null = unlimited
    maxUses: integer('max_uses'),
    usedCount: integer('used_count').notNull().default(0),
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [uniqueIndex('promo_codes_code_uq').on(sql`lower(${t.code})`)],
)

/** One row per (code, email) that paid with it: a code is used once per buyer. */
export const promoRedemptions = pgTable(
  'promo_redemptions',
  {
    promoCodeId: integer('promo_code_id')
      .notNull()
      .references(() => promoCodes.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    orderId: uuid('order_id').notNull(),
    created: created(),
  },
  (t) => [primaryKey({ columns: [t.promoCodeId, t.email] })],
)

// ---------------------------------------------------------------- payments setup
export const countries = pgTable('countries', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  flag: text('flag').notNull(),
  currency: text('currency').notNull(),
  // how many units of `currency` one rouble buys, times 1e6 (exact integer)
  rateMicro: bigint('rate_micro', { mode: 'number' }).notNull(),
  isDefault: boolean('is_default').notNull().default(false),
  sortOrder: integer('sort_order').notNull().default(0),
})

export const paymentMethodGroups = pgTable('payment_method_groups', {
  id: serial('id').primaryKey(),
  countryId: integer('country_id')
    .notNull()
    .references(() => countries.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  shortName: text('short_name').notNull(),
  order: integer('order').notNull().default(0),
})

export const paymentMethods = pgTable(
  'payment_methods',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => paymentMethodGroups.id, { onDelete: 'cascade' }),
    // url segment of POST /api/payments/{name}/
    name: text('name').notNull(),
    title: text('title').notNull(),
    uri: text('uri').notNull().default(''),
    // basis points
    fee: integer('fee').notNull().default(0),
    fixFee: money('fix_fee').notNull().default(0),
    icon: text('icon').notNull().default(''),
    isActive: boolean('is_active').notNull().default(true),
    minAmount: money('min_amount').notNull().default(0),
    isSecondary: boolean('is_secondary').notNull().default(false),
    currencies: jsonb('currencies').$type<string[]>().notNull().default([]),
    requiredFields: jsonb('required_fields').$type<string[]>().notNull().default([]),
    canRetrievePaymentData: boolean('can_retrieve_payment_data').notNull().default(false),
    // adapter: 'sandbox' | 'payselection' | 'getpay'
    provider: text('provider').notNull().default('sandbox'),
    // sandbox only: which scenario type it answers with
    scenario: text('scenario'),
  },
  (t) => [
    uniqueIndex('payment_methods_name_group_uq').on(t.groupId, t.name),
    index('payment_methods_name_idx').on(t.name),
  ],
)

// ---------------------------------------------------------------- orders
export const orders = pgTable(
  'orders',
  {
    // unguessable: guests reach their orders by this id alone
    id: uuid('id').primaryKey(),
    kind: text('kind').$type<OrderKind>().notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('created'),
    gameId: integer('game_id').references(() => games.id),
    giftId: integer('gift_id').references(() => gifts.id),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email'),
    // sum of lines at current prices, before promo and balance
    total: money('total').notNull(),
    promoCodeId: integer('promo_code_id').references(() => promoCodes.id),
    balanceUsed: money('balance_used').notNull().default(0),
    totalToPay: money('total_to_pay').notNull(),
    rejectReason: text('reject_reason'),
    created: created(),
    updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    // StandoffOrder
    gameAccountId: text('game_account_id'),
    gameAvatar: text('game_avatar'),
    surplus: integer('surplus'), // hundredths: 0..23
    // SteamOrder
    steamAccountId: text('steam_account_id'),
    steamAmount: money('steam_amount'),
    // MooGoldOrder (supply channel)
    moogoldUserId: text('moogold_user_id'),
    moogoldServer: integer('moogold_server'),
    moogoldServerCustomId: text('moogold_server_custom_id'),
    supplierOrderId: text('supplier_order_id'),
    // RokkyOrder: the delivered gift code
    code: text('code'),
    // idempotent creation
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
  },
  (t) => [
    uniqueIndex('orders_idempotency_uq').on(t.idempotencyKey),
    index('orders_user_idx').on(t.userId, t.created),
  ],
)

export const orderProducts = pgTable(
  'order_products',
  {
    id: serial('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    productId: integer('product_id')
      .notNull()
      .references(() => products.id),
    quantity: integer('quantity').notNull(),
    // unit price charged (kopecks) at the last recalculation
    price: money('price').notNull(),
  },
  (t) => [index('order_products_order_idx').on(t.orderId)],
)

export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    methodName: text('method_name').notNull(),
    provider: text('provider').notNull(),
    // amount in the payment currency's minor units
    amount: money('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed'>().notNull().default('pending'),
    externalId: text('external_id'),
    scenario: jsonb('scenario').$type<Record<string, unknown>>(),
    created: created(),
  },
  (t) => [index('payments_order_idx').on(t.orderId)],
)

/** Every processed provider callback, so a replay is processed once. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    eventKey: text('event_key').notNull(),
    received: created(),
  },
  (t) => [uniqueIndex('payment_events_uq').on(t.provider, t.eventKey)],
)
