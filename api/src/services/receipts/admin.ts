// The back-office side of receipts: the refused ones («требует внимания») and the owner's resend,
// which registers the same receipt under a new external id with the settings as they are now.
import { desc, eq } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { orders, receipts } from '../../db/schema'
import type { ApiConfig } from '../../env'
import { refuse } from '../../lib/domain-error'
import { toMoney } from '../../lib/money'
import { audit } from '../admin/audit'
import type { StaffMember } from '../admin/roles'
import { recordOrderEvent } from '../orders/events'
import { queueReceiptJob, type ReceiptRow } from './outbox'
import { getSellerSettings, receiptSeller } from './settings'

export function adminReceiptOut(r: ReceiptRow) {
  return {
    id: r.id,
    order_id: r.orderId,
    kind: r.kind,
    status: r.status,
    transport: r.transport,
    external_id: r.externalId,
    total: toMoney(r.total),
    reason: r.lastError,
    created: r.created.toISOString(),
  }
}

/**
 * Refused receipts, newest first: they need the owner (fix the settings, then resend). Each with
 * its order's short number, which the owner reads (decision 135).
 */
export async function failedReceipts(db: Db, limit = 50) {
  const rows = await db
    .select({ receipt: receipts, number: orders.number })
    .from(receipts)
    .innerJoin(orders, eq(orders.id, receipts.orderId))
    .where(eq(receipts.status, 'failed'))
    .orderBy(desc(receipts.id))
    .limit(limit)
  return rows.map((r) => ({ ...adminReceiptOut(r.receipt), order_number: r.number }))
}

/**
 * Sends a refused receipt again with the current requisites and transport. A new external id: the
 * fiscal service would answer the old one's refusal again.
 */
export async function resendReceipt(
  db: Db,
  config: Pick<ApiConfig, 'publicUrl'>,
  id: number,
  staff: StaffMember,
): Promise<ReceiptRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(receipts).where(eq(receipts.id, id)).for('update')
    if (!row) throw refuse('receipt_not_found')
    if (row.status !== 'failed') throw refuse('receipt_not_failed')
    const settings = await getSellerSettings(tx)
    const base = row.externalId.split('#')[0]
    const externalId = `${base}#${Date.now().toString(36)}`
    // a receipt that went (or should have gone) with the payment can only be sent now by a cash register
    const transport = settings.transport === 'with_payment' ? 'atol' : settings.transport
    const [updated] = await tx
      .update(receipts)
      .set({
        status: 'pending',
        transport,
        externalId,
        serviceId: null,
        lastError: null,
        seller: { ...receiptSeller(settings, config) },
      })
      .where(eq(receipts.id, id))
      .returning()
    await queueReceiptJob(tx, updated!)
    await recordOrderEvent(
      tx,
      row.orderId,
      'receipt',
      { receipt_id: id, status: 'pending', resent: true },
      staff.userId,
    )
    await audit(tx, staff, {
      action: 'receipt.resend',
      entity: 'receipt',
      entityId: id,
      before: { status: row.status, external_id: row.externalId, reason: row.lastError },
      after: { status: 'pending', external_id: externalId, transport },
    })
    return updated!
  })
}
