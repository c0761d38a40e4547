// Gift orders (RokkyOrder): one gift, delivered as one code after payment. Creation reuses the
// order service's buyer rule and idempotency helpers; totals come from the one pricing module.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db, Tx } from '../../db/client'
import { orders, promoCodes } from '../../db/schema'
import { ApiError, fieldError, message } from '../../lib/errors'
import { refuseField } from '../../lib/domain-error'
import { toMoney } from '../../lib/money'
import type { Actor } from '../actor'
import { recordConsent } from '../consent/record'
import type { OrderRow } from '../orders/access'
import { findReplay, isUniqueViolation, requestHash } from '../orders/idempotency'
import { recalculateOrder } from '../orders/pricing'
import { applyAccountPromo } from '../promo/orders'
import { changeOrder } from '../orders/update'
import { parseEmail, resolveBuyer } from '../orders/validate'
import { getActiveGift, type GiftRow } from './catalogue'

/** Gifts need no account: guests buy them with an email. */
const GIFTS_NEED_NO_ACCOUNT = { isAuthRequired: false }

/** A gift that can be ordered now: active (else 400 on `gift`) and with a free code (else 409). */
async function orderableGift(db: Db | Tx, giftId: number): Promise<GiftRow> {
  const found = await getActiveGift(db, giftId).catch((err: unknown) => {
    if (err instanceof ApiError && err.status === 404) throw fieldError('gift', 'gift_not_found')
    throw err
  })
  if (!found.inStock) {
    const detail = message('gift_out_of_stock', { title: found.gift.title })
    throw new ApiError(409, 'gift_out_of_stock', detail, { gift: [detail] })
  }
  return found.gift
}

/** §3 creation result: id, total and the gift id. */
function rokkyResult(order: Pick<OrderRow, 'id' | 'giftId'>, total: number) {
  return { id: order.id, total: toMoney(total), gift: order.giftId ?? 0 }
}

export interface RokkyCreateInput {
  gift: number
  email?: string | null
}

/**
 * Creates a gift order priced from the database (discount price when set). With an idempotency
 * key the same request again answers the first order (`replay`), another request with the key is
 * a 409, and racing requests with one key make one order (the unique index decides).
 */
export async function createRokkyOrder(
  db: Db,
  input: RokkyCreateInput,
  userId: number | null,
  key: string | undefined,
) {
  const hash = key ? requestHash('rokky', input, userId) : null
  const replayOf = async () => {
    if (!key || !hash) return null
    const order = await findReplay(db, key, hash)
    if (!order) return null
    const totals = await recalculateOrder(db, order.id)
    return { result: rokkyResult(order, totals.total), replay: true }
  }
  const earlier = await replayOf()
  if (earlier) return earlier

  const buyer = await resolveBuyer(db, GIFTS_NEED_NO_ACCOUNT, userId, input.email)
  const gift = await orderableGift(db, input.gift)
  try {
    return await db.transaction(async (tx) => {
      const [order] = await tx
        .insert(orders)
        .values({
          id: randomUUID(),
          kind: 'RokkyOrder',
          giftId: gift.id,
          userId: buyer.userId,
          email: buyer.email,
          total: 0,
          totalToPay: 0,
          idempotencyKey: key ?? null,
          requestHash: hash,
        })
        .returning()
      if (buyer.userId !== null) await applyAccountPromo(tx, order!.id)
      const totals = await recalculateOrder(tx, order!.id)
      return { result: rokkyResult(order!, totals.total), replay: false }
    })
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    const winner = await replayOf()
    if (winner) return winner
    throw err
  }
}

/** Swaps the gift of an unpaid gift order; a promo code for another gift stops applying. */
export function changeRokkyGift(deps: ApiDeps, actor: Actor, id: string, giftId: number) {
  return changeOrder(deps, actor, id, 'RokkyOrder', async (tx, order) => {
    const gift = await orderableGift(tx, giftId)
    let promoCodeId = order.promoCodeId
    if (promoCodeId !== null) {
      const [promo] = await tx
        .select({ kind: promoCodes.kind, giftId: promoCodes.giftId })
        .from(promoCodes)
        .where(eq(promoCodes.id, promoCodeId))
      if (promo?.kind === 'GiftPromoCode' && promo.giftId !== null && promo.giftId !== gift.id)
        promoCodeId = null
    }
    await tx
      .update(orders)
      .set({ giftId: gift.id, promoCodeId, updated: new Date() })
      .where(eq(orders.id, order.id))
  })
}

/** Changes the delivery email of an unpaid gift order. */
export function changeRokkyEmail(deps: ApiDeps, actor: Actor, id: string, given: string) {
  const email = parseEmail(given)
  if (!email) throw refuseField('email', 'order_email_required')
  return changeOrder(deps, actor, id, 'RokkyOrder', async (tx, order) => {
    await tx.update(orders).set({ email, updated: new Date() }).where(eq(orders.id, order.id))
  })
}

/**
 * Records the buyer's answer to the personal-data consent of a new gift order, under the order's
 * own email (else the one given).
 */
export async function recordGiftOrderConsent(
  db: Db,
  actor: Actor,
  orderId: string,
  given: boolean,
  email: string | null | undefined,
): Promise<void> {
  const [order] = await db.select({ email: orders.email }).from(orders).where(eq(orders.id, orderId))
  await recordConsent(db, {
    context: 'gift',
    given,
    email: order?.email ?? email ?? null,
    userId: actor.userId,
    orderId,
    ip: actor.address,
    userAgent: actor.userAgent,
  })
}
