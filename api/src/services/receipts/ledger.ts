// Every receipt as an accountant reads it (issue 47): the back-office list `/api/admin/receipts/`
// (filters by status, kind, the shop's days; search by the order's short number or id; paged) and
// the receipts of one order on its card, both in the same full shape (seller, lines, VAT, fiscal
// attributes, the fiscal data operator's link when the cash register gave one).
import { and, asc, count, desc, eq, gte, isNull, like, lt, not, or, type SQL } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { orders, type ReceiptPaymentMethod, receipts } from '../../db/schema'
import { toMoney } from '../../lib/money'
import { DEFAULT_SHOP_TIMEZONE, shopDayEnd, shopDayStart } from '../../../../shared/shop-time'
import type { ReceiptItem, ReceiptSeller, VatRate } from './model'
import { isSettlement } from './moment'

/** A receipt's kinds, payment methods and states (the back-office shows and filters by them). */
export { RECEIPT_KINDS, RECEIPT_PAYMENT_METHODS, RECEIPT_STATUSES } from '../../db/schema'

/**
 * What a receipt is about, as an accountant names it: `prepayment` — приход, «предоплата 100 %»
 * (paid, delivered later); `payment` — приход, «полный расчёт» at payment; `settlement` — приход,
 * «полный расчёт» offsetting the advance at delivery; `refund` — возврат прихода.
 */
export const RECEIPT_LEDGER_KINDS = ['prepayment', 'payment', 'settlement', 'refund'] as const
export type ReceiptLedgerKind = (typeof RECEIPT_LEDGER_KINDS)[number]

type Row = typeof receipts.$inferSelect

export function ledgerKind(r: Pick<Row, 'kind' | 'paymentMethod' | 'externalId'>): ReceiptLedgerKind {
  if (r.kind === 'sell_refund') return 'refund'
  if (isSettlement(r.externalId)) return 'settlement'
  return r.paymentMethod === 'full_prepayment' ? 'prepayment' : 'payment'
}

const SETTLEMENT_PREFIX = 'settle:%'

function kindFilter(kind: ReceiptLedgerKind): SQL {
  if (kind === 'refund') return eq(receipts.kind, 'sell_refund')
  if (kind === 'settlement')
    return and(eq(receipts.kind, 'sell'), like(receipts.externalId, SETTLEMENT_PREFIX))!
  const notSettlement = not(like(receipts.externalId, SETTLEMENT_PREFIX))
  if (kind === 'prepayment')
    return and(eq(receipts.kind, 'sell'), eq(receipts.paymentMethod, 'full_prepayment'), notSettlement)!
  // rows written before the advance rule (decision 059, issue 45) carry no payment method: «полный
  // расчёт» (NOT (NULL = …) is NULL in SQL, so the missing method is asked for by name)
  const notAdvance = or(isNull(receipts.paymentMethod), not(eq(receipts.paymentMethod, 'full_prepayment')))
  return and(eq(receipts.kind, 'sell'), notAdvance, notSettlement)!
}

/** The percent of VAT inside a price of a rate (vat20 and vat120 alike: 20/120 of the sum); null: none. */
export function vatPercent(rate: VatRate): number | null {
  if (rate === 'none') return null
  const n = Number(rate.slice(3))
  return n > 100 ? n - 100 : n
}

/** The VAT inside `sum` kopecks at `rate`, rounded half up; null when the line bears none. */
export function vatOf(sum: number, rate: VatRate): number | null {
  const p = vatPercent(rate)
  if (p === null) return null
  return Math.floor((sum * p * 2 + (100 + p)) / (2 * (100 + p)))
}

type Fiscal = {
  fn_number: string
  fiscal_document_number: string
  fiscal_document_attribute: string
  receipt_datetime: string
  ofd_receipt_url?: string
}
const isFiscal = (f: unknown): f is Fiscal =>
  typeof f === 'object' && f !== null && typeof (f as Fiscal).fn_number === 'string'

/** Only a web address of the operator's check is a link (the value came from outside). */
const httpUrl = (u: unknown): string | null =>
  typeof u === 'string' && /^https?:\/\/[^\s"<>]+$/i.test(u) && u.length <= 500 ? u : null

function ledgerOut(r: Row, orderNumber: number | null) {
  const seller = r.seller as Partial<ReceiptSeller>
  const method: ReceiptPaymentMethod = r.paymentMethod ?? 'full_payment'
  const items = (r.items as ReceiptItem[]).map((i) => {
    const vat = vatOf(i.sum, i.vat)
    return {
      name: i.name,
      quantity: i.quantity,
      price: toMoney(i.price),
      sum: toMoney(i.sum),
      vat: i.vat,
      vat_sum: vat === null ? null : toMoney(vat),
      payment_object: i.payment_object,
      payment_method: method,
    }
  })
  // the VAT of the receipt by rate, in the order the lines first name them
  const byRate = new Map<VatRate, { sum: number; vat: number | null }>()
  for (const i of r.items as ReceiptItem[]) {
    const t = byRate.get(i.vat) ?? { sum: 0, vat: vatPercent(i.vat) === null ? null : 0 }
    t.sum += i.sum
    const v = vatOf(i.sum, i.vat)
    if (t.vat !== null && v !== null) t.vat += v
    byRate.set(i.vat, t)
  }
  const fiscal = r.status === 'registered' && isFiscal(r.fiscal) ? r.fiscal : null
  return {
    id: r.id,
    order_id: r.orderId,
    order_number: orderNumber,
    kind: ledgerKind(r),
    operation: r.kind,
    payment_method: method,
    status: r.status,
    transport: r.transport,
    email: r.email,
    total: toMoney(r.total),
    seller: {
      name: String(seller.name ?? ''),
      inn: String(seller.inn ?? ''),
      tax_system: String(seller.tax_system ?? ''),
      email: String(seller.email ?? ''),
      payment_address: String(seller.payment_address ?? ''),
    },
    items,
    vat_totals: [...byRate].map(([vat, t]) => ({
      vat,
      sum: toMoney(t.sum),
      vat_sum: t.vat === null ? null : toMoney(t.vat),
    })),
    fiscal: fiscal
      ? {
          fn_number: fiscal.fn_number,
          fiscal_document_number: fiscal.fiscal_document_number,
          fiscal_document_attribute: fiscal.fiscal_document_attribute,
          receipt_datetime: fiscal.receipt_datetime,
        }
      : null,
    ofd_url: fiscal ? httpUrl(fiscal.ofd_receipt_url) : null,
    reason: r.status === 'failed' ? r.lastError : null,
    created: r.created.toISOString(),
    registered_at: r.status === 'registered' && r.registeredAt ? r.registeredAt.toISOString() : null,
  }
}

export type LedgerReceipt = ReturnType<typeof ledgerOut>

export interface ReceiptSearch {
  /** An order's short number or its id (already parsed). */
  orderNumber?: number
  orderId?: string
  status?: Row['status']
  kind?: ReceiptLedgerKind
  /** Inclusive day bounds, YYYY-MM-DD, in the shop's time zone (decision 136). */
  from?: string
  to?: string
  timeZone?: string
  page: number
  pageSize: number
}

/** Receipts matching the filters, newest first, one page. */
export async function searchReceipts(db: Db, s: ReceiptSearch) {
  const where: SQL[] = []
  if (s.orderId) where.push(eq(receipts.orderId, s.orderId))
  if (s.orderNumber !== undefined) where.push(eq(orders.number, s.orderNumber))
  if (s.status) where.push(eq(receipts.status, s.status))
  if (s.kind) where.push(kindFilter(s.kind))
  const zone = s.timeZone ?? DEFAULT_SHOP_TIMEZONE
  if (s.from) where.push(gte(receipts.created, shopDayStart(s.from, zone)))
  if (s.to) where.push(lt(receipts.created, shopDayEnd(s.to, zone)))
  const filter = where.length ? and(...where) : undefined
  const [total] = await db
    .select({ n: count() })
    .from(receipts)
    .innerJoin(orders, eq(orders.id, receipts.orderId))
    .where(filter)
  const rows = await db
    .select({ r: receipts, number: orders.number })
    .from(receipts)
    .innerJoin(orders, eq(orders.id, receipts.orderId))
    .where(filter)
    .orderBy(desc(receipts.created), desc(receipts.id))
    .limit(s.pageSize)
    .offset((s.page - 1) * s.pageSize)
  return { count: total?.n ?? 0, results: rows.map((x) => ledgerOut(x.r, x.number)) }
}

/** The receipts of one order, oldest first (its card). */
export async function ledgerOfOrder(db: Db | Tx, orderId: string): Promise<LedgerReceipt[]> {
  const rows = await db
    .select({ r: receipts, number: orders.number })
    .from(receipts)
    .innerJoin(orders, eq(orders.id, receipts.orderId))
    .where(eq(receipts.orderId, orderId))
    .orderBy(asc(receipts.id))
  return rows.map((x) => ledgerOut(x.r, x.number))
}
