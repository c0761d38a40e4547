// Back-office products of a game: listing, adding, changing (price, discount, limits, active).
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../../context'
import { IdParam } from '../../../lib/schemas'
import { createProduct, patchProduct } from '../../../services/admin/catalogue/products'
import { adminProductOut, listGameProducts } from '../../../services/admin/catalogue/views'
import { Int, jsonBody, Money, NullableMoney, Title } from '../fields'
import { staffOf } from '../guard'
import { ownerRoute } from './owner-route'

const ProductOut = z
  .object({
    id: z.number().int(),
    game: z.number().int(),
    kind: z.string(),
    title: z.string(),
    price: z.string(),
    discount_price: z.string().nullable(),
    discount_percent: z.number().int(),
    min_quantity: z.number().int(),
    max_quantity: z.number().int(),
    is_active: z.boolean(),
    amount_uc: z.number().int().nullable(),
    gold: z.number().int().nullable(),
    sort_order: z.number().int(),
  })
  .openapi('AdminProduct')
const ProductFields = z.object({
  title: Title,
  price: Money,
  discount_price: NullableMoney.optional(),
  min_quantity: Int(1, 1000).optional(),
  max_quantity: Int(1, 1000).optional(),
  is_active: z.boolean().optional(),
  amount_uc: Int(0, 1_000_000).nullable().optional(),
  gold: Int(0, 1_000_000).nullable().optional(),
  sort_order: Int(-1000, 1000).optional(),
})
const ProductCreate = ProductFields.openapi('AdminProductCreate')
const ProductPatch = ProductFields.partial().openapi('AdminProductPatch')

const routes = {
  products: ownerRoute(
    {
      method: 'get',
      path: '/api/admin/games/{id}/products/',
      summary: 'A game’s products',
      request: { params: IdParam },
    },
    z.array(ProductOut),
  ),
  productCreate: ownerRoute(
    {
      method: 'post',
      path: '/api/admin/games/{id}/products/',
      summary: 'Add a product to a game',
      request: { params: IdParam, ...jsonBody(ProductCreate) },
    },
    ProductOut,
  ),
  productPatch: ownerRoute(
    {
      method: 'patch',
      path: '/api/admin/products/{id}/',
      summary: 'Change a product (price, discount, limits, active)',
      request: { params: IdParam, ...jsonBody(ProductPatch) },
    },
    ProductOut,
  ),
}

const productValues = (b: z.infer<typeof ProductPatch>) => ({
  title: b.title,
  price: b.price,
  discountPrice: b.discount_price,
  minQuantity: b.min_quantity,
  maxQuantity: b.max_quantity,
  isActive: b.is_active,
  amountUc: b.amount_uc,
  gold: b.gold,
  sortOrder: b.sort_order,
})

export function registerAdminProducts(app: ApiApp) {
  app.openapi(routes.products, async (c) =>
    c.json((await listGameProducts(c.var.deps.db, c.req.valid('param').id)).map(adminProductOut), 200),
  )

  app.openapi(routes.productCreate, async (c) => {
    const b = c.req.valid('json')
    const row = await createProduct(c.var.deps.db, staffOf(c), c.req.valid('param').id, {
      ...productValues(b),
      title: b.title,
      price: b.price,
    })
    return c.json(adminProductOut(row), 200)
  })

  app.openapi(routes.productPatch, async (c) => {
    const row = await patchProduct(
      c.var.deps.db,
      staffOf(c),
      c.req.valid('param').id,
      productValues(c.req.valid('json')),
    )
    return c.json(adminProductOut(row), 200)
  })
}
