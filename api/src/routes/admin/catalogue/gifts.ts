// Back-office gifts: every gift (inactive ones too), adding one, changing one.
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../../context'
import { IdParam } from '../../../lib/schemas'
import { createGift, patchGift } from '../../../services/admin/catalogue/products'
import { adminGiftOut, listAllGifts } from '../../../services/admin/catalogue/views'
import { Filled, jsonBody, Money, NullableMoney, Percent, Tags, Text, Title } from '../fields'
import { staffOf } from '../guard'
import { ownerRoute } from './owner-route'
import { message } from '../../../lib/errors'

const GiftOut = z
  .object({
    id: z.number().int(),
    title: z.string(),
    type: z.string(),
    region: z.string(),
    price: z.string(),
    discount_price: z.string().nullable(),
    discount_percent: z.number().int(),
    cashback: z.number().int(),
    logo: z.string(),
    description: z.string(),
    tags: z.array(z.string()),
    is_main: z.boolean(),
    is_new: z.boolean(),
    is_active: z.boolean(),
  })
  .openapi('AdminGift')
const GiftFields = z.object({
  title: Title,
  type: Filled(100, message('field_gift_type_required')),
  region: Filled(100, message('field_region_required')),
  price: Money,
  discount_price: NullableMoney.optional(),
  cashback: Percent.optional(),
  logo: Text(500).optional(),
  description: Text(20_000).optional(),
  tags: Tags.optional(),
  is_main: z.boolean().optional(),
  is_new: z.boolean().optional(),
  is_active: z.boolean().optional(),
})
const GiftCreate = GiftFields.openapi('AdminGiftCreate')
const GiftPatch = GiftFields.partial().openapi('AdminGiftPatch')

const routes = {
  gifts: ownerRoute(
    { method: 'get', path: '/api/admin/gifts/', summary: 'Every gift, inactive ones too' },
    z.array(GiftOut),
  ),
  giftCreate: ownerRoute(
    { method: 'post', path: '/api/admin/gifts/', summary: 'Add a gift', request: jsonBody(GiftCreate) },
    GiftOut,
  ),
  giftPatch: ownerRoute(
    {
      method: 'patch',
      path: '/api/admin/gifts/{id}/',
      summary: 'Change a gift',
      request: { params: IdParam, ...jsonBody(GiftPatch) },
    },
    GiftOut,
  ),
}

const giftValues = (b: z.infer<typeof GiftPatch>) => ({
  title: b.title,
  type: b.type,
  region: b.region,
  price: b.price,
  discountPrice: b.discount_price,
  cashback: b.cashback,
  logo: b.logo,
  description: b.description,
  tags: b.tags,
  isMain: b.is_main,
  isNew: b.is_new,
  isActive: b.is_active,
})

export function registerAdminGifts(app: ApiApp) {
  app.openapi(routes.gifts, async (c) => c.json((await listAllGifts(c.var.deps.db)).map(adminGiftOut), 200))

  app.openapi(routes.giftCreate, async (c) => {
    const b = c.req.valid('json')
    const row = await createGift(c.var.deps.db, staffOf(c), {
      ...giftValues(b),
      title: b.title,
      type: b.type,
      region: b.region,
      price: b.price,
    })
    return c.json(adminGiftOut(row), 200)
  })

  app.openapi(routes.giftPatch, async (c) => {
    const row = await patchGift(
      c.var.deps.db,
      staffOf(c),
      c.req.valid('param').id,
      giftValues(c.req.valid('json')),
    )
    return c.json(adminGiftOut(row), 200)
  })
}
