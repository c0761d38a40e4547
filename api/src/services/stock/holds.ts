// Stock held before paying. When an order's payment starts, the voucher or gift codes it needs are
// reserved for it until `held_until` (STOCK_HOLD_MINUTES); a payment cannot start without them, so
// nobody pays for codes that are gone. A hold needs no job to end: a code is free again once
// `held_until` has passed (the order clock also clears the holds of orders that expire or fail).
//
// An order's hold has an end (issue 38, decision 046): it runs STOCK_HOLD_MINUTES from the order's
// first payment start, and later starts keep it without extending it — once it is over, the order
// cannot hold codes again (a new order must be made). And one buyer (client address, email,
// account) holds at most STOCK_HOLD_MAX_CODES codes at once, so three guest orders cannot keep a
// product sold out.
//
// Concurrency: the free rows are claimed with SELECT … FOR UPDATE SKIP LOCKED inside one UPDATE, and
// the UPDATE re-checks that each row is still free, so two instances never hold the same code.
import { and, asc, eq, inArray, isNull, lte, notInArray, or, type SQL, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import {
  giftCodes,
  gifts,
  type OrderKind,
  orderProducts,
  orders,
  payments,
  products,
  voucherCodes,
} from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { emailKey } from '../identity/email-key'
import { emailKeySql } from '../identity/email-key-sql'

type CodeTable = typeof voucherCodes | typeof giftCodes

/** A code is free when it is unsold and not held, or its hold has run out. */
export function isFreeCode(t: CodeTable): SQL {
  return and(isNull(t.soldAt), or(isNull(t.heldUntil), lte(t.heldUntil, sql`now()`))) as SQL
}

/** What an order needs held: voucher codes per product, or one gift code. */
export interface StockNeed {
  table: 'voucher' | 'gift'
  /** product id (voucher) or gift id */
  itemId: number
  title: string
  quantity: number
}

export async function stockNeeds(
  db: Db | Tx,
  order: { id: string; kind: OrderKind; giftId: number | null },
): Promise<StockNeed[]> {
  if (order.kind === 'RokkyOrder') {
    if (order.giftId === null) return []
    const [g] = await db.select({ title: gifts.title }).from(gifts).where(eq(gifts.id, order.giftId))
    return [{ table: 'gift', itemId: order.giftId, title: g?.title ?? '', quantity: 1 }]
  }
  if (order.kind !== 'PUBGOrder') return []
  const rows = await db
    .select({
      productId: orderProducts.productId,
      title: products.title,
      quantity: sql<number>`sum(${orderProducts.quantity})::int`,
    })
    .from(orderProducts)
    .innerJoin(products, eq(products.id, orderProducts.productId))
    .where(eq(orderProducts.orderId, order.id))
    .groupBy(orderProducts.productId, products.title)
    .orderBy(asc(orderProducts.productId))
  return rows.map((r) => ({
    table: 'voucher',
    itemId: r.productId,
    title: r.title,
    quantity: Number(r.quantity),
  }))
}

function tableOf(need: Pick<StockNeed, 'table'>) {
  return need.table === 'voucher'
    ? { t: voucherCodes as CodeTable, item: voucherCodes.productId }
    : { t: giftCodes as CodeTable, item: giftCodes.giftId }
}

/** Codes of one item held by this order (unsold), oldest first. */
async function heldBy(tx: Tx, need: StockNeed, orderId: string) {
  const { t, item } = tableOf(need)
  return tx
    .select({ id: t.id })
    .from(t)
    .where(and(eq(t.heldBy, orderId), eq(item, need.itemId), isNull(t.soldAt)))
    .orderBy(asc(t.id))
}

/** Claims up to `n` free codes of an item for the order in one statement; the ids taken. */
async function claimFree(tx: Tx, need: StockNeed, orderId: string, n: number, until: Date) {
  const { t, item } = tableOf(need)
  const free = tx
    .select({ id: t.id })
    .from(t)
    .where(and(eq(item, need.itemId), isFreeCode(t)))
    .orderBy(asc(t.id))
    .limit(n)
    .for('update', { skipLocked: true })
  return tx
    .update(t)
    .set({ heldBy: orderId, heldUntil: until })
    .where(and(inArray(t.id, free), isFreeCode(t)))
    .returning({ id: t.id })
}

/** Free codes of an item as committed now (rows locked by others' open transactions included). */
export async function freeCount(db: Db | Tx, need: Pick<StockNeed, 'table' | 'itemId'>): Promise<number> {
  const { t, item } = tableOf(need)
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(t)
    .where(and(eq(item, need.itemId), isFreeCode(t)))
  return Number(row?.n ?? 0)
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The order a payment start holds codes for. */
export interface HoldingOrder {
  id: string
  kind: OrderKind
  giftId: number | null
  email: string | null
  userId: number | null
}

export interface HoldRules {
  /** STOCK_HOLD_MINUTES: the hold's whole length, from the order's first payment start. */
  minutes: number
  /** STOCK_HOLD_MAX_CODES: codes one buyer may hold at once. */
  maxHeldCodes: number
  /** The client network (IPv4 address, IPv6 /64) of this payment start ('unknown': none set). */
  address: string
}

/**
 * The end of the order's hold: STOCK_HOLD_MINUTES after its first payment start (now, for the
 * first one), and whether it has passed. Read from the database clock, the one `isFreeCode` uses.
 */
export async function holdEnd(
  tx: Tx,
  orderId: string,
  minutes: number,
): Promise<{ until: Date; over: boolean }> {
  const [row] = await tx
    .select({
      until: sql<Date>`coalesce(min(${payments.created}), now()) + make_interval(mins => ${minutes})`,
      over: sql<boolean>`coalesce(min(${payments.created}), now()) + make_interval(mins => ${minutes}) <= now()`,
    })
    .from(payments)
    .where(eq(payments.orderId, orderId))
  return { until: new Date(row!.until), over: Boolean(row!.over) }
}

/** Codes held right now by the buyer's other orders (same address, email or account). */
async function heldByBuyer(tx: Tx, order: HoldingOrder, address: string): Promise<number> {
  const buyer = or(
    address !== 'unknown' ? eq(orders.holdAddress, address) : undefined,
    order.email ? sql`${emailKeySql(orders.email)} = ${emailKey(order.email)}` : undefined,
    order.userId !== null ? eq(orders.userId, order.userId) : undefined,
  )
  if (!buyer) return 0
  let n = 0
  for (const t of [voucherCodes, giftCodes] as CodeTable[]) {
    const [row] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(t)
      .innerJoin(orders, eq(orders.id, t.heldBy))
      .where(and(isNull(t.soldAt), sql`${t.heldUntil} > now()`, sql`${orders.id} <> ${order.id}`, buyer))
    n += Number(row?.n ?? 0)
  }
  return n
}

/**
 * Holds what the order needs, inside the caller's transaction (the one that starts the payment),
 * until STOCK_HOLD_MINUTES after the order's first payment start: the order's current holds are
 * kept (not extended), surplus ones (the order shrank) are released, and the missing codes are
 * claimed. Throws 409 — nothing is kept: the caller's transaction rolls back — `hold_time_over`
 * when that time has passed, `hold_limit` when the buyer would hold more than allowed, and
 * `out_of_stock` when the codes are not there.
 */
export async function holdStock(tx: Tx, order: HoldingOrder, rules: HoldRules): Promise<void> {
  const needs = await stockNeeds(tx, order)
  await releaseOtherItems(tx, order.id, needs)
  if (needs.length === 0) return
  const { until, over } = await holdEnd(tx, order.id, rules.minutes)
  if (over) throw refuse('hold_time_over')
  const wanted = needs.reduce((sum, n) => sum + n.quantity, 0)
  if ((await heldByBuyer(tx, order, rules.address)) + wanted > rules.maxHeldCodes)
    throw refuse('hold_limit', { max: rules.maxHeldCodes })
  if (rules.address !== 'unknown')
    await tx.update(orders).set({ holdAddress: rules.address }).where(eq(orders.id, order.id))
  for (const need of needs) {
    const { t } = tableOf(need)
    const held = (await heldBy(tx, need, order.id)).map((r) => r.id)
    const keep = held.slice(0, need.quantity)
    const surplus = held.slice(need.quantity)
    if (surplus.length)
      await tx.update(t).set({ heldBy: null, heldUntil: null }).where(inArray(t.id, surplus))
    let missing = need.quantity - keep.length
    // A shortfall can be rows that another buyer's open transaction has locked and will give back
    // (its payment was refused): when committed stock says they exist, look again a few times.
    for (let attempt = 0; missing > 0; attempt++) {
      missing -= (await claimFree(tx, need, order.id, missing, until)).length
      if (missing === 0) break
      if (attempt >= 4 || (await freeCount(tx, need)) < missing)
        throw refuse('out_of_stock', {
          title: need.title,
          left: (await freeCount(tx, need)) + need.quantity - missing,
        })
      await pause(15 * (attempt + 1))
    }
  }
}

/** Holds of this order on items it no longer contains go back to stock. */
async function releaseOtherItems(tx: Tx, orderId: string, needs: StockNeed[]) {
  const vouchers = needs.filter((n) => n.table === 'voucher').map((n) => n.itemId)
  const giftIds = needs.filter((n) => n.table === 'gift').map((n) => n.itemId)
  await tx
    .update(voucherCodes)
    .set({ heldBy: null, heldUntil: null })
    .where(
      and(
        eq(voucherCodes.heldBy, orderId),
        isNull(voucherCodes.soldAt),
        vouchers.length ? notInArray(voucherCodes.productId, vouchers) : undefined,
      ),
    )
  await tx
    .update(giftCodes)
    .set({ heldBy: null, heldUntil: null })
    .where(
      and(
        eq(giftCodes.heldBy, orderId),
        isNull(giftCodes.soldAt),
        giftIds.length ? notInArray(giftCodes.giftId, giftIds) : undefined,
      ),
    )
}

/** Every unsold code held by the order goes back to stock (the order expired, failed or was cancelled). */
export async function releaseStockHolds(db: Db | Tx, orderId: string): Promise<void> {
  await releaseOtherItems(db as Tx, orderId, [])
}

/**
 * The free codes of a voucher product, counted up to `upTo`: enough to tell whether an order can
 * have them, and exactly how many are left when fewer (a full count reads every code in stock).
 */
export async function freeVoucherCount(
  db: Db | Tx,
  productId: number,
  upTo: number,
  /** Codes held by this order count as free for it. */
  forOrder?: string,
): Promise<number> {
  const usable = forOrder
    ? or(isFreeCode(voucherCodes), and(eq(voucherCodes.heldBy, forOrder), isNull(voucherCodes.soldAt)))
    : isFreeCode(voucherCodes)
  const some = db
    .select({ one: sql`1` })
    .from(voucherCodes)
    .where(and(eq(voucherCodes.productId, productId), usable))
    .limit(upTo)
    .as('some')
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(some)
  return Number(row?.n ?? 0)
}
