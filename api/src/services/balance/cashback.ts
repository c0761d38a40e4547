// Gift cashback (spec §3 Gift.cashback): a signed-in buyer's gift order that becomes done credits
// that percent of what was paid to their balance. Called by the state machine in the transaction
// that moves the order to done; the ledger's (kind, cause) key makes it once per order whatever
// replays, retries or workers reach this point. A done order refunded by the owner gives the
// cashback back (decision 082): what the balance still holds, the rest written off.
import { and, eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { balanceEntries, gifts, orders, users } from '../../db/schema'
import { postBalanceEntry } from './ledger'
import { cashbackFor, cashbackTakeBack } from './rules'

export async function creditGiftCashback(tx: Tx, orderId: string): Promise<number> {
  const [row] = await tx
    .select({ userId: orders.userId, paid: orders.totalToPay, percent: gifts.cashback })
    .from(orders)
    .innerJoin(gifts, eq(gifts.id, orders.giftId))
    .where(and(eq(orders.id, orderId), eq(orders.kind, 'RokkyOrder')))
  if (!row || row.userId === null) return 0
  const amount = cashbackFor(row.paid, row.percent)
  if (amount === 0) return 0
  const outcome = await postBalanceEntry(tx, {
    userId: row.userId,
    kind: 'cashback',
    amount,
    cause: orderId,
    orderId,
  })
  return outcome === 'posted' ? amount : 0
}

/** The cause of the correction entry that takes an order's cashback back (once per order). */
export const cashbackReversalCause = (orderId: string) => `cashback_reversal:${orderId}`

export interface CashbackReversal {
  /** The cashback the order earned. */
  cashback: number
  /** Taken back from the balance now (a correction entry). */
  taken: number
  /** Already spent by the buyer: not taken back, recorded on the refund's audit entry. */
  writtenOff: number
}

/**
 * Takes back the cashback a done order earned, in the transaction that refunds it: as much as the
 * buyer's balance holds (read under its row lock), never below zero. Null when the order earned
 * none or it was taken back before.
 */
export async function reverseGiftCashback(tx: Tx, orderId: string): Promise<CashbackReversal | null> {
  const [earned] = await tx
    .select({ userId: balanceEntries.userId, amount: balanceEntries.amount })
    .from(balanceEntries)
    .where(and(eq(balanceEntries.kind, 'cashback'), eq(balanceEntries.cause, orderId)))
  if (!earned) return null
  const [owner] = await tx
    .select({ balance: users.balance })
    .from(users)
    .where(eq(users.id, earned.userId))
    .for('update')
  // Stryker disable next-line OptionalChaining: the entry's user exists (a foreign key)
  const { take, writtenOff } = cashbackTakeBack(earned.amount, owner?.balance ?? 0)
  if (take > 0) {
    const outcome = await postBalanceEntry(tx, {
      userId: earned.userId,
      kind: 'correction',
      amount: -take,
      cause: cashbackReversalCause(orderId),
      orderId,
    })
    // taken back before (a replay): nothing more moves
    if (outcome === 'duplicate') return null
  }
  return { cashback: earned.amount, taken: take, writtenOff }
}
