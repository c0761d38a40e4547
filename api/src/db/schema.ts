// One schema for PGlite and PostgreSQL. Money columns hold integer minor units (kopecks);
// percents are whole numbers; fees are basis points (1 % = 100).
import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  customType,
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
  // which fulfilment adapter delivers this game's orders, and its id there: 'manual' (a person, at
  // the delivery desk), 'moogold', or 'sandbox' (only while sandbox payments are on; decision 042)
  supplier: text('supplier').notNull().default('manual'),
  supplierRef: text('supplier_ref'),
  // manual delivery: the time a buyer is promised («обычно до N мин») and the desk marks overdue
  deliveryMinutes: integer('delivery_minutes').notNull().default(30),
  // manual delivery: hours after which an order nobody took is refunded by itself; null: the
  // shop's DELIVERY_REFUND_HOURS, 0: never (decision 125)
  autoRefundHours: integer('auto_refund_hours'),
  sortOrder: integer('sort_order').notNull().default(0),
  // which player-lookup adapter checks ids typed for this game (null: no check) and its game code there
  playerCheck: text('player_check'),
  playerCheckRef: text('player_check_ref'),
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
    // staff alert when free codes fall below this (null: the shop default, 0: never; issue 37)
    lowStockThreshold: integer('low_stock_threshold'),
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
  // staff alert when free codes fall below this (null: the shop default, 0: never; issue 37)
  lowStockThreshold: integer('low_stock_threshold'),
})

// ---------------------------------------------------------------- content
export const articles = pgTable('articles', {
  slug: text('slug').primaryKey(),
  header: text('header').notNull(),
  text: text('text').notNull(),
})

/**
 * Every version of an info article (issue 33): a saved text never changes, so a consent points to
 * the text that was shown. The newest version of a slug is what /api/articles/{slug}/ shows.
 */
export const articleVersions = pgTable(
  'article_versions',
  {
    slug: text('slug').notNull(),
    version: integer('version').notNull(),
    header: text('header').notNull(),
    text: text('text').notNull(),
    created: created(),
  },
  (t) => [primaryKey({ columns: [t.slug, t.version] })],
)

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
  // the currency the operator credits the Steam account in (the desk shows it)
  currency: text('currency').notNull().default('RUB'),
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
    // the owner refunded the order it was sold in: kept sold, never offered again
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    // held for an unpaid order while its payment runs (services/stock/holds.ts); free again after held_until
    heldBy: uuid('held_by'),
    heldUntil: timestamp('held_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('voucher_codes_code_uq').on(t.code),
    index('voucher_codes_free_idx').on(t.productId, t.soldAt),
    index('voucher_codes_held_idx').on(t.heldBy),
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
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    heldBy: uuid('held_by'),
    heldUntil: timestamp('held_until', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('gift_codes_code_uq').on(t.code),
    index('gift_codes_free_idx').on(t.giftId, t.soldAt),
    index('gift_codes_held_idx').on(t.heldBy),
  ],
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
    // when the owner proved the email (a confirmation or reset link, or a provider that vouches
    // for it); null: unconfirmed, so the email identifies nobody (no social merge, no staff role)
    emailConfirmedAt: timestamp('email_confirmed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(t.email),
    // the cached sum of balance_entries; the ledger's guarded update never takes it below zero,
    // and this is the backstop should anything else try
    check('users_balance_nonnegative', sql`${t.balance} >= 0`),
  ],
)

export const ACCOUNT_TOKEN_PURPOSES = ['confirm_email', 'password_reset'] as const
export type AccountTokenPurpose = (typeof ACCOUNT_TOKEN_PURPOSES)[number]

/**
 * Single-use links mailed to an account (email confirmation, password reset). Only the SHA-256 of
 * the random token is stored; `email` is the address it was sent to, so a link stops working when
 * the account's email changes.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<AccountTokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull(),
    email: text('email').notNull(),
    created: created(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_uq').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.purpose),
  ],
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

/**
 * Answers of the player-lookup adapters, shared by every instance: `key` is a hash of the adapter,
 * its game code and the ids asked about; a row is used until `expires_at`.
 */
export const playerChecks = pgTable(
  'player_checks',
  {
    key: text('key').primaryKey(),
    outcome: text('outcome').$type<'found' | 'not_found'>().notNull(),
    nickname: text('nickname'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('player_checks_expires_idx').on(t.expiresAt)],
)

/** One-time OAuth `state` values for social sign-in. */
export const oauthStates = pgTable('oauth_states', {
  state: text('state').primaryKey(),
  provider: text('provider').notNull(),
  redirectUri: text('redirect_uri').notNull(),
  created: created(),
  // SHA-256 of the nonce held by the browser that started the flow (a cookie); '' matches nothing
  nonceHash: text('nonce_hash').notNull().default(''),
  // what the return may be used for: 'auth' (sign-in) or 'bind' (to user_id's account only)
  mode: text('mode').notNull().default('auth'),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
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
    // order kinds the code does not apply to (decision 126)
    excludedKinds: jsonb('excluded_kinds').$type<OrderKind[]>().notNull().default([]),
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
  // hidden by the owner: not offered to buyers (their methods take no payments)
  hidden: boolean('hidden').notNull().default(false),
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
    // adapter: 'sandbox' | 'payselection' | 'getpay' | 'yookassa'
    provider: text('provider').notNull().default('sandbox'),
    // sandbox only: which scenario type it answers with
    scenario: text('scenario'),
    // place within its group (then by id), set in the back-office
    sortOrder: integer('sort_order').notNull().default(0),
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
    // the short number people read out (decision 135): a database sequence, unique in the shop
    number: integer('number')
      .notNull()
      .unique('orders_number_uq')
      .generatedByDefaultAsIdentity({ startWith: 10001 }),
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
    // the gold price (hundredths) the buyer lists the skin at, claimed by the server when a payment
    // starts (issue 42): held until listing_held_until unless the order is paid, then kept
    listingPrice: integer('listing_price'),
    listingHeldUntil: timestamp('listing_held_until', { withTimezone: true }),
    // the buyer pressed «Я выставил скин»
    skinListedAt: timestamp('skin_listed_at', { withTimezone: true }),
    // SteamOrder
    steamAccountId: text('steam_account_id'),
    steamAmount: money('steam_amount'),
    // MooGoldOrder (supply channel)
    moogoldUserId: text('moogold_user_id'),
    moogoldServer: integer('moogold_server'),
    moogoldServerCustomId: text('moogold_server_custom_id'),
    supplierOrderId: text('supplier_order_id'),
    // StandoffOrder, MooGoldOrder: the nickname the player check answered for the id (null: not checked)
    playerNickname: text('player_nickname'),
    // RokkyOrder: the delivered gift code
    code: text('code'),
    // the client network (IPv4 address, IPv6 /64) of the payment start that holds the order's codes
    // or listing price (the per-buyer hold caps; issue 42)
    holdAddress: text('hold_address'),
    // manual delivery (services/delivery): handed to a person at, and the operator who took it
    awaitingSince: timestamp('awaiting_since', { withTimezone: true }),
    takenBy: integer('taken_by').references(() => users.id, { onDelete: 'set null' }),
    takenAt: timestamp('taken_at', { withTimezone: true }),
    // manual delivery: when an untaken order is refunded by itself (null: never), and when a taken
    // one passed that time and went to the owner instead (decision 125)
    refundDueAt: timestamp('refund_due_at', { withTimezone: true }),
    escalatedAt: timestamp('escalated_at', { withTimezone: true }),
    // idempotent creation
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
  },
  (t) => [
    uniqueIndex('orders_idempotency_uq').on(t.idempotencyKey),
    index('orders_user_idx').on(t.userId, t.created),
    // back-office search: newest first, by status, by game
    index('orders_created_idx').on(t.created),
    index('orders_status_created_idx').on(t.status, t.created),
    index('orders_game_created_idx').on(t.gameId, t.created),
    // guests find their orders by email (order look-up), and the back-office too
    index('orders_email_idx').on(sql`lower(${t.email})`),
    // the delivery desk's queue, oldest first
    index('orders_awaiting_idx')
      .on(t.awaitingSince)
      .where(sql`${t.status} = 'sent' and ${t.awaitingSince} is not null`),
    // one open Standoff order per listing price: the operator tells listings apart by it
    uniqueIndex('orders_open_listing_price_uq')
      .on(t.listingPrice)
      .where(sql`${t.surplus} is not null and ${t.status} not in ('done', 'failed')`),
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

/**
 * `refused`: the provider took the money but the shop could not accept it (amount or currency not
 * the payment's, order no longer payable); it is refunded (a `refunds` row of kind `payment`).
 */
export const PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'refused'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]

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
    status: text('status').$type<PaymentStatus>().notNull().default('pending'),
    externalId: text('external_id'),
    scenario: jsonb('scenario').$type<Record<string, unknown>>(),
    created: created(),
    // fraud limits (issue 34): who started it, for which country, and the card that paid it
    // (only a keyed hash of what the provider returned; the issuer country when it says)
    clientAddress: text('client_address'),
    // the client's network as every per-address rule counts it (IPv6 /64; issue 42)
    clientNetwork: text('client_network'),
    countryCode: text('country_code'),
    cardHash: text('card_hash'),
    cardCountry: text('card_country'),
  },
  (t) => [index('payments_order_idx').on(t.orderId), index('payments_card_idx').on(t.cardHash)],
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

// ---------------------------------------------------------------- background jobs
export const JOB_STATUSES = ['pending', 'running', 'done', 'dead'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

/**
 * The job queue, which is also the outbox: a job is inserted in the same transaction as the change
 * that causes it, and workers of any instance claim due jobs with FOR UPDATE SKIP LOCKED. A job
 * whose worker died (lease expired) is claimed again; `dedupe_key` makes one job per cause.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    dedupeKey: text('dedupe_key'),
    status: text('status').$type<JobStatus>().notNull().default('pending'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(12),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    created: created(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('jobs_dedupe_uq').on(t.dedupeKey),
    index('jobs_due_idx').on(t.status, t.runAt),
    index('jobs_kind_idx').on(t.kind, t.status),
  ],
)

/**
 * Mails handed to the SMTP server (or written to a file), one row per cause (`key`, the outbox
 * key): the history of what a buyer was sent, kept after the job itself is pruned. No addresses:
 * the order (or account) holds them.
 */
export const mailLog = pgTable(
  'mail_log',
  {
    key: text('key').primaryKey(),
    template: text('template').notNull(),
    orderId: uuid('order_id'),
    messageId: text('message_id').notNull(),
    transport: text('transport').$type<'smtp' | 'file'>().notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mail_log_order_idx').on(t.orderId)],
)

// ---------------------------------------------------------------- back-office
export const STAFF_ROLES = ['support', 'owner'] as const
export type StaffRole = (typeof STAFF_ROLES)[number]

/** Roles granted in the database (`npm run admin:grant`); ADMIN_EMAILS owners need no row. */
export const staffRoles = pgTable('staff_roles', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  role: text('role').$type<StaffRole>().notNull(),
  grantedBy: text('granted_by').notNull(),
  created: created(),
})

/** Every back-office change: who, when, what, before and after. Never updated or deleted. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorEmail: text('actor_email'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before').$type<unknown>(),
    after: jsonb('after').$type<unknown>(),
    created: created(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.created),
    index('audit_log_entity_idx').on(t.entity, t.entityId),
  ],
)

/**
 * An order's timeline: status changes, payments started, provider callbacks (with their payloads),
 * fulfilment attempts, mails, refunds, notes and back-office actions, in the order they happened.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    actorUserId: integer('actor_user_id'),
    created: created(),
  },
  (t) => [index('order_events_order_idx').on(t.orderId, t.id)],
)

// ---------------------------------------------------------------- money that moves
export const BALANCE_ENTRY_KINDS = ['cashback', 'spend', 'refund', 'correction'] as const
export type BalanceEntryKind = (typeof BALANCE_ENTRY_KINDS)[number]

/**
 * The balance ledger: every change of a user's balance, signed, tied to its cause and written
 * once per (kind, cause). users.balance is their sum, kept in step in the same transaction by
 * services/balance/ledger.ts, the only writer of either.
 */
export const balanceEntries = pgTable(
  'balance_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // kopecks: positive credits the balance, negative spends it
    amount: money('amount').notNull(),
    kind: text('kind').$type<BalanceEntryKind>().notNull(),
    // what caused it: an order id (cashback, spend, refund), an admin request id (correction)
    cause: text('cause').notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    created: created(),
  },
  (t) => [
    uniqueIndex('balance_entries_cause_uq').on(t.kind, t.cause),
    index('balance_entries_user_idx').on(t.userId, t.id),
    check('balance_entries_amount_nonzero', sql`${t.amount} <> 0`),
  ],
)

export const REFUND_METHODS = ['provider', 'balance', 'manual'] as const
export type RefundMethod = (typeof REFUND_METHODS)[number]
export const REFUND_STATUSES = ['pending', 'done', 'manual'] as const
export type RefundStatus = (typeof REFUND_STATUSES)[number]
/** `order`: a paid order that was not delivered; `payment`: a refused payment (money the order never got). */
export const REFUND_KINDS = ['order', 'payment'] as const
export type RefundKind = (typeof REFUND_KINDS)[number]

/**
 * One refund per order (unique order_id among kind `order`) and one per payment (unique
 * payment_id), whatever retries: back through the provider that took the payment (pending until it
 * answers), to a signed-in buyer's balance, or flagged for a person (`manual`: a guest paid through
 * a provider that cannot refund, or the provider kept refusing).
 */
export const refunds = pgTable(
  'refunds',
  {
    id: serial('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<RefundKind>().notNull().default('order'),
    method: text('method').$type<RefundMethod>().notNull(),
    status: text('status').$type<RefundStatus>().notNull(),
    // kind `order`: kopecks of the order refunded in all (what was paid plus any balance spent on it);
    // kind `payment`: what the provider took, in minor units of `currency`
    amount: money('amount').notNull(),
    currency: text('currency').notNull().default('RUB'),
    // the part that went back to the balance (the balance spent, or all of it for 'balance')
    toBalance: money('to_balance').notNull().default(0),
    reason: text('reason').notNull(),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    externalId: text('external_id'),
    lastError: text('last_error'),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    created: created(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('refunds_order_uq').on(t.orderId).where(sql`${t.kind} = 'order'`),
    // every refund of an order, whatever its kind (the kept pages' stamp, decision 103)
    index('refunds_order_idx').on(t.orderId),
    uniqueIndex('refunds_payment_uq').on(t.paymentId),
    index('refunds_status_idx').on(t.status),
  ],
)
// ---------------------------------------------------------------- seller, fiscal receipts, consent
/** The seller's requisites and receipt settings, edited by the owner (single row, id = 1). */
export const sellerSettings = pgTable('seller_settings', {
  id: integer('id').primaryKey(),
  legalForm: text('legal_form').notNull().default(''),
  companyName: text('company_name').notNull().default(''),
  inn: text('inn').notNull().default(''),
  ogrn: text('ogrn').notNull().default(''),
  address: text('address').notNull().default(''),
  email: text('email').notNull().default(''),
  phone: text('phone').notNull().default(''),
  extra: text('extra').notNull().default(''),
  taxSystem: text('tax_system').notNull().default('usn_income'),
  receiptsEnabled: boolean('receipts_enabled').notNull().default(false),
  receiptTransport: text('receipt_transport').notNull().default('sandbox'),
  // per receipt item kind: { vat, payment_object } (services/receipts/model.ts)
  itemRules: jsonb('item_rules').$type<Record<string, { vat: string; payment_object: string }>>(),
  updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
})

export const RECEIPT_KINDS = ['sell', 'sell_refund'] as const
export type ReceiptKind = (typeof RECEIPT_KINDS)[number]
export const RECEIPT_PAYMENT_METHODS = ['full_prepayment', 'full_payment'] as const
export type ReceiptPaymentMethod = (typeof RECEIPT_PAYMENT_METHODS)[number]
export const RECEIPT_STATUSES = ['pending', 'registered', 'failed'] as const
export type ReceiptStatus = (typeof RECEIPT_STATUSES)[number]

/**
 * Fiscal receipts (54-ФЗ): one `sell` per paid payment, one `sell_refund` per provider refund,
 * written in the settling/refunding transaction and registered by the `receipt.send` job.
 * `external_id` is what the fiscal service de-duplicates by (a resend gets a new one).
 */
export const receipts = pgTable(
  'receipts',
  {
    id: serial('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    refundId: integer('refund_id').references(() => refunds.id, { onDelete: 'set null' }),
    kind: text('kind').$type<ReceiptKind>().notNull(),
    status: text('status').$type<ReceiptStatus>().notNull().default('pending'),
    transport: text('transport').notNull(),
    externalId: text('external_id').notNull(),
    email: text('email').notNull(),
    total: money('total').notNull(),
    items: jsonb('items').$type<unknown[]>().notNull(),
    seller: jsonb('seller').$type<Record<string, unknown>>().notNull(),
    // признак способа расчёта (tag 1214): full_prepayment (an advance, delivered later) or
    // full_payment; null on rows written before the advance rule (decision 059, issue 45): full_payment
    paymentMethod: text('payment_method').$type<ReceiptPaymentMethod>(),
    // the fiscal service's id of the registration (ATOL uuid)
    serviceId: text('service_id'),
    // ФН, ФД, ФП and the time, once registered
    fiscal: jsonb('fiscal').$type<Record<string, unknown>>(),
    lastError: text('last_error'),
    created: created(),
    registeredAt: timestamp('registered_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('receipts_external_uq').on(t.externalId),
    uniqueIndex('receipts_sell_uq').on(t.paymentId).where(sql`${t.kind} = 'sell'`),
    uniqueIndex('receipts_refund_uq').on(t.refundId),
    index('receipts_order_idx').on(t.orderId),
    index('receipts_status_idx').on(t.status),
  ],
)

/** Consent to personal data processing (152-ФЗ): who, to which document version, when, from where. */
export const consents = pgTable(
  'consents',
  {
    id: serial('id').primaryKey(),
    email: text('email'),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    // where it was asked: order, sign_up, gift
    context: text('context').notNull(),
    // false: a client that did not send the consent field (recorded as "no consent given")
    given: boolean('given').notNull(),
    documentVersion: integer('document_version'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    created: created(),
  },
  (t) => [index('consents_email_idx').on(sql`lower(${t.email})`), index('consents_order_idx').on(t.orderId)],
)

/** Raw bytes: a Buffer on node-postgres, a Uint8Array on PGlite; always handed back as a Buffer. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
})

/**
 * Uploaded images (Standoff order avatars, profile avatars), kept in the database so that every
 * instance serves them and backups include them (docs/decisions/036). `name` is the random public
 * name served at /media/<name>; each row belongs to exactly one order or one account, at most one
 * per owner (a new upload replaces the old row), and goes with its owner.
 */
export const uploads = pgTable(
  'uploads',
  {
    name: text('name').primaryKey(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    // a game's or a gift's logo, uploaded in the back-office
    gameId: integer('game_id').references(() => games.id, { onDelete: 'cascade' }),
    giftId: integer('gift_id').references(() => gifts.id, { onDelete: 'cascade' }),
    // a payment method's icon (issue 32)
    paymentMethodId: integer('payment_method_id').references(() => paymentMethods.id, {
      onDelete: 'cascade',
    }),
    // the shop's own logo, uploaded at /admin/shop (issue 47): true for its one row, else null
    shop: boolean('shop'),
    contentType: text('content_type').notNull(),
    bytes: bytea('bytes').notNull(),
    size: integer('size').notNull(),
    sha256: text('sha256').notNull(),
    created: created(),
  },
  (t) => [
    uniqueIndex('uploads_order_uq').on(t.orderId),
    uniqueIndex('uploads_user_uq').on(t.userId),
    uniqueIndex('uploads_game_uq').on(t.gameId),
    uniqueIndex('uploads_gift_uq').on(t.giftId),
    uniqueIndex('uploads_payment_method_uq').on(t.paymentMethodId),
    uniqueIndex('uploads_shop_uq').on(t.shop),
    check('uploads_shop_true', sql`${t.shop} is null or ${t.shop}`),
    check(
      'uploads_one_owner',
      sql`num_nonnulls(${t.orderId}, ${t.userId}, ${t.gameId}, ${t.giftId}, ${t.paymentMethodId}, ${t.shop}) = 1`,
    ),
  ],
)

// ---------------------------------------------------------------- fraud limits (issue 34)
/** The back-office «Антифрод» settings: one row; absent keys take their defaults (services/risk). */
export const riskSettings = pgTable('risk_settings', {
  id: integer('id').primaryKey().default(1),
  settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
  updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
})

export const REVIEW_STATUSES = ['held', 'approved', 'rejected'] as const
export type ReviewStatus = (typeof REVIEW_STATUSES)[number]

/**
 * A paid order held for review instead of delivery (a risk rule tripped): one row per order.
 * While `held` nothing is delivered, shown or mailed; approve delivers, reject fails and refunds.
 */
export const orderReviews = pgTable(
  'order_reviews',
  {
    orderId: uuid('order_id')
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    status: text('status').$type<ReviewStatus>().notNull().default('held'),
    rules: jsonb('rules').$type<string[]>().notNull(),
    created: created(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: integer('decided_by').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    // the staff mail about an order held past 30 minutes, sent once
    staffMailedAt: timestamp('staff_mailed_at', { withTimezone: true }),
  },
  (t) => [index('order_reviews_status_idx').on(t.status, t.created)],
)

export const BLOCK_KINDS = ['email', 'domain', 'network', 'card'] as const
export type BlockKind = (typeof BLOCK_KINDS)[number]

/** The owner's block lists: an email, an email domain, an address or network (CIDR), a card hash. */
export const blockList = pgTable(
  'block_list',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<BlockKind>().notNull(),
    value: text('value').notNull(),
    note: text('note'),
    createdBy: text('created_by'),
    created: created(),
  },
  (t) => [uniqueIndex('block_list_uq').on(t.kind, t.value)],
)

/** Every view of a delivered code (evidence for disputes): where, when, from which address and browser. */
export const codeViews = pgTable(
  'code_views',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    place: text('place').notNull(),
    clientAddress: text('client_address').notNull(),
    userAgent: text('user_agent'),
    // the signed-in account that looked (null: a guest holding the order's id or lookup link)
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    created: created(),
  },
  (t) => [index('code_views_order_idx').on(t.orderId, t.id)],
)

// ---------------------------------------------------------------- shop settings, staff alerts (issue 37)
/** The shop's own name, logo and support contacts, edited by the owner (single row, id = 1). */
export const shopSettings = pgTable('shop_settings', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  // a path on this site (/media/…, /logo.svg) or an https URL; '' for the built-in mark
  logo: text('logo').notNull().default(''),
  supportEmail: text('support_email').notNull().default(''),
  supportPhone: text('support_phone').notNull().default(''),
  // when support answers, the owner's free text (issue 50): «ежедневно с 10 до 22 МСК»; '' unsaid
  supportHours: text('support_hours').notNull().default(''),
  // the IANA zone every time is shown and taken in (decision 136); null: SHOP_TIMEZONE
  timeZone: text('time_zone'),
  // the line under the name in the footer and the mails (issue 47); '' for the built-in one
  tagline: text('tagline').notNull().default(''),
  updated: timestamp('updated', { withTimezone: true }).notNull().defaultNow(),
})

/**
 * Staff alerts, one row per cause (`mail_failing`, `order_failed:<id>`, `low_stock:product:<id>`…):
 * opened when a check finds the cause, closed when it no longer does, and mailed once per opening
 * (`notified_at`) in a digest with the other new ones (services/alerts).
 */
export const staffAlerts = pgTable(
  'staff_alerts',
  {
    cause: text('cause').primaryKey(),
    source: text('source').notNull(),
    // what the staff reads: a short text in Russian, made by the check
    detail: text('detail').notNull(),
    // 'owner': owners only; 'staff': owners and support (it concerns orders)
    audience: text('audience').$type<'owner' | 'staff'>().notNull(),
    link: text('link').notNull().default(''),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull().defaultNow(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
  },
  (t) => [index('staff_alerts_open_idx').on(t.closedAt)],
)

// ---------------------------------------------------------------- personal data requests (issue 33)
export const DATA_REQUEST_KINDS = ['access', 'correction', 'deletion', 'withdraw'] as const
export type DataRequestKind = (typeof DATA_REQUEST_KINDS)[number]
export const DATA_REQUEST_STATUSES = ['unconfirmed', 'open', 'done'] as const
export type DataRequestStatus = (typeof DATA_REQUEST_STATUSES)[number]

/**
 * A data subject's request (152-ФЗ, /info/personal-data): `unconfirmed` until the link mailed to
 * `email` is opened (only the SHA-256 of the link's token is kept, with its expiry), then an `open`
 * task for staff due on `due_date` (10 working days), `done` when staff mark it so.
 */
export const dataRequests = pgTable(
  'data_requests',
  {
    id: uuid('id').primaryKey(),
    email: text('email').notNull(),
    kind: text('kind').$type<DataRequestKind>().notNull(),
    text: text('text').notNull(),
    status: text('status').$type<DataRequestStatus>().notNull().default('unconfirmed'),
    tokenHash: text('token_hash').notNull(),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }).notNull(),
    clientAddress: text('client_address'),
    created: created(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    // the legal deadline, a Moscow calendar date (YYYY-MM-DD)
    dueDate: text('due_date'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    doneBy: integer('done_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
  },
  (t) => [
    uniqueIndex('data_requests_token_uq').on(t.tokenHash),
    index('data_requests_status_idx').on(t.status, t.dueDate),
  ],
)

// ---------------------------------------------------------------- reconciliation «Сверка» (issue 43)
export const RECONCILIATION_KINDS = [
  'paid_at_provider_only',
  'paid_in_shop_only',
  'amount_differs',
  'refund_at_provider_only',
  'refund_in_shop_only',
] as const
export type ReconciliationKind = (typeof RECONCILIATION_KINDS)[number]
export const RECONCILIATION_STATUSES = ['open', 'explained', 'resolved'] as const
export type ReconciliationStatus = (typeof RECONCILIATION_STATUSES)[number]

/**
 * A difference between the shop's books and a payment provider's (services/reconciliation), one
 * row per `key` (provider, kind and the object it is about), so a re-run or a second instance
 * finds the row instead of adding one. `open` until a person explains it (note, audited) or a
 * later run over its moment no longer finds it (`resolved`).
 */
export const reconciliationDifferences = pgTable(
  'reconciliation_differences',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    provider: text('provider').notNull(),
    kind: text('kind').$type<ReconciliationKind>().notNull(),
    status: text('status').$type<ReconciliationStatus>().notNull().default('open'),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    paymentId: uuid('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    refundId: integer('refund_id').references(() => refunds.id, { onDelete: 'set null' }),
    // the provider's id of the payment or refund it is about
    externalId: text('external_id'),
    // minor units; null on the side that has nothing
    providerAmount: money('provider_amount'),
    providerCurrency: text('provider_currency'),
    shopAmount: money('shop_amount'),
    shopCurrency: text('shop_currency'),
    // when the payment or refund was made (the period a run covers is compared with it)
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull(),
    detectedAt: timestamp('detected_at', { withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    explainedAt: timestamp('explained_at', { withTimezone: true }),
    explainedBy: integer('explained_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
  },
  (t) => [
    uniqueIndex('reconciliation_differences_key_uq').on(t.key),
    index('reconciliation_differences_status_idx').on(t.status, t.detectedAt),
  ],
)

// ---------------------------------------------------------------- Telegram bot (issue 49)
/** What a linked staff member may get in Telegram (the owner chooses per person). */
export const TELEGRAM_ALERTS = ['waiting', 'review', 'staff_mail', 'alerts'] as const
export type TelegramAlert = (typeof TELEGRAM_ALERTS)[number]

/** A staff member's Telegram: the account that may press the buttons and the chat it is told in. */
export const telegramStaff = pgTable('telegram_staff', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  tgUserId: bigint('tg_user_id', { mode: 'number' }).notNull().unique(),
  chatId: bigint('chat_id', { mode: 'number' }).notNull(),
  tgName: text('tg_name').notNull().default(''),
  alerts: jsonb('alerts').$type<TelegramAlert[]>().notNull(),
  linkedAt: timestamp('linked_at', { withTimezone: true }).notNull().defaultNow(),
})

/** A buyer's chat that follows an order (until /stop). */
export const telegramFollowers = pgTable(
  'telegram_followers',
  {
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    created: created(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.chatId] }), index('telegram_followers_chat_idx').on(t.chatId)],
)

/**
 * A buyer's account followed in a chat: a buyer signed in with Telegram links it once and hears of
 * every order of the account (until /stop), while that Telegram account is still bound to it.
 */
export const telegramAccountFollowers = pgTable(
  'telegram_account_followers',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The Telegram account that pressed Start: it must be the one bound to the shop account. */
    tgUserId: bigint('tg_user_id', { mode: 'number' }).notNull(),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    created: created(),
  },
  (t) => [index('telegram_account_followers_chat_idx').on(t.chatId)],
)

/**
 * One-time deep-link codes (stored as a hash): a staff member's link, a buyer's order link, or a
 * Telegram-signed-in buyer's account link (which also names the order it was asked from).
 */
export const telegramLinkCodes = pgTable('telegram_link_codes', {
  codeHash: text('code_hash').primaryKey(),
  purpose: text('purpose').$type<'staff' | 'order' | 'account'>().notNull(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
  orderId: uuid('order_id').references(() => orders.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
})

/** The bot's messages about an order in staff chats, edited as the order moves on. */
export const telegramMessages = pgTable(
  'telegram_messages',
  {
    id: serial('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    chatId: bigint('chat_id', { mode: 'number' }).notNull(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    purpose: text('purpose').$type<'waiting' | 'review'>().notNull(),
    created: created(),
  },
  (t) => [
    uniqueIndex('telegram_messages_uq').on(t.orderId, t.chatId, t.purpose),
    index('telegram_messages_order_idx').on(t.orderId),
  ],
)

/** Updates handled (update_id): a delivery repeated by Telegram or a replay changes nothing. */
export const telegramUpdates = pgTable('telegram_updates', {
  updateId: bigint('update_id', { mode: 'number' }).primaryKey(),
  received: created(),
})

/** A question the bot asked a staff member («Не выдано», «Отклонить»): the next text is the reason. */
export const telegramPrompts = pgTable('telegram_prompts', {
  chatId: bigint('chat_id', { mode: 'number' }).primaryKey(),
  tgUserId: bigint('tg_user_id', { mode: 'number' }).notNull(),
  orderId: uuid('order_id')
    .notNull()
    .references(() => orders.id, { onDelete: 'cascade' }),
  action: text('action').$type<'not_delivered' | 'reject'>().notNull(),
  stamp: text('stamp').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
})

/**
 * Shared clocks of the bot: send slots per chat and overall (Telegram's limits, every instance
 * sharing them) and the long-polling offset.
 */
export const telegramState = pgTable('telegram_state', {
  key: text('key').primaryKey(),
  at: timestamp('at', { withTimezone: true }),
  value: bigint('value', { mode: 'number' }),
})
