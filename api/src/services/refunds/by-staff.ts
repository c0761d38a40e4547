// «Вернуть деньги» in the back-office (owner): the one refund a person starts. What it does depends
// on the order, read under lock with its refunds:
//   - a refund waiting for a person (the order's `manual` one, else a refused payment's) is settled
//     the way the person chose: by hand, or to the signed-in buyer's balance (decision 110);
//   - a done order stays done and is refunded with the reason the buyer reads (required), its codes
//     marked refunded in stock and its gift cashback taken back (decisions 063, 082);
//   - a paid, sending or sent order fails with the reason and is refunded as any failed paid order;
//     a failed paid order without a refund gets one.
// Anything else is refused. The action is on the order's timeline and in the audit log
// (admin/staff-order-action.ts).
import { and, asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { refunds } from '../../db/schema'
import { refuse } from '../../lib/domain-error'
import { message } from '../../lib/errors'
import type { StaffMember } from '../admin/roles'
import { changeOrderAsStaff } from '../admin/staff-order-action'
import { reverseGiftCashback } from '../balance/cashback'
import { transitionOrder, UNPAID_STATUSES } from '../orders/state-machine'
import { type PersonRoute, settleWaitingRefund } from './choose'
import { markOrderCodesRefunded } from './done'
import { openRefund } from './open'

export interface StaffRefundInput {
  /** Shown to the buyer; a done order needs one. */
  reason?: string
  /** Where money waiting for a person goes (default `manual`). */
  route?: PersonRoute
}

export async function refundOrderByStaff(
  db: Db,
  staff: StaffMember,
  orderId: string,
  input: StaffRefundInput,
): Promise<void> {
  const reason = input.reason || message('refund_reason_admin')
  await changeOrderAsStaff(db, staff, orderId, 'refund', async (tx, order) => {
    const id = order.id
    const [existing] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.orderId, id), eq(refunds.kind, 'order')))
      .for('update')
    // a refused payment's refund waiting for a person (decision 037), when the order's own does not
    const [returned] =
      existing?.status === 'manual'
        ? []
        : await tx
            .select()
            .from(refunds)
            .where(and(eq(refunds.orderId, id), eq(refunds.kind, 'payment'), eq(refunds.status, 'manual')))
            .orderBy(asc(refunds.id))
            .limit(1)
            .for('update')
    if (order.paidAt === null && !returned) throw refuse('refund_nothing_paid')
    const waiting = existing?.status === 'manual' ? existing : returned
    let after: Record<string, unknown>
    if (waiting) {
      // the only second step there is: a person chooses where the money the shop could not
      // give back goes (by hand, or to the buyer's balance), decision 110
      const done = await settleWaitingRefund(tx, waiting, order, input.route ?? 'manual', staff.userId)
      if (!done) throw refuse('refund_route_not_allowed')
      after = { refund: 'done', method: done.method, kind: waiting.kind }
    } else if (existing) {
      throw refuse('refund_exists')
    } else if (UNPAID_STATUSES.includes(order.status)) {
      throw refuse('refund_not_allowed')
    } else if (order.status === 'done') {
      // put right after delivery (decision 063): the order stays done, its money goes back by
      // the same route as any refund, its codes are marked refunded and never offered again
      if (!input.reason) throw refuse('refund_done_reason_required')
      const opened = await openRefund(tx, id, reason, staff.userId)
      if (!opened) throw refuse('refund_nothing_paid')
      const codes = await markOrderCodesRefunded(tx, id)
      // the gift cashback it earned goes back too, as far as the balance holds it (decision 082)
      const cashback = await reverseGiftCashback(tx, id)
      after = {
        status: 'done',
        refund: opened.status,
        method: opened.method,
        amount: opened.amount,
        codes,
        ...(cashback
          ? {
              cashback: cashback.cashback,
              cashback_taken_back: cashback.taken,
              cashback_written_off: cashback.writtenOff,
            }
          : {}),
      }
    } else {
      if (order.status !== 'failed') await transitionOrder(tx, id, 'failed', { rejectReason: reason })
      else await openRefund(tx, id, reason, staff.userId)
      const [opened] = await tx
        .update(refunds)
        .set({ actorUserId: staff.userId })
        .where(and(eq(refunds.orderId, id), eq(refunds.kind, 'order')))
        .returning()
      if (!opened) throw refuse('refund_nothing_paid')
      after = { status: 'failed', refund: opened.status, method: opened.method, amount: opened.amount }
    }
    return {
      event: { reason },
      before: { status: order.status, refund: existing?.status ?? null },
      after,
      result: undefined,
    }
  })
}
