// Checks shared by order creation and order updates. Each refusal is a 4xx with its own code.
import { z } from 'zod'
import { and, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { type GameKind, games, products, supplyServers, users } from '../../db/schema'
import { ApiError, fieldError, message } from '../../lib/errors'
import { refuse, refuseField } from '../../lib/domain-error'
import { parseMoney, toMoney } from '../../lib/money'
import { type GameRow, productKindOf } from '../catalogue/queries'
import { freeVoucherCount } from '../stock/holds'

export type ProductForOrder = typeof products.$inferSelect
export interface ResolvedLines {
  game: GameRow
  lines: Array<{ product: ProductForOrder; quantity: number }>
}

/**
 * Turns requested lines into priced-later lines: zero quantities dropped, at least one line,
 * no product twice, every product known, active, of one active game of `kind` (and of `gameId`
 * when given), each quantity within the product's min/max.
 */
export async function resolveLines(
  db: Db | Tx,
  requested: ReadonlyArray<{ productId: number; quantity: number }>,
  kind: GameKind,
  gameId?: number,
  /** The order being changed: the codes it holds count as available to it. */
  orderId?: string,
): Promise<ResolvedLines> {
  const wanted = requested.filter((l) => l.quantity > 0)
  if (wanted.length === 0) throw refuseField('products', 'order_empty')
  const seen = new Set<number>()
  for (const l of wanted) {
    if (seen.has(l.productId)) throw refuseField('products', 'order_duplicate_product', { id: l.productId })
    seen.add(l.productId)
  }
  const rows = await db
    .select({ product: products, game: games })
    .from(products)
    .innerJoin(games, eq(games.id, products.gameId))
    .where(
      inArray(
        products.id,
        wanted.map((l) => l.productId),
      ),
    )
  const byId = new Map(rows.map((r) => [r.product.id, r]))
  for (const l of wanted) {
    if (!byId.has(l.productId)) throw refuseField('products', 'order_product_unknown', { id: l.productId })
  }
  const game = rows[0]!.game
  if (rows.some((r) => r.game.id !== game.id) || (gameId !== undefined && game.id !== gameId))
    throw refuseField('products', 'order_products_mixed_games')
  if (game.kind !== kind) throw refuseField('products', 'order_wrong_game_kind')
  if (!game.isActive) throw refuseField('products', 'order_game_unavailable')
  const lines = wanted.map((l) => {
    const { product } = byId.get(l.productId)!
    if (product.kind !== productKindOf(kind)) throw refuseField('products', 'order_wrong_game_kind')
    if (!product.isActive) throw refuseField('products', 'order_product_inactive', { title: product.title })
    if (l.quantity < product.minQuantity)
      throw refuseField('products', 'order_quantity_below_min', {
        title: product.title,
        min: product.minQuantity,
      })
    if (l.quantity > product.maxQuantity)
      throw refuseField('products', 'order_quantity_above_max', {
        title: product.title,
        max: product.maxQuantity,
      })
    return { product, quantity: l.quantity }
  })
  if (kind === 'PUBGGame') await assertVoucherStock(db, lines, orderId)
  return { game, lines }
}

/**
 * Voucher products are sold from a code inventory: one that has fewer free codes than asked for
 * cannot be ordered (409, «нет в наличии»). Advisory only: the codes are held when payment starts.
 */
async function assertVoucherStock(db: Db | Tx, lines: ResolvedLines['lines'], orderId?: string) {
  for (const l of lines) {
    const left = await freeVoucherCount(db, l.product.id, l.quantity, orderId)
    if (left >= l.quantity) continue
    const detail =
      left === 0
        ? message('sold_out', { title: l.product.title })
        : message('out_of_stock', { title: l.product.title, left })
    throw new ApiError(409, left === 0 ? 'sold_out' : 'out_of_stock', detail, { products: [detail] })
  }
}

const emailFormat = z.email()

/** A present, well-formed email (lower-cased), or null when none was given. */
export function parseEmail(given: string | null | undefined): string | null {
  const email = given?.trim()
  if (!email) return null
  if (!emailFormat.safeParse(email).success) throw refuseField('email', 'order_email_invalid')
  return email.toLowerCase()
}

/**
 * Who buys and where the order is sent: a game with is_auth_required refuses guests (403);
 * guests must give an email; signed-in users default to their account email.
 */
export async function resolveBuyer(
  db: Db | Tx,
  game: Pick<GameRow, 'isAuthRequired'>,
  userId: number | null,
  givenEmail: string | null | undefined,
): Promise<{ userId: number | null; email: string }> {
  const email = parseEmail(givenEmail)
  if (userId === null) {
    if (game.isAuthRequired) throw refuse('order_auth_required')
    if (!email) throw refuseField('email', 'order_email_required')
    return { userId, email }
  }
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId))
  // a token of a deleted account is no longer a session
  if (!user) throw refuse('not_authenticated')
  const resolved = email ?? user.email
  if (!resolved) throw refuseField('email', 'order_email_required')
  return { userId, email: resolved }
}

/** Surplus 0.00–0.23 in steps of 0.01, as hundredths (0–23). Missing means 0. */
export function parseSurplus(v: string | number | null | undefined): number {
  if (v === null || v === undefined || v === '') return 0
  if (typeof v === 'number' && !Number.isFinite(v)) throw refuseField('surplus', 'surplus_invalid')
  const hundredths = parseMoney(typeof v === 'number' ? String(v) : v)
  if (hundredths === null || hundredths > 23) throw refuseField('surplus', 'surplus_invalid')
  return hundredths
}

/** Steam amount in kopecks within the configured bounds. */
export function parseSteamAmount(
  v: string | number,
  bounds: { minAmount: number; maxAmount: number },
): number {
  if (typeof v === 'number' && !Number.isFinite(v)) throw refuseField('amount', 'steam_amount_invalid')
  const amount = parseMoney(typeof v === 'number' ? String(v) : v)
  if (amount === null) throw refuseField('amount', 'steam_amount_invalid')
  if (amount < bounds.minAmount)
    throw refuseField('amount', 'steam_amount_below_min', { min: toMoney(bounds.minAmount) })
  if (amount > bounds.maxAmount)
    throw refuseField('amount', 'steam_amount_above_max', { max: toMoney(bounds.maxAmount) })
  return amount
}

/** A required free-text field: trimmed, non-empty. */
export function required(
  v: string | null | undefined,
  field: string,
  code: Parameters<typeof fieldError>[1],
) {
  const s = v?.trim()
  if (!s) throw fieldError(field, code)
  return s
}

/**
 * Where a supply-channel order is delivered. A game that needs a server takes one from its list
 * (by id) when is_server_enum, or a free-text id otherwise; a game that needs none stores none.
 */
export async function resolveSupplyServer(
  db: Db | Tx,
  game: Pick<GameRow, 'id' | 'isServerNeeded' | 'isServerEnum'>,
  serverId: number | string | null | undefined,
  customId: string | null | undefined,
  fields: { server: string; custom: string },
): Promise<{ server: number | null; customId: string | null }> {
  if (!game.isServerNeeded) return { server: null, customId: null }
  if (!game.isServerEnum) {
    return { server: null, customId: required(customId, fields.custom, 'supply_server_custom_required') }
  }
  if (serverId === null || serverId === undefined || serverId === '')
    throw refuseField(fields.server, 'supply_server_required')
  const id = Number(serverId)
  const [row] = await db
    .select({ id: supplyServers.id })
    .from(supplyServers)
    .where(and(eq(supplyServers.id, id), eq(supplyServers.gameId, game.id)))
  if (!row) throw refuseField(fields.server, 'supply_server_unknown')
  return { server: row.id, customId: null }
}
