import { eq } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db, Tx } from '../../db/client'
import type { ApiConfig } from '../../env'
import { games, type OrderStatus, orders } from '../../db/schema'
import { message } from '../../lib/errors'
import { transitionOrder } from '../orders/state-machine'
import { handToPerson } from '../delivery/handover'
import { isHeldForReview } from '../risk/held'
import { giftCodeFulfiller } from './gift-codes'
import { manualFulfiller } from './manual'
import { moogoldFulfiller } from './moogold'
import { queueSupplierRecheck } from './recheck-queue'
import { sandboxFulfiller } from './sandbox'
import type { DeliveryResult, Fulfiller, OrderRow } from './types'
import { voucherFulfiller } from './vouchers'

/**
 * Suppliers by order kind. The first match wins, so supplier-specific adapters (a game's
 * `supplier` column) come before the general ones.
 */
export const FULFILLERS: readonly Fulfiller[] = [
  moogoldFulfiller,
  voucherFulfiller,
  giftCodeFulfiller,
  manualFulfiller,
  sandboxFulfiller,
]

/**
 * The supplier that really delivers a game's orders: `sandbox` only while sandbox payments are
 * on (demo, tests, a staging shop); anywhere else such a game is delivered by a person (decision 042).
 */
export function effectiveSupplier(supplier: string | null, config: Pick<ApiConfig, 'sandboxPayments'>) {
  return supplier === 'sandbox' && !config.sandboxPayments ? 'manual' : supplier
}

async function gameSupplier(db: Db | Tx, gameId: number | null, config: Pick<ApiConfig, 'sandboxPayments'>) {
  if (gameId === null) return null
  const [g] = await db.select({ supplier: games.supplier }).from(games).where(eq(games.id, gameId))
  return effectiveSupplier(g?.supplier ?? null, config)
}

export function pickFulfiller(order: Pick<OrderRow, 'kind'>, supplier: string | null): Fulfiller | null {
  return (
    FULFILLERS.find(
      (f) => f.kinds.includes(order.kind) && (f.supplier === undefined || f.supplier === supplier),
    ) ?? null
  )
}

/**
 * Whether an order is delivered after its payment (decision 059: its payment is an advance, with a
 * «предоплата 100 %» receipt): its game's supplier delivers later (a person, MooGold).
 */
export async function deliveredLater(
  db: Db | Tx,
  order: Pick<OrderRow, 'kind' | 'gameId'>,
  config: Pick<ApiConfig, 'sandboxPayments'>,
): Promise<boolean> {
  if (order.gameId === null) return false
  return pickFulfiller(order, await gameSupplier(db, order.gameId, config))?.deliversLater === true
}

/** The e-mail domain of an order that Playwright's server (E2E=1) leaves `sent`, see below. */
export const E2E_STAYS_SENT_DOMAIN = '@stays-sent.test'

/**
 * E2E=1 only (Playwright's server; everywhere else never): an order whose e-mail is at
 * E2E_STAYS_SENT_DOMAIN is taken as accepted by a supplier that has not finished, and stays `sent`.
 * Every sandbox delivery finishes at once, and `sent` is how a browser test reaches a paid order
 * that was not delivered (the owner's refund). Its held codes stay held; nothing is sold.
 */
function staysSentInE2e(order: Pick<OrderRow, 'email'>): boolean {
  return process.env.E2E === '1' && (order.email ?? '').toLowerCase().endsWith(E2E_STAYS_SENT_DOMAIN)
}

/** Thrown inside the delivery savepoint so that whatever the supplier took is rolled back. */
class DeliveryFailed extends Error {
  constructor(readonly reason: string) {
    super(reason)
  }
}

/**
 * Delivers a paid order: paid → sending, the supplier's delivery, then sent → done, or failed with
 * a reject_reason. The delivery runs in a savepoint: a failed one leaves no half-taken codes. The
 * payment is never touched here, so a failed delivery shows as a failed order next to a succeeded
 * payment. Returns the order's status afterwards; orders that are not `paid` are left alone.
 */
export async function fulfilOrder(deps: ApiDeps, orderId: string): Promise<OrderStatus> {
  try {
    return await deps.db.transaction(async (tx) => {
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update')
      if (order?.status !== 'paid') return order?.status ?? 'failed'
      // held for review (issue 34): nothing is delivered until staff approve it
      if (await isHeldForReview(tx, orderId)) return 'paid'
      await transitionOrder(tx, orderId, 'sending')
      const supplier = await gameSupplier(tx, order.gameId, deps.config)
      const fulfiller = pickFulfiller(order, supplier)
      let result: DeliveryResult
      if (!fulfiller) result = { outcome: 'failed', reason: message('supplier_not_configured') }
      else if (staysSentInE2e(order)) result = { outcome: 'sent' }
      else {
        try {
          result = await tx.transaction(async (sp) => {
            const r = await fulfiller.deliver(sp, order, deps)
            if (r.outcome === 'failed') throw new DeliveryFailed(r.reason)
            return r
          })
        } catch (e) {
          if (!(e instanceof DeliveryFailed)) console.error(`[fulfilment] ${orderId}`, e)
          result = {
            outcome: 'failed',
            reason: e instanceof DeliveryFailed ? e.reason : message('fulfilment_error'),
          }
        }
      }
      if (result.outcome === 'failed')
        return transitionOrder(tx, orderId, 'failed', { rejectReason: result.reason })
      if (result.outcome === 'manual') {
        // waits at the delivery desk: the buyer's «оплачен» mail, the overdue and refund clocks
        await transitionOrder(tx, orderId, 'sent', { awaitingSince: new Date() })
        await handToPerson(tx, orderId, deps.config)
        return 'sent'
      }
      await transitionOrder(tx, orderId, 'sent', {
        ...(result.outcome === 'sent' && result.supplierOrderId
          ? { supplierOrderId: result.supplierOrderId }
          : {}),
      })
      if (result.outcome === 'sent') {
        // asked again in the background until the supplier's answer is final
        await queueSupplierRecheck(tx, orderId)
        return 'sent'
      }
      return transitionOrder(tx, orderId, 'done')
    })
  } catch (e) {
    // The order is paid and the payment kept; mark it failed with a reason rather than leave it hanging.
    console.error(`[fulfilment] ${orderId} could not be delivered`, e)
    await transitionOrder(deps.db, orderId, 'failed', { rejectReason: message('fulfilment_error') }).catch(
      () => {},
    )
    const [o] = await deps.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId))
    return o?.status ?? 'failed'
  }
}

/**
 * An order the supplier accepted but had not finished (`sent`): asks the supplier again and moves
 * it to done or failed. Called by status polls and the background re-check (recheck.ts); a move
 * made meanwhile by someone else is harmless (compare-and-set). Returns the status afterwards.
 */
export async function refreshSentOrder(deps: ApiDeps, order: OrderRow): Promise<OrderStatus> {
  if (order.status !== 'sent') return order.status
  const supplier = await gameSupplier(deps.db, order.gameId, deps.config)
  const f = pickFulfiller(order, supplier)
  if (!f?.refresh) return order.status
  try {
    const r = await f.refresh(order, deps)
    if (r.outcome === 'done') return await transitionOrder(deps.db, order.id, 'done')
    if (r.outcome === 'failed')
      return await transitionOrder(deps.db, order.id, 'failed', { rejectReason: r.reason })
  } catch (e) {
    console.error(`[fulfilment] refresh of ${order.id}`, e)
  }
  const [o] = await deps.db.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id))
  return o?.status ?? order.status
}
