// The one place where order totals are computed. Every number comes from current database
// state (product and gift prices, Steam commission, promo percent, the buyer's balance); nothing
// the client sent about prices is ever used.
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import {
  gifts,
  type OrderKind,
  type OrderStatus,
  orderProducts,
  orders,
  type ProductKind,
  products,
  promoCodes,
  steamSettings,
  users,
} from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { applyBasisPoints } from '../../lib/money'
import { promoBase, promoDiscount } from '../promo/scope'
import { UNPAID_STATUSES } from './state-machine'

export interface PricedLine {
  /** order_products.id */
  id: number
  productId: number
  quantity: number
  /** unit price charged, kopecks */
  unitPrice: number
  product: {
    kind: ProductKind
    title: string
    picture: string
    amountUc: number | null
    gold: number | null
  }
}

export interface OrderTotals {
  orderId: string
  kind: OrderKind
  status: OrderStatus
  /** Before promo and balance: `total` and `total_without_promocode` on the wire. */
  total: number
  /** After the promo percent, before the balance. */
  totalWithPromo: number
  promoPercent: number | null
  balanceUsed: number
  /** What is left to pay by a payment method; never below zero. */
  totalToPay: number
  lines: PricedLine[]
  /** SteamOrder: the top-up amount and the commission added to it. */
  steam: { amount: number; commission: number; commissionBp: number } | null
}

/** Steam: the buyer pays the amount plus the commission (basis points, rounded half up). */
export function steamTotal(amount: number, commissionBp: number) {
  const commission = applyBasisPoints(amount, commissionBp)
  return { amount, commission, total: amount + commission }
}

/**
 * Promo percent first, on the part of the total it may discount (`base`: the whole total, or a Steam
 * top-up's commission; services/promo/scope.ts), then the balance, which can bring the rest to zero
 * but never below.
 */
export function applyPromoAndBalance(
  total: number,
  promoPercent: number | null,
  balance: number,
  base: number = total,
) {
  const totalWithPromo = Math.max(0, total - promoDiscount(Math.min(base, total), promoPercent))
  const balanceUsed = Math.max(0, Math.min(balance, totalWithPromo))
  return { totalWithPromo, balanceUsed, totalToPay: totalWithPromo - balanceUsed }
}

/** What the lines cost at their unit prices. */
export function linesTotal(lines: ReadonlyArray<{ quantity: number; unitPrice: number }>): number {
  return lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0)
}

/**
 * The totals of an order about to be stored that has no promo code and no balance to use (a
 * guest's), from the prices just read: the same numbers `recalculateOrder` would store, without
 * reading back what was just written.
 */
export function newOrderTotals(o: {
  orderId: string
  kind: OrderKind
  lines: PricedLine[]
  steam: { amount: number; commissionBp: number } | null
}): OrderTotals {
  const steam = o.steam
    ? { ...o.steam, commission: steamTotal(o.steam.amount, o.steam.commissionBp).commission }
    : null
  const total = steam ? steam.amount + steam.commission : linesTotal(o.lines)
  return {
    orderId: o.orderId,
    kind: o.kind,
    status: 'created',
    total,
    ...applyPromoAndBalance(total, null, 0),
    promoPercent: null,
    lines: o.lines,
    steam,
  }
}

/** The Steam commission now in force, in basis points (0 when not configured). */
export async function currentSteamCommission(db: Db | Tx): Promise<number> {
  const [row] = await db
    .select({ commission: steamSettings.commission })
    .from(steamSettings)
    .orderBy(asc(steamSettings.id))
    .limit(1)
  return row?.commission ?? 0
}

type Priced = OrderTotals & { stale: boolean; staleLines: PricedLine[] }

async function priceOrder(db: Db | Tx, orderId: string, lock: boolean): Promise<Priced> {
  const q = db
    .select({
      order: {
        id: orders.id,
        kind: orders.kind,
        status: orders.status,
        total: orders.total,
        totalToPay: orders.totalToPay,
        balanceUsed: orders.balanceUsed,
        steamAmount: orders.steamAmount,
      },
      promoPercent: promoCodes.percent,
      balance: users.balance,
      giftPrice: gifts.price,
      giftDiscountPrice: gifts.discountPrice,
    })
    .from(orders)
    .leftJoin(promoCodes, eq(promoCodes.id, orders.promoCodeId))
    .leftJoin(users, eq(users.id, orders.userId))
    .leftJoin(gifts, eq(gifts.id, orders.giftId))
    .where(eq(orders.id, orderId))
  const [row] = lock ? await q.for('update', { of: orders }) : await q
  if (!row) throw refuse('order_not_found')
  const o = row.order

  const lineRows = await db
    .select({
      id: orderProducts.id,
      productId: orderProducts.productId,
      quantity: orderProducts.quantity,
      storedPrice: orderProducts.price,
      price: products.price,
      discountPrice: products.discountPrice,
      kind: products.kind,
      title: products.title,
      picture: products.picture,
      amountUc: products.amountUc,
      gold: products.gold,
    })
    .from(orderProducts)
    .innerJoin(products, eq(products.id, orderProducts.productId))
    .where(eq(orderProducts.orderId, orderId))
    .orderBy(asc(orderProducts.id))

  const unpaid = UNPAID_STATUSES.includes(o.status)
  const lines: PricedLine[] = lineRows.map((l) => ({
    id: l.id,
    productId: l.productId,
    quantity: l.quantity,
    // a paid order keeps the prices it was paid at
    unitPrice: unpaid ? (l.discountPrice ?? l.price) : l.storedPrice,
    product: { kind: l.kind, title: l.title, picture: l.picture, amountUc: l.amountUc, gold: l.gold },
  }))

  let steam: OrderTotals['steam'] = null
  if (o.kind === 'SteamOrder') {
    const amount = o.steamAmount ?? 0
    const commissionBp = await currentSteamCommission(db)
    const s = steamTotal(amount, commissionBp)
    steam = unpaid
      ? { amount, commission: s.commission, commissionBp }
      : { amount, commission: o.total - amount, commissionBp }
  }

  const base = { orderId: o.id, kind: o.kind, status: o.status, promoPercent: row.promoPercent, lines, steam }
  if (!unpaid) {
    return {
      ...base,
      stale: false,
      staleLines: [],
      total: o.total,
      totalWithPromo: o.totalToPay + o.balanceUsed,
      balanceUsed: o.balanceUsed,
      totalToPay: o.totalToPay,
    }
  }

  let total: number
  if (steam) total = steam.amount + steam.commission
  // a gift order has no lines: it costs its gift
  else if (o.kind === 'RokkyOrder') total = row.giftDiscountPrice ?? row.giftPrice ?? 0
  else total = linesTotal(lines)
  const rest = applyPromoAndBalance(
    total,
    row.promoPercent,
    row.balance ?? 0,
    promoBase(o.kind, total, steam ? steam.amount : null),
  )
  const storedPrices = lineRows.map((l) => l.storedPrice)
  const staleLines = lines.filter((l, i) => l.unitPrice !== storedPrices[i])
  const stale =
    staleLines.length > 0 ||
    total !== o.total ||
    rest.totalToPay !== o.totalToPay ||
    rest.balanceUsed !== o.balanceUsed
  return { ...base, total, ...rest, stale, staleLines }
}

/**
 * Recomputes an order from current prices, promo and balance, and while it is unpaid stores the
 * result (order_products.price, orders.total, total_to_pay, balance_used). A paid order is not
 * touched: its stored numbers are returned. Safe to call inside a caller's transaction.
 */
export async function recalculateOrder(
  db: Db | Tx,
  orderId: string,
  opts: { ownsRow?: boolean } = {},
): Promise<OrderTotals> {
  // An order still inside the transaction that creates it is seen by no one else: price and write once.
  if (opts.ownsRow) return writeTotals(db, orderId, await priceOrder(db, orderId, false))
  const first = await priceOrder(db, orderId, false)
  if (!first.stale) return first
  // Something changed: write it under a row lock so a concurrent payment cannot interleave.
  return db.transaction(async (tx) => writeTotals(tx, orderId, await priceOrder(tx, orderId, true)))
}

async function writeTotals(tx: Db | Tx, orderId: string, t: Priced): Promise<Priced> {
  if (!t.stale) return t
  await tx
    .update(orders)
    .set({ total: t.total, totalToPay: t.totalToPay, balanceUsed: t.balanceUsed, updated: new Date() })
    .where(and(eq(orders.id, orderId), inArray(orders.status, [...UNPAID_STATUSES])))
  for (const l of t.staleLines) {
    await tx.update(orderProducts).set({ price: l.unitPrice }).where(eq(orderProducts.id, l.id))
  }
  return t
}
