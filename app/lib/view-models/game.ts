// The one place where the API's snake_case Game and Product become the storefront's camelCase
// view models (§3). Money becomes integer kopecks here, so nothing downstream parses strings.
import {
  assertGameKind,
  assertProductKind,
  type GameKind,
  type ProductKind,
} from '#app/lib/api/resourcetypes'
import { type Kopecks, parseMoney } from '#app/lib/money'
import type { components } from '#openapi/schema'

export type { GameKind, ProductKind }

type Schemas = components['schemas']
export type GameWire = Schemas['Game']
export type ProductWire = Schemas['Product']

export interface Product {
  kind: ProductKind
  id: number
  title: string
  /** List price per unit. */
  price: Kopecks
  /** Discounted unit price, or null when there is no discount. */
  discountPrice: Kopecks | null
  /** What one unit costs now: the discounted price when there is one. */
  unitPrice: Kopecks
  discountPercent: number
  picture: string
  minQuantity: number
  maxQuantity: number
  isActive: boolean
  /** False while fewer codes are free than one order needs (voucher products); «Нет в наличии». */
  inStock: boolean
  /** How many are left when few are (the API says so only then, issue 50); null otherwise. */
  stockLeft: number | null
  amountUc: number | null
  gold: number | null
}

export interface SupplyServer {
  id: number
  name: string
}

/**
 * A game as the storefront shows it. The API's `created`, `tags` and `product_preview_*` are left
 * out: no storefront page shows them, and each game page and catalogue page carried them to the
 * browser in its data (issue 46).
 */
export interface Game {
  kind: GameKind
  id: number
  title: string
  detailTitle: string
  detailDescription: string
  logo: string
  /** A person delivers its orders, usually within this many minutes; null: at once (issue 31) */
  deliveryMinutes: number | null
  isAuthRequired: boolean
  discountPercent: number
  isActive: boolean
  products: Product[]
  /** SupplyGame only; empty / false for the other kinds. */
  servers: SupplyServer[]
  isServerNeeded: boolean
  isServerEnum: boolean
  /** The API can look up the player id typed for this game (our `player_check` extension). */
  playerCheck: boolean
}

/** A catalogue card: the game without its products. */
export type GameCard = Omit<Game, 'products' | 'servers' | 'isServerNeeded' | 'isServerEnum' | 'playerCheck'>

function money(text: string, what: string): Kopecks {
  const value = parseMoney(text)
  if (value === null) throw new TypeError(`bad money value for ${what}: ${text}`)
  return value
}

export function toProduct(p: ProductWire): Product {
  const price = money(p.price, `product ${p.id} price`)
  const discountPrice = p.discount_price === null ? null : money(p.discount_price, `product ${p.id} discount`)
  return {
    kind: assertProductKind(p.resourcetype),
    id: p.id,
    title: p.title,
    price,
    discountPrice,
    unitPrice: discountPrice !== null && discountPrice < price ? discountPrice : price,
    discountPercent: p.discount_percent,
    picture: p.picture,
    minQuantity: p.min_quantity,
    maxQuantity: p.max_quantity,
    isActive: p.is_active,
    inStock: !('in_stock' in p && p.in_stock === false),
    stockLeft: 'stock_left' in p && typeof p.stock_left === 'number' ? p.stock_left : null,
    amountUc: 'amount_uc' in p ? p.amount_uc : null,
    gold: 'gold' in p ? p.gold : null,
  }
}

export function toGameCard(g: GameWire): GameCard {
  return {
    kind: assertGameKind(g.resourcetype),
    id: g.id,
    title: g.title,
    detailTitle: g.detail_title,
    detailDescription: g.detail_description,
    logo: g.logo,
    deliveryMinutes: g.delivery_minutes ?? null,
    isAuthRequired: g.is_auth_required,
    discountPercent: g.discount_percent,
    isActive: g.is_active,
  }
}

export function toGame(g: GameWire): Game {
  const supply = g.resourcetype === 'SupplyGame' ? g : null
  return {
    ...toGameCard(g),
    products: (g.products as ProductWire[]).map(toProduct),
    servers: (supply?.servers ?? []).map((s) => ({ id: s.id, name: s.name })),
    isServerNeeded: supply?.is_server_needed ?? false,
    isServerEnum: supply?.is_server_enum ?? false,
    // an API that does not offer the extension simply has no check
    playerCheck: 'player_check' in g && g.player_check === true,
  }
}

/** Products that can be bought now. */
export function activeProducts(game: Game): Product[] {
  return game.products.filter((p) => p.isActive)
}
