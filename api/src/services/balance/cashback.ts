// Gift cashback (spec §3 Gift.cashback): a signed-in buyer's gift order that becomes done credits
// that percent of what was paid to their balance. Called by the state machine in the transaction
// that moves the order to done; the ledger's (kind, cause) key makes it once per order whatever
// replays, retries or workers reach this point.
import { and, eq } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { gifts, orders } from '../../db/schema'
import { postBalanceEntry } from './ledger'
import { cashbackFor } from './rules'

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
