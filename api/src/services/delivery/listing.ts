// Standoff 2 gold is delivered by the shop buying the buyer's skin on the in-game market, so the
// price the buyer lists it at is the order's fingerprint: the server computes it when the order is
// made (the Standoff settings of that moment plus the surplus) and keeps it unique among open
// orders, so an operator can tell whose listing is whose (decision 043).
import { randomInt } from 'node:crypto'
import { and, asc, between, eq, inArray, isNotNull, ne, notInArray, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { orders, standoffSettings } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
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

/**
 * Claims a listing price for a Standoff order inside the transaction that writes it: under one
 * advisory lock (every instance, both databases) the open orders' prices near this one are read and
 * a free surplus chosen; the partial unique index orders_open_listing_price_uq backs it up. With the
 * surplus switched off the order carries none and its price is not claimed. 409 when all 24 are taken.
 */
export async function claimListingPrice(
  tx: Tx,
  opts: { goldHundredths: number; wantedSurplus: number; exceptOrderId?: string },
): Promise<{ surplus: number | null; listingPrice: number }> {
  const s = await standoffSettingsRow(tx)
  const feeBp = s?.marketFee ?? 0
  const base = standoffListingPrice(opts.goldHundredths, feeBp, 0)
  if (s?.isSurplusEnabled === false) return { surplus: null, listingPrice: base }
  await tx.execute(sql`select pg_advisory_xact_lock(${LISTING_LOCK_KEY})`)
  const filters = [
    isNotNull(orders.surplus),
    notInArray(orders.status, ['done', 'failed']),
    between(orders.listingPrice, base, base + SURPLUS_VALUES - 1),
  ]
  if (opts.exceptOrderId) filters.push(ne(orders.id, opts.exceptOrderId))
  const rows = await tx
    .select({ price: orders.listingPrice })
    .from(orders)
    .where(and(...filters))
  const taken = new Set(rows.map((r) => r.price ?? -1))
  const surplus = freeSurplus(base, taken, opts.wantedSurplus, randomInt(SURPLUS_VALUES))
  if (surplus === null) throw refuse('standoff_listing_busy')
  return { surplus, listingPrice: base + surplus }
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
