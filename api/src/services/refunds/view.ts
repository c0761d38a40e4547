// The refund of an order as the shop API shows it: an optional extension (`refund`) of the order
// status answer and the recalculated order. The status of the order itself stays `failed`.
// Refused payments given back (decision 037) are the optional `returned_payments` of the status answer.
import { z } from '@hono/zod-openapi'
import { and, asc, eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { REFUND_METHODS, REFUND_STATUSES, refunds } from '../../db/schema'
import { MoneySchema } from '../../lib/schemas'
import { toMoney } from '../../lib/money'

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

export type RefundOut = z.infer<typeof RefundSchema>

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

export type ReturnedPaymentOut = z.infer<typeof ReturnedPaymentSchema>

/** `returned_payments` of the order status answer: present only when there is one. */
export async function returnedPaymentsOf(
  db: Db | Tx,
  orderId: string,
): Promise<{ returned_payments?: ReturnedPaymentOut[] }> {
  const rows = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, 'payment')))
    .orderBy(asc(refunds.id))
  if (rows.length === 0) return {}
  return {
    returned_payments: rows.map((r) => ({
      amount: toMoney(r.amount),
      currency: r.currency,
      status: r.status,
      method: r.method,
    })),
  }
}

export async function refundOut(db: Db | Tx, orderId: string): Promise<RefundOut | null> {
  const [r] = await db
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, 'order')))
  if (!r) return null
  return {
    status: r.status,
    method: r.method,
    amount: toMoney(r.amount),
    to_balance: toMoney(r.toBalance),
    reason: r.reason,
  }
}
