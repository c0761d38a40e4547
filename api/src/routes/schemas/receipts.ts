// Wire shape of an order's fiscal receipt (services/receipts/view.ts builds it).
import { z } from '@hono/zod-openapi'
import { MoneySchema } from '../../lib/schemas'
import { RECEIPT_KINDS, RECEIPT_PAYMENT_METHODS, RECEIPT_STATUSES } from '../../services/receipts/ledger'

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
