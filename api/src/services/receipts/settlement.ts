// The settlement of an advance (decision 059): when an order paid as «предоплата 100 %» is delivered,
// a second `sell` receipt, «полный расчёт», offsets the advance. Written in the transaction that
// moves the order to `done` (outbox), once per payment (its external id), and registered by the
// `receipt.send` job through the advance's own transport (ATOL, or the provider that took it).
import { and, desc, eq, isNotNull } from 'drizzle-orm'
import type { Tx } from '../../db/client'
import { receipts } from '../../db/schema'
import { enqueue } from '../../jobs/queue'
import { recordOrderEvent } from '../orders/events'
import type { ReceiptItem } from './model'
import { needsSettlement, RECEIPT_JOB, settlementId } from './moment'

/** In the transaction that delivers an order: the settlement receipt of its advance, when it had one. */
export async function queueSettlementReceipt(tx: Tx, orderId: string): Promise<void> {
  const [advance] = await tx
    .select()
    .from(receipts)
    .where(and(eq(receipts.orderId, orderId), eq(receipts.kind, 'sell'), isNotNull(receipts.paymentId)))
    .orderBy(desc(receipts.id))
    .limit(1)
  if (!advance?.paymentId || !needsSettlement(advance.paymentMethod)) return
  const items = (advance.items as ReceiptItem[]).map((i) => ({ ...i }))
  const [row] = await tx
    .insert(receipts)
    .values({
      orderId,
      paymentId: null,
      refundId: null,
      kind: 'sell',
      paymentMethod: 'full_payment',
      status: 'pending',
      transport: advance.transport,
      externalId: settlementId(advance.paymentId),
      email: advance.email,
      total: advance.total,
      items,
      seller: advance.seller,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) return
  await recordOrderEvent(tx, orderId, 'receipt', {
    receipt_id: row.id,
    kind: row.kind,
    payment_method: row.paymentMethod,
    status: row.status,
    transport: row.transport,
    total: row.total,
  })
  await enqueue(tx, {
    kind: RECEIPT_JOB,
    key: `receipt:${row.externalId}`,
    payload: { receiptId: row.id },
    maxAttempts: 20,
  })
}
