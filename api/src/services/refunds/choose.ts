// A refund waiting for a person (status `manual`: the provider canceled or refused it, or no
// provider could take it) and the route the person chooses for it (decision 110):
//   - `manual`: the person paid the money back by hand (a transfer, cash): recorded as done;
//   - `balance`: to a signed-in buyer's balance (roubles only), posted to the ledger now.
// Only a refund the provider can no longer pay waits here, so neither route pays twice.
import { eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { refunds } from '../../db/schema'
import { postBalanceEntry } from '../balance/ledger'
import { recordOrderEvent } from '../orders/events'
import { balanceCauseOf, creditableToBalance, queueRefundMail, type RefundRow } from './open'

export const PERSON_ROUTES = ['manual', 'balance'] as const
export type PersonRoute = (typeof PERSON_ROUTES)[number]

/** Whether a waiting refund may go to the buyer's balance: a signed-in buyer, roubles. */
export const balanceAllowed = (refund: Pick<RefundRow, 'currency'>, userId: number | null) =>
  userId !== null && creditableToBalance(refund)

/**
 * Settles a waiting refund by the chosen route, in the caller's transaction (the refund row locked
 * by the caller). Answers the done row, or null when the route is not open to this refund.
 */
export async function settleWaitingRefund(
  tx: Tx,
  waiting: RefundRow,
  order: { userId: number | null; email: string | null },
  route: PersonRoute,
  staffUserId: number,
): Promise<RefundRow | null> {
  if (waiting.status !== 'manual') return null
  let set: Partial<RefundRow> = { status: 'done', actorUserId: staffUserId, completedAt: new Date() }
  if (route === 'balance') {
    if (!balanceAllowed(waiting, order.userId)) return null
    const rest = waiting.amount - waiting.toBalance
    if (rest > 0)
      await postBalanceEntry(tx, {
        userId: order.userId!,
        kind: 'refund',
        amount: rest,
        cause: balanceCauseOf(waiting),
        orderId: waiting.orderId,
      })
    set = { ...set, method: 'balance', toBalance: waiting.amount }
  }
  const [done] = await tx.update(refunds).set(set).where(eq(refunds.id, waiting.id)).returning()
  await recordOrderEvent(
    tx,
    waiting.orderId,
    'refund',
    { method: done!.method, status: 'done', chosen_by_person: route },
    staffUserId,
  )
  await queueRefundMail(tx, done!, order.email)
  return done!
}
