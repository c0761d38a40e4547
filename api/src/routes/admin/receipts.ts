// «Чеки» (issue 47): every receipt as an accountant reads it, filtered and paged; owner only, as the
// other receipt operations (the refused ones and their resend).
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../context'
import { fail, message } from '../../lib/errors'
import { pageNumberPage, pageQuery, pageSchema } from '../../lib/pagination'
import { errorResponses, jsonContent, MoneySchema } from '../../lib/schemas'
import { isUuid } from '../../services/orders/access'
import { PAYMENT_OBJECTS, VAT_RATES } from '../../services/receipts/model'
import {
  RECEIPT_KINDS,
  RECEIPT_LEDGER_KINDS,
  RECEIPT_PAYMENT_METHODS,
  RECEIPT_STATUSES,
  searchReceipts,
} from '../../services/receipts/ledger'
import { shopTimeZone } from '../../services/shop/settings'
import { parseOrderNumber } from '../../../../shared/order-number'
import { Day } from './fields'
import { adminRoute } from './guard'

const PAGE_SIZE = 20

const KIND_NOTE =
  'prepayment — приход, «предоплата 100 %» (an order delivered later, when paid); payment — приход, ' +
  '«полный расчёт» at payment; settlement — приход, «полный расчёт» offsetting the advance at delivery; ' +
  'refund — возврат прихода'

export const AdminReceiptViewSchema = z
  .object({
    id: z.number().int(),
    order_id: z.uuid(),
    order_number: z.number().int().nullable().openapi({ description: 'The order’s short number' }),
    kind: z.enum(RECEIPT_LEDGER_KINDS).openapi({ description: KIND_NOTE }),
    operation: z
      .enum(RECEIPT_KINDS)
      .openapi({ description: 'Признак расчёта: sell — приход; sell_refund — возврат прихода' }),
    payment_method: z
      .enum(RECEIPT_PAYMENT_METHODS)
      .openapi({ description: 'Признак способа расчёта of every line' }),
    status: z.enum(RECEIPT_STATUSES),
    transport: z.string(),
    email: z.string(),
    total: MoneySchema,
    seller: z.object({
      name: z.string(),
      inn: z.string(),
      tax_system: z
        .string()
        .openapi({ description: 'СНО: osn, usn_income, usn_income_outcome, esn, patent' }),
      email: z.string(),
      payment_address: z.string(),
    }),
    items: z.array(
      z.object({
        name: z.string(),
        quantity: z.number().int(),
        price: MoneySchema,
        sum: MoneySchema,
        vat: z.enum(VAT_RATES),
        vat_sum: MoneySchema.nullable().openapi({ description: 'The VAT inside the sum; null: без НДС' }),
        payment_object: z.enum(PAYMENT_OBJECTS),
        payment_method: z.enum(RECEIPT_PAYMENT_METHODS),
      }),
    ),
    vat_totals: z.array(
      z.object({ vat: z.enum(VAT_RATES), sum: MoneySchema, vat_sum: MoneySchema.nullable() }),
    ),
    fiscal: z
      .object({
        fn_number: z.string().openapi({ description: 'ФН' }),
        fiscal_document_number: z.string().openapi({ description: 'ФД' }),
        fiscal_document_attribute: z.string().openapi({ description: 'ФП' }),
        receipt_datetime: z.string().openapi({ description: 'As the cash register printed it' }),
      })
      .nullable()
      .openapi({ description: 'Once registered' }),
    ofd_url: z
      .string()
      .nullable()
      .openapi({ description: 'The fiscal data operator’s page of the check, when known' }),
    reason: z.string().nullable().openapi({ description: 'Why the fiscal service refused it (failed only)' }),
    created: z.string(),
    registered_at: z.string().nullable(),
  })
  .openapi('AdminReceiptView', { description: 'A fiscal receipt (54-ФЗ) in full, for the back-office' })

const list = adminRoute('owner', {
  method: 'get',
  path: '/api/admin/receipts/',
  summary: 'Every receipt, newest first: by status, kind, the shop’s days; found by its order’s number or id',
  request: {
    query: pageQuery.extend({
      q: z
        .string()
        .trim()
        .max(64, message('field_max_signs', { max: 64 }))
        .optional()
        .openapi({
          description:
            'The order’s short number («10234», «№ 10234») or id; anything else: 400 admin_receipt_search',
        }),
      status: z.enum(RECEIPT_STATUSES, message('field_receipt_status_choose')).optional(),
      kind: z
        .enum(RECEIPT_LEDGER_KINDS, message('field_receipt_kind_choose'))
        .optional()
        .openapi({ description: KIND_NOTE }),
      from: Day.optional().openapi({ description: 'From this day of the shop’s time zone' }),
      to: Day.optional().openapi({
        description: 'To this day inclusive (before `from`: 400 admin_date_range)',
      }),
    }),
  },
  responses: {
    200: jsonContent(pageSchema(AdminReceiptViewSchema).openapi('AdminReceiptPage')),
    ...errorResponses(400, 403, 404),
  },
})

export function registerAdminReceipts(app: ApiApp) {
  app.openapi(list, async (c) => {
    const { page = 1, page_size: pageSize = PAGE_SIZE, q, ...filters } = c.req.valid('query')
    if (filters.from && filters.to && filters.from > filters.to) throw fail(400, 'admin_date_range')
    let order: { orderId?: string; orderNumber?: number } = {}
    if (q) {
      const number = parseOrderNumber(q)
      if (isUuid(q)) order = { orderId: q.toLowerCase() }
      else if (number !== null) order = { orderNumber: number }
      else throw fail(400, 'admin_receipt_search')
    }
    const { db, config } = c.var.deps
    const timeZone = await shopTimeZone(db, config)
    const { count, results } = await searchReceipts(db, { ...filters, ...order, timeZone, page, pageSize })
    return c.json(pageNumberPage(c.req.url, count, page, pageSize, results), 200)
  })
}
