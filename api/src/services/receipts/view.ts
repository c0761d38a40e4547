// An order's fiscal receipts as the shop API shows them: the optional `receipts` extension of the
// order status answer and the recalculated order (present only when the order has one).
import { asc, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import {
  type RECEIPT_KINDS,
  type RECEIPT_PAYMENT_METHODS,
  type RECEIPT_STATUSES,
  receipts,
} from '../../db/schema'
import { toMoney } from '../../lib/money'
import type { ReceiptItem } from './model'

/** A receipt of an order (its wire schema: ReceiptSchema, api/src/routes/schemas/receipts.ts). */
export interface ReceiptOut {
  kind: (typeof RECEIPT_KINDS)[number]
  status: (typeof RECEIPT_STATUSES)[number]
  payment_method?: (typeof RECEIPT_PAYMENT_METHODS)[number]
  email: string
  total: string
  items: Array<{ name: string; quantity: number; price: string; sum: string }>
  fiscal: {
    fn_number: string
    fiscal_document_number: string
    fiscal_document_attribute: string
    receipt_datetime: string
  } | null
}

type Fiscal = NonNullable<ReceiptOut['fiscal']>
const isFiscal = (f: unknown): f is Fiscal =>
  typeof f === 'object' && f !== null && typeof (f as Fiscal).fn_number === 'string'

type ReceiptRow = typeof receipts.$inferSelect

const fiscalOut = (f: Fiscal): Fiscal => ({
  fn_number: f.fn_number,
  fiscal_document_number: f.fiscal_document_number,
  fiscal_document_attribute: f.fiscal_document_attribute,
  receipt_datetime: f.receipt_datetime,
})

const receiptOut = (r: ReceiptRow): ReceiptOut => ({
  kind: r.kind,
  ...(r.paymentMethod ? { payment_method: r.paymentMethod } : {}),
  status: r.status,
  email: r.email,
  total: toMoney(r.total),
  items: (r.items as ReceiptItem[]).map((i) => ({
    name: i.name,
    quantity: i.quantity,
    price: toMoney(i.price),
    sum: toMoney(i.sum),
  })),
  // the four attributes the contract names (the stored row may hold more, e.g. the operator's link)
  fiscal: r.status === 'registered' && isFiscal(r.fiscal) ? fiscalOut(r.fiscal) : null,
})

export async function receiptsOf(db: Db | Tx, orderId: string): Promise<ReceiptOut[]> {
  const rows = await db.select().from(receipts).where(eq(receipts.orderId, orderId)).orderBy(asc(receipts.id))
  return rows.map(receiptOut)
}

/** The receipts of a page of orders in one query (the order history), by order id. */
export async function receiptsOfOrders(db: Db | Tx, orderIds: string[]): Promise<Map<string, ReceiptOut[]>> {
  const byOrder = new Map<string, ReceiptOut[]>()
  if (orderIds.length === 0) return byOrder
  const rows = await db
    .select()
    .from(receipts)
    .where(inArray(receipts.orderId, orderIds))
    .orderBy(asc(receipts.id))
  for (const r of rows) byOrder.set(r.orderId, [...(byOrder.get(r.orderId) ?? []), receiptOut(r)])
  return byOrder
}

/** `receipts` of an answer: present only when the order has any. */
export async function receiptsField(db: Db | Tx, orderId: string): Promise<{ receipts?: ReceiptOut[] }> {
  const list = await receiptsOf(db, orderId)
  return list.length ? { receipts: list } : {}
}
