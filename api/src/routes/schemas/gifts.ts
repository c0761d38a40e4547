import { ConsentIn } from './consent'
import { z } from '@hono/zod-openapi'
import { limitOffsetQuery, pageSchema } from '../../lib/pagination'
import { MoneySchema } from '../../lib/schemas'
import { message } from '../../lib/errors'

// Wire shapes of the gift catalogue (§3, RokkyGift) and of gift orders (RokkyOrder).

export const GiftSchema = z
  .object({
    resourcetype: z.literal('RokkyGift'),
    id: z.number().int(),
    title: z.string(),
    type: z.string().openapi({ description: 'Kind of gift, e.g. a gift card or a subscription' }),
    price: MoneySchema,
    region: z.string(),
    cashback: z.number().int().openapi({ description: 'Cashback percent credited after purchase' }),
    logo: z.string(),
    discount_price: MoneySchema.nullable().openapi({ description: 'Discounted price; null when none' }),
    discount_percent: z.number().int(),
    in_stock: z.boolean().openapi({
      description:
        'True while at least one gift code is neither sold nor held for another order’s payment. Out-of-stock gifts stay listed so shoppers see them, but cannot be ordered.',
    }),
  })
  .openapi('RokkyGift')

export const GiftDetailSchema = GiftSchema.extend({
  description: z.string(),
  tags: z.array(z.string()),
  created: z.string().openapi({ format: 'date-time' }),
}).openapi('RokkyGiftDetail')

export const GiftPageSchema = pageSchema(GiftSchema).openapi('PaginatedRokkyGiftList')

// The path is prefixed to the message by the validation hook, so messages do not repeat it.
const boolText = z
  .enum(['true', 'false'], { error: message('field_true_false') })
  .transform((v) => v === 'true')

export const GiftListQuery = limitOffsetQuery.extend({
  is_main: boolText.optional().openapi({ param: { name: 'is_main', in: 'query' }, type: 'boolean' }),
  search: z
    .string()
    .max(100, message('field_max_chars', { max: 100 }))
    .optional()
    .openapi({
      param: { name: 'search', in: 'query' },
      description: 'Case-insensitive match in title, type, region or tags',
    }),
  title__icontains: z
    .string()
    .max(100, message('field_max_chars', { max: 100 }))
    .optional()
    .openapi({ param: { name: 'title__icontains', in: 'query' } }),
})

// ---------------------------------------------------------------- RokkyOrder

const giftId = z
  .number({ error: message('field_gift_required') })
  .int(message('field_gift_required'))
  .positive(message('field_gift_required'))
  .max(2_147_483_647, message('field_gift_required'))

/** Email as text; its format is checked by the order service (the same rule as for top-ups). */
const emailText = z
  .string({ error: message('field_string') })
  .trim()
  .max(254, message('field_max_chars', { max: 254 }))

export const RokkyOrderCreateBody = z
  .object({
    gift: giftId,
    email: emailText
      .nullish()
      .openapi({ description: 'Required for guests; signed-in users default to their account email' }),
    personal_data_consent: ConsentIn,
  })
  .openapi('RokkyOrderCreate')

export const RokkyOrderResultSchema = z
  .object({
    id: z.uuid(),
    total: MoneySchema,
    gift: z.number().int(),
  })
  .openapi('RokkyOrderResult')

export const RokkyOrderUpdateBody = z.object({ gift: giftId }).openapi('RokkyOrderUpdate')

export const RokkyDeliveryDetailsBody = z.object({ email: emailText }).openapi('RokkyDeliveryDetailsUpdate')
