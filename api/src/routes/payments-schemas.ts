import { ReceiptSchema } from './schemas/receipts'
import { RefundSchema, ReturnedPaymentSchema } from './schemas/refunds'
import { z } from '@hono/zod-openapi'
import { MoneySchema, MAX_DB_INT } from '../lib/schemas'

/** Wire shapes of the payment endpoints (spec §3 "Country", "Method group", "Method", "Payment scenario"). */

export const CountrySchema = z
  .object({ id: z.number().int(), flag: z.string(), name: z.string() })
  .openapi('Country')

export const PaymentMethodSchema = z
  .object({
    name: z.string().openapi({ description: 'Path segment of POST /api/payments/{name}/' }),
    title: z.string(),
    uri: z.string(),
    fee: z.string().openapi({ example: '3.00', description: 'Percent fee on the converted total' }),
    icon: z.string(),
    is_active: z.boolean().openapi({ description: 'False when the method or its provider is off' }),
    min_amount: MoneySchema.openapi({ description: 'Minimum converted total, in the payment currency' }),
    fix_fee: MoneySchema.openapi({ description: 'Fixed fee, in the payment currency' }),
    is_secondary: z.boolean(),
    currencies: z.array(z.string()),
    required_fields: z.array(z.string()).openapi({ example: ['email', 'phone'] }),
    can_retrieve_payment_data: z.boolean(),
  })
  .openapi('PaymentMethod')

export const MethodGroupSchema = z
  .object({
    name: z.string(),
    short_name: z.string(),
    order: z.number().int(),
    methods: z.array(PaymentMethodSchema),
  })
  .openapi('PaymentMethodGroup')

export const ActiveCountrySchema = CountrySchema.extend({
  currency: z.string().openapi({ example: 'RUB' }),
  rate: z.string().openapi({ example: '1.000000', description: 'Units of `currency` per rouble' }),
  method_groups: z.array(MethodGroupSchema),
}).openapi('ActiveCountry')

export const SelectCountryBody = z
  .object({ country_id: z.coerce.number().int().positive().max(MAX_DB_INT) })
  .openapi('SelectCountry')

const sandboxUrl = {
  sandbox_checkout_url: z
    .string()
    .optional()
    .openapi({ description: 'Sandbox only: the local checkout page to confirm or decline the test payment' }),
}

/** The eight scenario variants (spec §3), each discriminated by `type`. */
const VARIANTS = [
  z.object({ type: z.literal('external'), help_text: z.string(), ...sandboxUrl }),
  z.object({
    type: z.literal('form'),
    method: z.enum(['POST', 'GET']),
    action: z.string(),
    fields: z.record(z.string(), z.string()),
    ...sandboxUrl,
  }),
  z.object({
    type: z.literal('invoice_qr'),
    qr_str: z.string(),
    expires_at: z
      .string()
      .optional()
      .openapi({ description: 'Our extension: when the QR stops being offered (ISO 8601)' }),
    ...sandboxUrl,
  }),
  z.object({ type: z.literal('p2p'), card_number: z.string(), card_name: z.string(), ...sandboxUrl }),
  z.object({ type: z.literal('p2p_redirect'), url: z.string(), ...sandboxUrl }),
  z.object({ type: z.literal('qr'), url: z.string(), ...sandboxUrl }),
  z.object({ type: z.literal('redirect'), url: z.string(), ...sandboxUrl }),
  z.object({ type: z.literal('wait_order_state'), order_id: z.string(), ...sandboxUrl }),
] as const

const NAMES = [
  'External',
  'Form',
  'InvoiceQr',
  'P2p',
  'P2pRedirect',
  'Qr',
  'Redirect',
  'WaitOrderState',
] as const

/** Builds one discriminated union of the variants, each extended with `extra`, named `{prefix}{Type}`. */
function variantsWith<E extends z.ZodRawShape>(prefix: string, extra: E) {
  const [a, b, c, d, e, f, g, h] = VARIANTS.map((v, i) =>
    v.extend(extra).openapi(`${prefix}${NAMES[i]}`),
  ) as unknown as [
    z.ZodObject<(typeof VARIANTS)[0]['shape'] & E>,
    z.ZodObject<(typeof VARIANTS)[1]['shape'] & E>,
    z.ZodObject<(typeof VARIANTS)[2]['shape'] & E>,
    z.ZodObject<(typeof VARIANTS)[3]['shape'] & E>,
    z.ZodObject<(typeof VARIANTS)[4]['shape'] & E>,
    z.ZodObject<(typeof VARIANTS)[5]['shape'] & E>,
    z.ZodObject<(typeof VARIANTS)[6]['shape'] & E>,
    z.ZodObject<(typeof VARIANTS)[7]['shape'] & E>,
  ]
  return z.discriminatedUnion('type', [a, b, c, d, e, f, g, h])
}

const paymentInfo = {
  payment_id: z.uuid(),
  amount: MoneySchema.openapi({ description: 'What the shopper pays, fees included, in `currency`' }),
  currency: z.string(),
}

export const StartPaymentResponse = variantsWith('PaymentStart', paymentInfo).openapi('PaymentStart', {
  description: 'The payment scenario (by `type`) plus the payment id, amount and currency',
})

export const StartPaymentBodySchema = z
  .object({
    order_id: z.string().max(36).openapi({ format: 'uuid' }),
    currency: z.string().min(1).max(8),
    email: z.string().max(254).nullish(),
    phone: z.string().max(32).nullish(),
  })
  .openapi('StartPayment')

export const PaymentStatusEnum = z.enum(['pending', 'succeeded', 'failed'])

export const PaymentDataSchema = variantsWith('PaymentData', {
  ...paymentInfo,
  payment_status: PaymentStatusEnum,
  method_name: z
    .string()
    .optional()
    .openapi({ description: 'Our extension: the method the payment was started with (a new QR uses it)' }),
  url: z.string().nullable().openapi({
    description: 'Where the shopper pays (url, form action or sandbox checkout), when there is one',
  }),
}).openapi('PaymentData')

export const OrderStatusSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(['created', 'waiting_for_payment', 'paid', 'sending', 'sent', 'done', 'failed']),
    payment_id: z.uuid().nullable(),
    payment_status: PaymentStatusEnum.nullable(),
    payment_message: z
      .string()
      .nullable()
      .openapi({ description: 'Russian text about the latest payment when it failed (declined)' }),
    is_payment_active: z.boolean(),
    reject_reason: z.string().nullable(),
    refund: RefundSchema.nullable().optional(),
    returned_payments: z.array(ReturnedPaymentSchema).optional().openapi({
      description: 'Our extension, only when there is one: payments taken but not accepted, being given back',
    }),
    receipts: z.array(ReceiptSchema).optional().openapi({
      description: 'Our extension, only when there is one: the fiscal receipts of the order',
    }),
    on_review: z.boolean().optional().openapi({
      description:
        'Our extension, only when true: the order is paid but held for review (no code until staff approve it)',
    }),
    charged: z
      .object({
        amount: z.string().openapi({ description: 'Roubles charged, the method’s fee included' }),
        fee: z.string().openapi({ description: 'Of it, the payment method’s fee' }),
        paid: z
          .boolean()
          .openapi({ description: 'Charged already (else: the payment under way will charge it)' }),
      })
      .optional()
      .openapi({
        description:
          'Our extension, only when a payment charges something: what the buyer pays or paid in roubles (the refund returns the same)',
      }),
  })
  .openapi('OrderStatus')
