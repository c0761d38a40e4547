// An order's fiscal receipts as the shop API shows them: the optional `receipts` extension of the
// order status answer and the recalculated order (present only when the order has one).
import { z } from '@hono/zod-openapi'
import { asc, eq, inArray } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { RECEIPT_KINDS, RECEIPT_PAYMENT_METHODS, RECEIPT_STATUSES, receipts } from '../../db/schema'
import { toMoney } from '../../lib/money'
import { MoneySchema } from '../../lib/schemas'
import type { ReceiptItem } from './model'

export const ReceiptSchema = z
  .object({
    kind: z.enum(RECEIPT_KINDS).openapi({ description: 'sell: приход; sell_refund: возврат прихода' }),
    status: z.enum(RECEIPT_STATUSES).openapi({
      description:
        'pending: being registered; registered: the fiscal service took it; failed: refused, the shop fixes it',
    }),
    payment_method: z.enum(RECEIPT_PAYMENT_METHODS).optional().openapi({
      description:
        'Признак способа расчёта: full_prepayment — «предоплата 100 %» when an order delivered later is paid; full_payment — «полный расчёт» (at payment for codes handed over at once, or at delivery offsetting the advance) (decision 059)',
    }),
    email: z.string().openapi({ description: 'Where the fiscal service sends the receipt' }),
    total: MoneySchema,
    items: z.array(
      z.object({ name: z.string(), quantity: z.number().int(), price: MoneySchema, sum: MoneySchema }),
    ),
    fiscal: z
      .object({
        fn_number: z.string().openapi({ description: 'ФН' }),
        fiscal_document_number: z.string().openapi({ description: 'ФД' }),
        fiscal_document_attribute: z.string().openapi({ description: 'ФП' }),
        receipt_datetime: z.string().openapi({ description: 'dd.mm.yyyy HH:MM:SS, Moscow time' }),
      })
      .nullable()
      .openapi({ description: 'The fiscal attributes, once registered by a cash register' }),
  })
  .openapi('OrderReceipt', { description: 'Our extension: a fiscal receipt (54-ФЗ) of the order' })

export type ReceiptOut = z.infer<typeof ReceiptSchema>

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
