import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Tx } from '../../db/client'
import { orders, promoCodes, users } from '../../db/schema'
import { ApiError } from '../../lib/errors'
import { refuse } from '../../lib/domain-error'
import { toMoney } from '../../lib/money'
import type { Actor } from '../actor'
import { loadOrderForCaller, type OrderRow } from '../orders/access'
import { type OrderTotals, recalculateOrder } from '../orders/pricing'
import { UNPAID_STATUSES } from '../orders/state-machine'
import { supersedePendingPayments } from '../payments/settle'
import {
  assertPromoFitsOrder,
  assertPromoUsable,
  findUsablePromo,
  type PromoRow,
  serializePromo,
} from './rules'

export async function buyerEmail(tx: Tx, order: Pick<OrderRow, 'email' | 'userId'>): Promise<string | null> {
  if (order.email) return order.email
  if (order.userId === null) return null
  const [u] = await tx.select({ email: users.email }).from(users).where(eq(users.id, order.userId))
  return u?.email ?? null
}

export function promoResult(order: OrderRow, promo: PromoRow | null, t: OrderTotals) {
  return {
    order_id: order.id,
    promo_code: promo ? serializePromo(promo) : null,
    total_without_promocode: toMoney(t.total),
    total_with_promocode: toMoney(t.totalWithPromo),
    balance_used: toMoney(t.balanceUsed),
    total_to_pay: toMoney(t.totalToPay),
  }
}

class Preview extends Error {
  constructor(readonly value: ReturnType<typeof promoResult>) {
    super('preview')
  }
}

async function lockUnpaid(actor: Actor, tx: Tx, orderId: string): Promise<OrderRow> {
  const order = await loadOrderForCaller(tx, actor, orderId, { lock: true })
  if (!UNPAID_STATUSES.includes(order.status)) throw refuse('promo_order_paid')
  return order
}

async function applyChecked(actor: Actor, tx: Tx, orderId: string, code: string) {
  const order = await lockUnpaid(actor, tx, orderId)
  const promo = await findUsablePromo(tx, code, { email: await buyerEmail(tx, order) })
  await assertPromoFitsOrder(tx, promo, order)
  await tx.update(orders).set({ promoCodeId: promo.id, updated: new Date() }).where(eq(orders.id, order.id))
  const totals = await recalculateOrder(tx, order.id)
  return promoResult(order, promo, totals)
}

/** Applies a code to an unpaid order (the totals are recomputed by recalculateOrder). */
export async function activateOrderPromo(deps: ApiDeps, actor: Actor, orderId: string, code: string) {
  return deps.db.transaction(async (tx) => {
    const res = await applyChecked(actor, tx, orderId, code)
    await supersedePendingPayments(tx, res.order_id)
    return res
  })
}

/** The same checks and the totals the code would give, with nothing stored (the work is rolled back). */
export async function previewOrderPromo(deps: ApiDeps, actor: Actor, orderId: string, code: string) {
  try {
    await deps.db.transaction(async (tx) => {
      throw new Preview(await applyChecked(actor, tx, orderId, code))
    })
  } catch (e) {
    if (e instanceof Preview) return e.value
    throw e
  }
  throw new Error('unreachable')
}

export async function deactivateOrderPromo(deps: ApiDeps, actor: Actor, orderId: string) {
  return deps.db.transaction(async (tx) => {
    const order = await lockUnpaid(actor, tx, orderId)
    if (order.promoCodeId !== null) {
      await tx.update(orders).set({ promoCodeId: null, updated: new Date() }).where(eq(orders.id, order.id))
      await supersedePendingPayments(tx, order.id)
    }
    return promoResult(order, null, await recalculateOrder(tx, order.id))
  })
}

export async function activeOrderPromo(deps: ApiDeps, actor: Actor, orderId: string): Promise<PromoRow> {
  const order = await loadOrderForCaller(deps.db, actor, orderId)
  if (order.promoCodeId === null) throw refuse('promo_code_not_active')
  const [p] = await deps.db.select().from(promoCodes).where(eq(promoCodes.id, order.promoCodeId))
  if (!p) throw refuse('promo_code_not_active')
  return p
}

/**
 * The account-level code (users.active_promo_code_id) goes onto an unpaid order of its game/gift
 * that has no code yet, when it is still usable by the buyer. Silent when it does not fit. Call it
 * before recalculateOrder when an order is created, and it runs for open orders on activation.
 */
export async function applyAccountPromo(tx: Tx, orderId: string): Promise<boolean> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId))
  if (!order || order.userId === null || order.promoCodeId !== null) return false
  if (!UNPAID_STATUSES.includes(order.status)) return false
  const [u] = await tx
    .select({ promoId: users.activePromoCodeId, email: users.email })
    .from(users)
    .where(eq(users.id, order.userId))
  if (!u?.promoId) return false
  const [promo] = await tx.select().from(promoCodes).where(eq(promoCodes.id, u.promoId))
  if (!promo) return false
  try {
    await assertPromoUsable(tx, promo, { email: order.email ?? u.email })
    await assertPromoFitsOrder(tx, promo, order)
  } catch {
    return false
  }
  await tx
    .update(orders)
    .set({ promoCodeId: promo.id, updated: new Date() })
    .where(and(eq(orders.id, order.id), isNull(orders.promoCodeId)))
  await supersedePendingPayments(tx, order.id)
  return true
}

/** Applies a newly activated account code to the user's open orders of its game or gift. */
export async function applyAccountPromoToOpenOrders(tx: Tx, userId: number, promo: PromoRow): Promise<void> {
  const open = await tx
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.userId, userId),
        isNull(orders.promoCodeId),
        inArray(orders.status, [...UNPAID_STATUSES]),
        promo.kind === 'PromoCode'
          ? promo.gameId === null
            ? isNotNull(orders.gameId)
            : eq(orders.gameId, promo.gameId)
          : promo.giftId === null
            ? isNotNull(orders.giftId)
            : eq(orders.giftId, promo.giftId),
      ),
    )
  for (const o of open) if (await applyAccountPromo(tx, o.id)) await recalculateOrder(tx, o.id)
}

/**
 * At payment start, inside a transaction holding the order: the order's code must still be usable
 * by its buyer (the email may have changed, another order may have used it, it may have expired
 * or run out). If not, it comes off the order and the order is re-priced; the caller commits that
 * and tells the shopper why (promo_code_dropped) instead of starting the payment.
 */
export async function dropUnusablePromo(
  tx: Tx,
  orderId: string,
): Promise<{ code: string; reason: string } | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
  if (!order || order.promoCodeId === null || !UNPAID_STATUSES.includes(order.status)) return null
  const [promo] = await tx.select().from(promoCodes).where(eq(promoCodes.id, order.promoCodeId))
  try {
    if (!promo) throw refuse('promo_code_inactive')
    await assertPromoUsable(tx, promo, { email: await buyerEmail(tx, order) })
    await assertPromoFitsOrder(tx, promo, order)
    return null
  } catch (e) {
    if (!(e instanceof ApiError)) throw e
    await tx.update(orders).set({ promoCodeId: null, updated: new Date() }).where(eq(orders.id, order.id))
    if (order.userId !== null)
      await tx
        .update(users)
        .set({ activePromoCodeId: null })
        .where(and(eq(users.id, order.userId), eq(users.activePromoCodeId, order.promoCodeId)))
    await supersedePendingPayments(tx, order.id)
    await recalculateOrder(tx, order.id)
    return { code: promo?.code ?? '', reason: e.message.charAt(0).toLowerCase() + e.message.slice(1) }
  }
}
