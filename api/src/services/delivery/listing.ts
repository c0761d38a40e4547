// Standoff 2 gold is delivered by the shop buying the buyer's skin on the in-game market, so the
// price the buyer lists it at is the order's fingerprint: the server computes it (the Standoff
// settings plus the surplus) and keeps it unique among open orders, so an operator can tell whose
// listing is whose (decision 043). Only 24 prices exist per pack, so a price is held like stock
// (issue 42): claimed when a payment starts, not when the order is made, and given back when that
// payment's hold ends (STOCK_HOLD_MINUTES from the first start) or the payment fails; one buyer
// holds at most STOCK_HOLD_MAX_LISTINGS at once.
import { randomInt } from 'node:crypto'
import {
  and,
  asc,
  between,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  ne,
  not,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { orderProducts, orders, payments, products, standoffSettings } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { emailKey } from '../identity/email-key'
import { emailKeySql } from '../identity/email-key-sql'
import { standoffListingPrice } from '../../../../shared/standoff-listing'

/** Surplus values in hundredths of a gold: 0.00–0.23 (spec §9). */
export const SURPLUS_VALUES = 24

/** Every Standoff listing claim takes this lock: the check of free prices and the insert are one step. */
const LISTING_LOCK_KEY = 7_419_031

/**
 * The surplus to use for a listing whose price without surplus is `base`: the one asked for when
 * no open order lists at base + it, else a free one (from a random start), else null (all taken).
 */
export function freeSurplus(
  base: number,
  taken: ReadonlySet<number>,
  wanted: number,
  start: number,
): number | null {
  if (!taken.has(base + wanted)) return wanted
  for (let i = 0; i < SURPLUS_VALUES; i++) {
    const s = (start + i) % SURPLUS_VALUES
    if (!taken.has(base + s)) return s
  }
  return null
}

export async function standoffSettingsRow(db: Db | Tx) {
  const [s] = await db.select().from(standoffSettings).orderBy(asc(standoffSettings.id)).limit(1)
  return s ?? null
}

/** The listing price an order will ask for before any payment: none claimed yet (issue 42). */
export async function tentativeListing(
  tx: Tx,
  wantedSurplus: number,
): Promise<{ surplus: number | null; listingPrice: null }> {
  const s = await standoffSettingsRow(tx)
  return { surplus: s?.isSurplusEnabled === false ? null : wantedSurplus, listingPrice: null }
}

/** An unpaid order's claim is live while its hold runs and one of its payments is still pending. */
const pendingPayment = sql`exists (select 1 from ${payments} where ${payments.orderId} = ${orders.id} and ${payments.status} = 'pending')`
export const liveClaim = and(
  isNull(orders.paidAt),
  gt(orders.listingHeldUntil, sql`now()`),
  pendingPayment,
) as SQL

export interface ListingRules {
  /** When the order's hold ends (STOCK_HOLD_MINUTES from its first payment start). */
  until: Date
  /** STOCK_HOLD_MAX_LISTINGS: listing prices one buyer may hold at once. */
  maxHeldListings: number
  /** The client network of this payment start ('unknown' when none was set). */
  network: string
}

/** Listing prices held right now by the buyer's other unpaid orders (same network, email or account). */
async function claimsByBuyer(tx: Tx, order: StandoffOrderRow, network: string): Promise<number> {
  const buyer = or(
    network !== 'unknown' ? eq(orders.holdAddress, network) : undefined,
    order.email ? sql`${emailKeySql(orders.email)} = ${emailKey(order.email)}` : undefined,
    order.userId !== null ? eq(orders.userId, order.userId) : undefined,
  )
  if (!buyer) return 0
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(buyer, ne(orders.id, order.id), eq(orders.kind, 'StandoffOrder'), liveClaim))
  return Number(row?.n ?? 0)
}

type StandoffOrderRow = Pick<
  typeof orders.$inferSelect,
  'id' | 'email' | 'userId' | 'surplus' | 'listingPrice'
>

/**
 * Claims the listing price of a Standoff order when its payment starts (issue 42), inside the
 * payment start's transaction: under one advisory lock (every instance, both databases) claims
 * that lapsed (their hold ended or their payment failed, the order unpaid) are given back, and a
 * free price is chosen among the open orders' (paid ones keep theirs until done or failed; the
 * partial unique index orders_open_listing_price_uq backs it up). The order keeps its surplus when
 * that price is free. Refused with 409: `listing_hold_limit` when the buyer already holds
 * STOCK_HOLD_MAX_LISTINGS prices, `standoff_listing_busy` with the minutes until the first claim
 * ends, `standoff_listing_busy_paid` when paid orders hold every price. With the surplus switched
 * off the order lists at the bare price and claims nothing.
 */
export async function claimListingPrice(
  tx: Tx,
  order: StandoffOrderRow,
  rules: ListingRules,
): Promise<{ surplus: number | null; listingPrice: number }> {
  const [gold] = await tx
    .select({ h: sql<number>`coalesce(sum(${products.gold} * ${orderProducts.quantity}), 0)::int * 100` })
    .from(orderProducts)
    .innerJoin(products, eq(products.id, orderProducts.productId))
    .where(eq(orderProducts.orderId, order.id))
  const s = await standoffSettingsRow(tx)
  const base = standoffListingPrice(Number(gold?.h ?? 0), s?.marketFee ?? 0, 0)
  if (s?.isSurplusEnabled === false) {
    await tx.update(orders).set({ surplus: null, listingPrice: base }).where(eq(orders.id, order.id))
    return { surplus: null, listingPrice: base }
  }
  if ((await claimsByBuyer(tx, order, rules.network)) >= rules.maxHeldListings)
    throw refuse('listing_hold_limit', { max: rules.maxHeldListings })
  await tx.execute(sql`select pg_advisory_xact_lock(${LISTING_LOCK_KEY})`)
  const range = between(orders.listingPrice, base, base + SURPLUS_VALUES - 1)
  // lapsed claims of unpaid orders go back (their order may claim again at its next payment start)
  await tx
    .update(orders)
    .set({ listingPrice: null, listingHeldUntil: null })
    .where(
      and(
        range,
        ne(orders.id, order.id),
        inArray(orders.status, ['created', 'waiting_for_payment']),
        isNull(orders.paidAt),
        not(liveClaim),
      ),
    )
  const rows = await tx
    .select({ price: orders.listingPrice, until: orders.listingHeldUntil, paid: orders.paidAt })
    .from(orders)
    .where(
      and(
        isNotNull(orders.surplus),
        notInArray(orders.status, ['done', 'failed']),
        range,
        ne(orders.id, order.id),
      ),
    )
  const taken = new Set(rows.map((r) => r.price ?? -1))
  const kept = order.listingPrice !== null ? order.listingPrice - base : (order.surplus ?? 0)
  const wanted = kept >= 0 && kept < SURPLUS_VALUES ? kept : 0
  const surplus = freeSurplus(base, taken, wanted, randomInt(SURPLUS_VALUES))
  if (surplus === null) {
    const ends = rows.filter((r) => !r.paid && r.until).map((r) => r.until!.getTime())
    if (!ends.length) throw refuse('standoff_listing_busy_paid')
    const minutes = Math.max(1, Math.ceil((Math.min(...ends) - Date.now()) / 60_000))
    throw refuse('standoff_listing_busy', { minutes })
  }
  const claimed = { surplus, listingPrice: base + surplus }
  await tx
    .update(orders)
    .set({
      ...claimed,
      listingHeldUntil: rules.until,
      holdAddress: rules.network !== 'unknown' ? rules.network : undefined,
    })
    .where(eq(orders.id, order.id))
  return claimed
}

/**
 * A Standoff order paid after its claim lapsed and was given to another order: it claims a price
 * again at settlement (the payment is never refused for it); when every price is taken it is paid
 * without one and the delivery desk shows none (the operator asks the buyer). True when it has one.
 */
export async function keepListingOnPay(tx: Tx, orderId: string): Promise<boolean> {
  const [o] = await tx
    .select({ kind: orders.kind, surplus: orders.surplus, listingPrice: orders.listingPrice })
    .from(orders)
    .where(eq(orders.id, orderId))
  if (o?.kind !== 'StandoffOrder' || o.listingPrice !== null || o.surplus === null) return true
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId))
  try {
    await tx.execute(sql`savepoint listing_on_pay`)
    await claimListingPrice(tx, order!, {
      until: new Date(),
      maxHeldListings: SURPLUS_VALUES,
      network: 'unknown',
    })
    await tx.execute(sql`release savepoint listing_on_pay`)
    return true
  } catch {
    await tx.execute(sql`rollback to savepoint listing_on_pay`)
    return false
  }
}

/** Marks that the buyer listed the skin (the «Я выставил скин» button); true when it is new. */
export async function markSkinListed(db: Db | Tx, orderId: string): Promise<boolean> {
  const rows = await db
    .update(orders)
    .set({ skinListedAt: new Date() })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.kind, 'StandoffOrder'),
        sql`${orders.skinListedAt} is null`,
        inArray(orders.status, ['created', 'waiting_for_payment', 'paid', 'sending', 'sent']),
      ),
    )
    .returning({ id: orders.id })
  return rows.length === 1
}
