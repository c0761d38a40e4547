import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type GameKind, games, type ProductKind, products, supplyServers } from '../../db/schema'
import { toMoney } from '../../lib/money'
import type { GameOut, ProductOut } from './wire-types'
import type { PlayerCheckConfig } from '../../env'
import { hasPlayerCheck } from '../player-check'

/** A product as the catalogue reads it (camelCase columns, money in kopecks). */
export interface ProductRow {
  id: number
  gameId: number
  kind: ProductKind
  title: string
  price: number
  picture: string
  minQuantity: number
  maxQuantity: number
  isActive: boolean
  discountPrice: number | null
  discountPercent: number
  amountUc: number | null
  gold: number | null
  /** Sold from a code inventory (PUBG): whether min_quantity codes are free now; null otherwise. */
  inStock?: boolean | null
  /** Sold from a code inventory: the free codes when LOW_STOCK or fewer, else null (issue 50). */
  stockLeft?: number | null
}

export type GameRow = typeof games.$inferSelect

/** The unit price a buyer pays now: the discounted price when there is one. */
export const unitPrice = (p: { price: number; discountPrice: number | null }) => p.discountPrice ?? p.price

export function productOut(p: ProductRow): ProductOut {
  const base = {
    id: p.id,
    game: p.gameId,
    title: p.title,
    price: toMoney(p.price),
    picture: p.picture,
    min_quantity: p.minQuantity,
    max_quantity: p.maxQuantity,
    is_active: p.isActive,
    discount_price: p.discountPrice === null ? null : toMoney(p.discountPrice),
    discount_percent: p.discountPercent,
  }
  switch (p.kind) {
    case 'PUBGProduct':
      return {
        resourcetype: 'PUBGProduct',
        ...base,
        amount_uc: p.amountUc ?? 0,
        ...(typeof p.inStock === 'boolean' ? { in_stock: p.inStock } : {}),
        ...(typeof p.stockLeft === 'number' ? { stock_left: p.stockLeft } : {}),
      }
    case 'StandoffProduct':
      return { resourcetype: 'StandoffProduct', ...base, gold: p.gold ?? 0 }
    case 'SteamProduct':
      return { resourcetype: 'SteamProduct', ...base }
    case 'SupplyProduct':
      return { resourcetype: 'SupplyProduct', ...base }
  }
}

const PRODUCT_KIND_OF_GAME: Record<GameKind, ProductKind> = {
  PUBGGame: 'PUBGProduct',
  StandoffGame: 'StandoffProduct',
  Steam: 'SteamProduct',
  SupplyGame: 'SupplyProduct',
}

/** The product kind a game of `kind` sells. */
export const productKindOf = (kind: GameKind): ProductKind => PRODUCT_KIND_OF_GAME[kind]

export function gameOut(
  g: GameRow,
  items: ProductRow[],
  servers: Array<{ id: number; name: string }>,
  /** Whether a player-lookup adapter checks this game's ids (services/player-check). */
  playerCheck = false,
): GameOut {
  const base = {
    id: g.id,
    title: g.title,
    detail_title: g.detailTitle,
    detail_description: g.detailDescription,
    logo: g.logo,
    created: g.created.toISOString(),
    is_auth_required: g.isAuthRequired,
    discount_percent: g.discountPercent,
    is_active: g.isActive,
    product_preview_name: g.productPreviewName,
    product_preview_icon: g.productPreviewIcon,
    tags: g.tags,
    // a person delivers (issue 31): the buyer is told how long it usually takes before buying
    delivery_minutes: g.supplier === 'manual' && g.kind !== 'PUBGGame' ? g.deliveryMinutes : null,
  }
  // A game only lists products of its own kind, so the variant types stay exact.
  const own = items.filter((p) => p.kind === productKindOf(g.kind)).map(productOut)
  switch (g.kind) {
    case 'PUBGGame':
      return {
        resourcetype: 'PUBGGame',
        ...base,
        products: own.filter((p) => p.resourcetype === 'PUBGProduct'),
      }
    case 'StandoffGame':
      return {
        resourcetype: 'StandoffGame',
        ...base,
        player_check: playerCheck,
        products: own.filter((p) => p.resourcetype === 'StandoffProduct'),
      }
    case 'Steam':
      return {
        resourcetype: 'Steam',
        ...base,
        player_check: playerCheck,
        products: own.filter((p) => p.resourcetype === 'SteamProduct'),
      }
    case 'SupplyGame':
      return {
        resourcetype: 'SupplyGame',
        ...base,
        player_check: playerCheck,
        products: own.filter((p) => p.resourcetype === 'SupplyProduct'),
        servers,
        is_server_needed: g.isServerNeeded,
        is_server_enum: g.isServerEnum,
      }
  }
}

// (The outer game is named "games"."id" explicitly: drizzle would print a bare "id", which the
// subquery would resolve to its own table.)
// Active products and servers of a game, aggregated in the game's own row so a game page (or a
// page of games) costs one query, whatever the number of products.
type RawProduct = {
  id: number
  game_id: number
  kind: ProductKind
  title: string
  price: number | string
  picture: string
  min_quantity: number
  max_quantity: number
  is_active: boolean
  discount_price: number | string | null
  discount_percent: number
  amount_uc: number | null
  gold: number | null
  in_stock: boolean | null
  stock_left: number | null
}

/**
 * Voucher products are in stock while min_quantity codes are neither sold nor held (an EXISTS with
 * OFFSET stops at the n-th free code). `id`/`min_quantity` are the product's columns, qualified.
 */
const voucherInStock = (id: SQL, minQuantity: SQL) => sql`exists (
  select 1 from voucher_codes vc where vc.product_id = ${id} and vc.sold_at is null
  and (vc.held_until is null or vc.held_until <= now()) offset greatest(${minQuantity} - 1, 0))`

/**
 * At or below this many free codes a pack's tile says how many are left (issue 50); above it the
 * count is not published (how much stock a shop holds is its own business). The one threshold.
 */
const LOW_STOCK = 5

/** The free codes of a voucher product counted up to LOW_STOCK + 1, null when more are free. */
const voucherStockLeft = (id: SQL) => sql`(select case when n <= ${LOW_STOCK} then n end from (
  select count(*)::int as n from (select 1 from voucher_codes vc where vc.product_id = ${id}
  and vc.sold_at is null and (vc.held_until is null or vc.held_until <= now()) limit ${LOW_STOCK + 1}) f) c)`

const productsAgg = sql<RawProduct[]>`(
  select coalesce(json_agg(json_build_object(
    'id', p.id, 'game_id', p.game_id, 'kind', p.kind, 'title', p.title, 'price', p.price,
    'picture', p.picture, 'min_quantity', p.min_quantity, 'max_quantity', p.max_quantity,
    'is_active', p.is_active, 'discount_price', p.discount_price,
    'discount_percent', p.discount_percent, 'amount_uc', p.amount_uc, 'gold', p.gold,
    'in_stock', case when p.kind = 'PUBGProduct' then ${voucherInStock(sql`p.id`, sql`p.min_quantity`)} end,
    'stock_left', case when p.kind = 'PUBGProduct' then ${voucherStockLeft(sql`p.id`)} end
  ) order by p.sort_order, p.id), '[]'::json)
  from ${products} p where p.game_id = "games"."id" and p.is_active
)`

const serversAgg = sql<Array<{ id: number; name: string }>>`(
  select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name) order by s.id), '[]'::json)
  from ${supplyServers} s where s.game_id = "games"."id"
)`

const rawProduct = (r: RawProduct): ProductRow => ({
  id: r.id,
  gameId: r.game_id,
  kind: r.kind,
  title: r.title,
  price: Number(r.price),
  picture: r.picture,
  minQuantity: r.min_quantity,
  maxQuantity: r.max_quantity,
  isActive: r.is_active,
  discountPrice: r.discount_price === null ? null : Number(r.discount_price),
  discountPercent: r.discount_percent,
  amountUc: r.amount_uc,
  gold: r.gold,
  inStock: r.in_stock,
  stockLeft: r.stock_left,
})

function gameWithChildren(
  row: GameRow & { products: RawProduct[]; servers: Array<{ id: number; name: string }> },
  checks: PlayerCheckConfig | undefined,
) {
  const { products: items, servers, ...game } = row
  return gameOut(
    game,
    items.map(rawProduct),
    game.kind === 'SupplyGame' ? servers : [],
    checks ? hasPlayerCheck(checks, game) : false,
  )
}

/** LIKE pattern that matches `text` literally anywhere. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`

export async function listGames(
  db: Db | Tx,
  opts: {
    limit: number
    offset: number
    search?: string
    titleContains?: string
    playerCheck?: PlayerCheckConfig
  },
): Promise<{ count: number; results: GameOut[] }> {
  const filters: SQL[] = [eq(games.isActive, true)]
  if (opts.search) {
    const p = containsPattern(opts.search)
    const cond = or(ilike(games.title, p), ilike(games.detailTitle, p))
    if (cond) filters.push(cond)
  }
  if (opts.titleContains) filters.push(ilike(games.title, containsPattern(opts.titleContains)))
  const where = and(...filters)
  const [total, rows] = await Promise.all([
    db.select({ n: count() }).from(games).where(where),
    db
      .select({ game: games, products: productsAgg, servers: serversAgg })
      .from(games)
      .where(where)
      .orderBy(asc(games.sortOrder), asc(games.id))
      .limit(opts.limit)
      .offset(opts.offset),
  ])
  return {
    count: total[0]?.n ?? 0,
    results: rows.map((r) =>
      gameWithChildren({ ...r.game, products: r.products, servers: r.servers }, opts.playerCheck),
    ),
  }
}

/** An active game with its active products (and servers for a SupplyGame) in one query; null if none. */
export async function getGame(
  db: Db | Tx,
  id: number,
  playerCheck?: PlayerCheckConfig,
): Promise<GameOut | null> {
  const [row] = await db
    .select({ game: games, products: productsAgg, servers: serversAgg })
    .from(games)
    .where(and(eq(games.id, id), eq(games.isActive, true)))
  return row
    ? gameWithChildren({ ...row.game, products: row.products, servers: row.servers }, playerCheck)
    : null
}

const productColumns = {
  id: products.id,
  gameId: products.gameId,
  kind: products.kind,
  title: products.title,
  price: products.price,
  picture: products.picture,
  minQuantity: products.minQuantity,
  maxQuantity: products.maxQuantity,
  isActive: products.isActive,
  discountPrice: products.discountPrice,
  discountPercent: products.discountPercent,
  amountUc: products.amountUc,
  gold: products.gold,
  inStock: sql<
    boolean | null
  >`case when ${products.kind} = 'PUBGProduct' then ${voucherInStock(sql`${products.id}`, sql`${products.minQuantity}`)} end`,
  stockLeft: sql<
    number | null
  >`case when ${products.kind} = 'PUBGProduct' then ${voucherStockLeft(sql`${products.id}`)} end`,
}

const onSale = and(eq(products.isActive, true), eq(games.isActive, true))

export async function listProducts(
  db: Db | Tx,
  opts: { limit: number; offset: number; gameId?: number },
): Promise<{ count: number; results: ProductOut[] }> {
  const where = opts.gameId === undefined ? onSale : and(onSale, eq(products.gameId, opts.gameId))
  const [total, rows] = await Promise.all([
    db.select({ n: count() }).from(products).innerJoin(games, eq(games.id, products.gameId)).where(where),
    db
      .select(productColumns)
      .from(products)
      .innerJoin(games, eq(games.id, products.gameId))
      .where(where)
      .orderBy(asc(products.gameId), asc(products.sortOrder), asc(products.id))
      .limit(opts.limit)
      .offset(opts.offset),
  ])
  return { count: total[0]?.n ?? 0, results: rows.map(productOut) }
}

/** An active product of an active game; null otherwise. */
export async function getProduct(db: Db | Tx, id: number): Promise<ProductOut | null> {
  const [row] = await db
    .select(productColumns)
    .from(products)
    .innerJoin(games, eq(games.id, products.gameId))
    .where(and(eq(products.id, id), onSale))
  return row ? productOut(row) : null
}
