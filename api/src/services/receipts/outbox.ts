// Receipts are written in the transaction that settles a payment or completes a provider refund
// (outbox): a `receipts` row, unique per payment (sell) or per refund (sell_refund), and the
// `receipt.send` job that registers it. A receipt never blocks or undoes the money it is about.
import { createHash } from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { games, gifts, orderProducts, orders, products, receipts, type refunds } from '../../db/schema'
import type { ApiConfig } from '../../env'
import { enqueue } from '../../jobs/queue'
import { message } from '../../lib/errors'
import { getProvider } from '../../providers'
import type { PaymentRow } from '../../providers/types'
import { recordOrderEvent } from '../orders/events'
import { atolTimestamp, type ReceiptDoc } from './formats'
import {
  type GrossLine,
  type ItemKind,
  itemsTotal,
  type ReceiptItem,
  receiptItems,
  type ReceiptSeller,
} from './model'
import { getSellerSettings, receiptSeller } from './settings'
import { deliveredLater } from '../fulfilment'
import { paymentMethodAtPayment, RECEIPT_JOB, refundBasis, settlementId } from './moment'

export { RECEIPT_JOB }

type OrderRow = typeof orders.$inferSelect
type RefundRow = typeof refunds.$inferSelect
export type ReceiptRow = typeof receipts.$inferSelect

/** The receipt item kind of an order's product lines. */
const LINE_KIND: Record<OrderRow['kind'], ItemKind> = {
  PUBGOrder: 'codes',
  StandoffOrder: 'topup',
  MooGoldOrder: 'topup',
  SteamOrder: 'steam_topup',
  RokkyOrder: 'gift',
}

/** The order's lines at the prices it was paid at, before promo and balance. */
async function grossLines(db: Db | Tx, order: OrderRow): Promise<GrossLine[]> {
  if (order.kind === 'SteamOrder') {
    const amount = order.steamAmount ?? order.total
    // a promo takes its percent off the commission only (decision 126): the commission line is what
    // was charged beyond the wallet amount (orders priced before that rule: the catalogue split)
    const charged = order.totalToPay + order.balanceUsed
    const commission = charged >= amount ? charged - amount : order.total - amount
    const lines: GrossLine[] = [
      { kind: 'steam_topup', name: message('receipt_item_steam_topup'), quantity: 1, unitPrice: amount },
    ]
    if (commission > 0)
      lines.push({
        kind: 'commission',
        name: message('receipt_item_steam_commission'),
        quantity: 1,
        unitPrice: commission,
      })
    return lines
  }
  if (order.kind === 'RokkyOrder') {
    const [gift] = order.giftId
      ? await db.select({ title: gifts.title }).from(gifts).where(eq(gifts.id, order.giftId))
      : []
    return [{ kind: 'gift', name: gift?.title ?? 'Подарочный код', quantity: 1, unitPrice: order.total }]
  }
  const rows = await db
    .select({
      title: products.title,
      game: games.title,
      quantity: orderProducts.quantity,
      price: orderProducts.price,
    })
    .from(orderProducts)
    .innerJoin(products, eq(products.id, orderProducts.productId))
    .leftJoin(games, eq(games.id, products.gameId))
    .where(eq(orderProducts.orderId, order.id))
    .orderBy(asc(orderProducts.id))
  return rows.map((r) => ({
    kind: LINE_KIND[order.kind],
    name: r.game ? `${r.game}: ${r.title}` : r.title,
    quantity: r.quantity,
    unitPrice: r.price,
  }))
}

/** The `sell` receipt of a payment of roubles that took money; null when none is due. */
export async function sellReceiptDoc(
  db: Db | Tx,
  config: Pick<ApiConfig, 'publicUrl' | 'sandboxPayments'>,
  payment: PaymentRow,
  seller?: ReceiptSeller,
): Promise<(ReceiptDoc & { transport: string; enabled: boolean }) | null> {
  // fiscal receipts are in roubles; a payment in another currency is out of their scope (decision 059)
  if (payment.amount <= 0 || payment.currency !== 'RUB') return null
  const [order] = await db.select().from(orders).where(eq(orders.id, payment.orderId))
  if (!order?.email) return null
  const settings = await getSellerSettings(db)
  const toPay = Math.min(order.totalToPay, payment.amount)
  const items = receiptItems(
    await grossLines(db, order),
    { toPay, fee: payment.amount - toPay },
    settings.itemRules,
    message('receipt_item_fee'),
  )
  return {
    kind: 'sell',
    externalId: `sell:${payment.id}`,
    email: order.email,
    total: itemsTotal(items),
    items,
    seller: seller ?? receiptSeller(settings, config),
    // delivered later (a person, a supplier confirming afterwards): the payment is an advance
    paymentMethod: paymentMethodAtPayment(await deliveredLater(db, order, config)),
    transport: settings.transport,
    enabled: settings.receiptsEnabled,
  }
}

/** Whether the payment's provider registers a receipt handed to it with the payment (`with_payment`). */
export const providerCarriesReceipt = (provider: string) => getProvider(provider)?.carriesReceipt === true

/**
 * The receipt to hand to the provider with a new payment, when the owner chose `with_payment`
 * and the provider takes it; else undefined.
 */
export async function receiptForNewPayment(
  db: Db | Tx,
  config: Pick<ApiConfig, 'publicUrl' | 'sandboxPayments'>,
  payment: PaymentRow,
): Promise<ReceiptDoc | undefined> {
  if (!providerCarriesReceipt(payment.provider)) return undefined
  const doc = await sellReceiptDoc(db, config, payment)
  if (!doc?.enabled || doc.transport !== 'with_payment') return undefined
  return doc
}

/** Fiscal attributes the sandbox makes up: plainly fake (an ФН of nines), stable per receipt. */
export function sandboxFiscal(externalId: string, at: Date) {
  const h = createHash('sha256').update(externalId).digest()
  return {
    fn_number: '9999999999999999',
    fiscal_document_number: String(h.readUInt16BE(4)),
    fiscal_document_attribute: String(h.readUInt32BE(0)),
    receipt_datetime: atolTimestamp(at),
  }
}

type ReceiptConfig = Pick<ApiConfig, 'publicUrl' | 'sandboxPayments'>

/** The status a new receipt starts in: only the ATOL transport (and the sandbox in production) waits for a job. */
function initialStatus(transport: string, provider: string, config: ReceiptConfig) {
  // with the payment: the provider registered it (or cannot, and a person must choose another way)
  if (transport === 'with_payment') return providerCarriesReceipt(provider) ? 'registered' : 'failed'
  // the sandbox registers at once, in the demo and tests; in production its job refuses it
  if (transport === 'sandbox' && config.sandboxPayments) return 'registered'
  return 'pending'
}

async function insertReceipt(
  tx: Tx,
  config: ReceiptConfig,
  r: { orderId: string; paymentId: string | null; refundId: number | null; provider: string },
  doc: ReceiptDoc,
  transport: string,
): Promise<ReceiptRow | null> {
  const status = initialStatus(transport, r.provider, config)
  const now = new Date()
  const [row] = await tx
    .insert(receipts)
    .values({
      orderId: r.orderId,
      paymentId: r.paymentId,
      refundId: r.refundId,
      kind: doc.kind,
      paymentMethod: doc.paymentMethod ?? 'full_payment',
      status,
      transport,
      externalId: doc.externalId,
      email: doc.email,
      total: doc.total,
      items: doc.items,
      seller: { ...doc.seller },
      lastError:
        status === 'failed' ? message('receipt_with_payment_unsupported', { provider: r.provider }) : null,
      registeredAt: status === 'registered' ? now : null,
      fiscal: status === 'registered' && transport === 'sandbox' ? sandboxFiscal(doc.externalId, now) : null,
    })
    .onConflictDoNothing()
    .returning()
  if (!row) return null
  await recordOrderEvent(tx, r.orderId, 'receipt', {
    receipt_id: row.id,
    kind: row.kind,
    payment_method: row.paymentMethod,
    status: row.status,
    transport,
    total: row.total,
    ...(row.lastError ? { reason: row.lastError } : {}),
  })
  if (status === 'pending') await queueReceiptJob(tx, row)
  return row
}

export async function queueReceiptJob(
  tx: Db | Tx,
  row: Pick<ReceiptRow, 'id' | 'externalId'>,
): Promise<void> {
  await enqueue(tx, {
    kind: RECEIPT_JOB,
    key: `receipt:${row.externalId}`,
    payload: { receiptId: row.id },
    maxAttempts: 20,
  })
}

/** In the settling transaction: the `sell` receipt of a payment that paid an order (when receipts are on). */
export async function queueSellReceipt(tx: Tx, config: ReceiptConfig, payment: PaymentRow) {
  const doc = await sellReceiptDoc(tx, config, payment)
  if (!doc?.enabled) return null
  return insertReceipt(
    tx,
    config,
    { orderId: payment.orderId, paymentId: payment.id, refundId: null, provider: payment.provider },
    doc,
    doc.transport,
  )
}

/**
 * The `sell_refund` of a provider refund: the receipt it gives back whole, with its признак способа
 * расчёта: before delivery the advance («предоплата 100 %»), after delivery the settlement.
 */
export async function refundReceiptDoc(
  db: Db | Tx,
  refund: RefundRow,
): Promise<(ReceiptDoc & { transport: string }) | null> {
  if (refund.kind !== 'order' || refund.method !== 'provider' || !refund.paymentId) return null
  const [[sell], [settlement]] = await Promise.all([
    db
      .select()
      .from(receipts)
      .where(and(eq(receipts.paymentId, refund.paymentId), eq(receipts.kind, 'sell'))),
    db
      .select()
      .from(receipts)
      .where(eq(receipts.externalId, settlementId(refund.paymentId))),
  ])
  const basis = refundBasis(sell, settlement)
  if (!basis) return null
  return {
    kind: 'sell_refund',
    externalId: `sell_refund:${refund.id}`,
    email: basis.email,
    total: basis.total,
    items: basis.items as ReceiptItem[],
    seller: basis.seller as unknown as ReceiptSeller,
    paymentMethod: basis.paymentMethod ?? 'full_payment',
    transport: basis.transport,
  }
}

/** In the transaction that completes a provider refund: its `sell_refund`, when the payment had a receipt. */
export async function queueRefundReceipt(tx: Tx, config: ReceiptConfig, refund: RefundRow, provider: string) {
  const doc = await refundReceiptDoc(tx, refund)
  if (!doc) return null
  return insertReceipt(
    tx,
    config,
    { orderId: refund.orderId, paymentId: null, refundId: refund.id, provider },
    doc,
    doc.transport,
  )
}
