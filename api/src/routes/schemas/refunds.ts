// Wire shapes of refunds: the order's `refund` and its `returned_payments` (services/refunds/view.ts
// builds them).
import { z } from '@hono/zod-openapi'
import { MoneySchema } from '../../lib/schemas'
import { REFUND_METHODS, REFUND_STATUSES } from '../../services/refunds/view'

export const RefundSchema = z
  .object({
    status: z.enum(REFUND_STATUSES).openapi({
      description: 'pending: the provider is asked; done: refunded; manual: support refunds it by hand',
    }),
    method: z.enum(REFUND_METHODS).openapi({
      description: 'provider: back the way it was paid; balance: to the shop balance; manual: by support',
    }),
    amount: MoneySchema.openapi({ description: 'Refunded in all (paid plus balance spent), roubles' }),
    to_balance: MoneySchema.openapi({ description: 'The part credited to the shop balance' }),
    reason: z.string(),
  })
  .openapi('OrderRefund', { description: 'Our extension: the refund of a paid order that was not delivered' })

export const ReturnedPaymentSchema = z
  .object({
    amount: MoneySchema.openapi({ description: 'What the provider took, in `currency`' }),
    currency: z.string(),
    status: z.enum(REFUND_STATUSES).openapi({
      description: 'pending: the provider is asked; done: given back; manual: support gives it back by hand',
    }),
    method: z.enum(REFUND_METHODS),
  })
  .openapi('ReturnedPayment', {
    description:
      'Our extension: a payment the provider took but the shop could not accept (amount or currency ' +
      'not the payment’s, order no longer payable); it did not pay the order and is given back',
  })
