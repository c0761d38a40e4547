// Back-office catalogue: games, products, gifts, FAQ and info articles. Every change is audited;
// the storefront shows it within its catalogue cache time (CATALOGUE_CACHE_SECONDS).
import { type RouteConfig, z } from '@hono/zod-openapi'
import { eq } from 'drizzle-orm'
import type { ApiApp } from '../../context'
import { articles, faq, GAME_KINDS, games, gifts, products } from '../../db/schema'
import { fail, fieldError } from '../../lib/errors'
import { errorResponses, IdParam, jsonContent } from '../../lib/schemas'
import { productKindOf } from '../../services/catalogue/queries'
import { audit } from '../../services/admin/audit'
import {
  adminGameOut,
  adminGiftOut,
  adminProductOut,
  discountPercentOf,
  listAllGames,
  listAllGifts,
  listArticles,
  listGameFaq,
  listGameProducts,
} from '../../services/admin/catalogue'
import { patchAudited } from '../../services/admin/patch'
import { checkSupplier, SUPPLIERS } from '../../services/delivery/suppliers'
import { keepArticleVersion } from '../../services/consent/record'
import { Int, jsonBody, Money, Percent, Tags, Text, Title } from './fields'
import { adminRoute, staffOf } from './guard'

// ------------------------------------------------------------------ shapes
const GameOut = z
  .object({
    id: z.number().int(),
    kind: z.enum(GAME_KINDS),
    title: z.string(),
    detail_title: z.string(),
    detail_description: z.string(),
    logo: z.string(),
    is_active: z.boolean(),
    is_auth_required: z.boolean(),
    discount_percent: z.number().int(),
    product_preview_name: z.string(),
    tags: z.array(z.string()),
    sort_order: z.number().int(),
    supplier: z.string(),
    delivery_minutes: z.number().int(),
  })
  .openapi('AdminGame')
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
const FaqOut = z
  .object({
    id: z.number().int(),
    game: z.number().int(),
    text: z.string(),
    answer: z.string(),
    order: z.number().int(),
  })
  .openapi('AdminFaq')
const ArticleOut = z
  .object({ slug: z.string(), header: z.string(), text: z.string() })
  .openapi('AdminArticle')

// ------------------------------------------------------------------ inputs
const GameFields = z.object({
  title: Title,
  detail_title: Text(200).optional(),
  detail_description: Text(20_000).optional(),
  logo: Text(500).optional(),
  is_active: z.boolean().optional(),
  is_auth_required: z.boolean().optional(),
  discount_percent: Percent.optional(),
  product_preview_name: Text(100).optional(),
  tags: Tags.optional(),
  sort_order: Int(-1000, 1000).optional(),
  // who delivers its orders (a person by default) and the time a buyer is promised (decision 042)
  supplier: z.enum(SUPPLIERS, 'выберите, кто выдаёт заказы').optional(),
  delivery_minutes: Int(1, 10_080).optional(),
})
const GameCreate = GameFields.extend({ kind: z.enum(GAME_KINDS, 'выберите вид игры') }).openapi(
  'AdminGameCreate',
)
const GamePatch = GameFields.partial().openapi('AdminGamePatch')

const ProductFields = z.object({
  title: Title,
  price: Money,
  discount_price: Money.nullable().optional(),
  min_quantity: Int(1, 1000).optional(),
  max_quantity: Int(1, 1000).optional(),
  is_active: z.boolean().optional(),
  amount_uc: Int(0, 1_000_000).nullable().optional(),
  gold: Int(0, 1_000_000).nullable().optional(),
  sort_order: Int(-1000, 1000).optional(),
})
const ProductCreate = ProductFields.openapi('AdminProductCreate')
const ProductPatch = ProductFields.partial().openapi('AdminProductPatch')

const GiftFields = z.object({
  title: Title,
  type: Text(100).min(1, 'заполните тип'),
  region: Text(100).min(1, 'заполните регион'),
  price: Money,
  discount_price: Money.nullable().optional(),
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

const FaqFields = z.object({
  text: Text(500).min(1, 'заполните вопрос'),
  answer: Text(5000).min(1, 'заполните ответ'),
  order: Int(-1000, 1000).optional(),
})
const FaqCreate = FaqFields.openapi('AdminFaqCreate')
const FaqPatch = FaqFields.partial().openapi('AdminFaqPatch')
const ArticleBody = z
  .object({ header: Text(300).min(1, 'заполните заголовок'), text: Text(200_000) })
  .openapi('AdminArticleInput')
const SlugParam = z.object({
  slug: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'латинские буквы, цифры, - и _')
    .openapi({ param: { name: 'slug', in: 'path' } }),
})

/** The price rules of products and gifts: a discount is below the price. */
function checkDiscount(price: number, discountPrice: number | null | undefined) {
  if (discountPrice !== null && discountPrice !== undefined && discountPrice >= price)
    throw fieldError('discount_price', 'admin_discount_not_below_price')
}

// ------------------------------------------------------------------ routes
type Def = {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete'
  path: string
  summary: string
  request?: RouteConfig['request']
}
/** An owner-only catalogue operation answering `ok`. */
const r = <const D extends Def, T extends z.ZodTypeAny>(def: D, ok: T) =>
  adminRoute('owner', {
    ...def,
    responses: { 200: jsonContent(ok), ...errorResponses(400, 403, 404, 409) },
  })

const routes = {
  games: r(
    { method: 'get', path: '/api/admin/games/', summary: 'Every game, inactive ones too' },
    z.array(GameOut),
  ),
  gameCreate: r(
    { method: 'post', path: '/api/admin/games/', summary: 'Add a game', request: jsonBody(GameCreate) },
    GameOut,
  ),
  gamePatch: r(
    {
      method: 'patch',
      path: '/api/admin/games/{id}/',
      summary: 'Change a game',
      request: { params: IdParam, ...jsonBody(GamePatch) },
    },
    GameOut,
  ),
  products: r(
    {
      method: 'get',
      path: '/api/admin/games/{id}/products/',
      summary: 'A game’s products',
      request: { params: IdParam },
    },
    z.array(ProductOut),
  ),
  productCreate: r(
    {
      method: 'post',
      path: '/api/admin/games/{id}/products/',
      summary: 'Add a product to a game',
      request: { params: IdParam, ...jsonBody(ProductCreate) },
    },
    ProductOut,
  ),
  productPatch: r(
    {
      method: 'patch',
      path: '/api/admin/products/{id}/',
      summary: 'Change a product (price, discount, limits, active)',
      request: { params: IdParam, ...jsonBody(ProductPatch) },
    },
    ProductOut,
  ),
  gifts: r(
    { method: 'get', path: '/api/admin/gifts/', summary: 'Every gift, inactive ones too' },
    z.array(GiftOut),
  ),
  giftCreate: r(
    { method: 'post', path: '/api/admin/gifts/', summary: 'Add a gift', request: jsonBody(GiftCreate) },
    GiftOut,
  ),
  giftPatch: r(
    {
      method: 'patch',
      path: '/api/admin/gifts/{id}/',
      summary: 'Change a gift',
      request: { params: IdParam, ...jsonBody(GiftPatch) },
    },
    GiftOut,
  ),
  faq: r(
    {
      method: 'get',
      path: '/api/admin/games/{id}/faq/',
      summary: 'A game’s FAQ',
      request: { params: IdParam },
    },
    z.array(FaqOut),
  ),
  faqCreate: r(
    {
      method: 'post',
      path: '/api/admin/games/{id}/faq/',
      summary: 'Add a FAQ item',
      request: { params: IdParam, ...jsonBody(FaqCreate) },
    },
    FaqOut,
  ),
  faqPatch: r(
    {
      method: 'patch',
      path: '/api/admin/faq/{id}/',
      summary: 'Change a FAQ item',
      request: { params: IdParam, ...jsonBody(FaqPatch) },
    },
    FaqOut,
  ),
  faqDelete: r(
    {
      method: 'delete',
      path: '/api/admin/faq/{id}/',
      summary: 'Remove a FAQ item',
      request: { params: IdParam },
    },
    z.object({ deleted: z.literal(true) }),
  ),
  articles: r(
    { method: 'get', path: '/api/admin/articles/', summary: 'Every info article' },
    z.array(ArticleOut),
  ),
  articlePut: r(
    {
      method: 'put',
      path: '/api/admin/articles/{slug}/',
      summary: 'Create or replace an info article (HTML; the storefront sanitizes it on display)',
      request: { params: SlugParam, ...jsonBody(ArticleBody) },
    },
    ArticleOut,
  ),
}

export function registerAdminCatalogue(app: ApiApp) {
  app.openapi(routes.games, async (c) => {
    return c.json((await listAllGames(c.var.deps.db)).map(adminGameOut), 200)
  })

  app.openapi(routes.gameCreate, async (c) => {
    const staff = staffOf(c)
    const b = c.req.valid('json')
    checkSupplier(b.supplier, c.var.deps.config)
    const row = await c.var.deps.db.transaction(async (tx) => {
      const [g] = await tx
        .insert(games)
        .values({
          supplier: b.supplier ?? 'manual',
          deliveryMinutes: b.delivery_minutes ?? 30,
          kind: b.kind,
          title: b.title,
          detailTitle: b.detail_title ?? b.title,
          detailDescription: b.detail_description ?? '',
          logo: b.logo ?? '',
          isActive: b.is_active ?? false,
          isAuthRequired: b.is_auth_required ?? false,
          discountPercent: b.discount_percent ?? 0,
          productPreviewName: b.product_preview_name ?? '',
          tags: b.tags ?? [],
          sortOrder: b.sort_order ?? 0,
        })
        .returning()
      await audit(tx, staff, {
        action: 'game.create',
        entity: 'game',
        entityId: g!.id,
        after: adminGameOut(g!),
      })
      return g!
    })
    return c.json(adminGameOut(row), 200)
  })

  app.openapi(routes.gamePatch, async (c) => {
    const staff = staffOf(c)
    const { id } = c.req.valid('param')
    const b = c.req.valid('json')
    checkSupplier(b.supplier, c.var.deps.config)
    const row = await c.var.deps.db.transaction((tx) =>
      patchAudited<typeof games.$inferSelect>(tx, staff, { table: games, id: games.id, entity: 'game' }, id, {
        supplier: b.supplier,
        deliveryMinutes: b.delivery_minutes,
        title: b.title,
        detailTitle: b.detail_title,
        detailDescription: b.detail_description,
        logo: b.logo,
        isActive: b.is_active,
        isAuthRequired: b.is_auth_required,
        discountPercent: b.discount_percent,
        productPreviewName: b.product_preview_name,
        tags: b.tags,
        sortOrder: b.sort_order,
      }),
    )
    return c.json(adminGameOut(row), 200)
  })

  app.openapi(routes.products, async (c) => {
    return c.json((await listGameProducts(c.var.deps.db, c.req.valid('param').id)).map(adminProductOut), 200)
  })

  app.openapi(routes.productCreate, async (c) => {
    const staff = staffOf(c)
    const { id: gameId } = c.req.valid('param')
    const b = c.req.valid('json')
    checkDiscount(b.price, b.discount_price)
    const min = b.min_quantity ?? 1
    const max = b.max_quantity ?? 10
    if (min > max) throw fieldError('max_quantity', 'admin_min_over_max')
    const row = await c.var.deps.db.transaction(async (tx) => {
      const [game] = await tx.select().from(games).where(eq(games.id, gameId))
      if (!game) throw fail(404, 'not_found')
      const [p] = await tx
        .insert(products)
        .values({
          gameId,
          kind: productKindOf(game.kind),
          title: b.title,
          price: b.price,
          discountPrice: b.discount_price ?? null,
          discountPercent: discountPercentOf(b.price, b.discount_price ?? null),
          minQuantity: min,
          maxQuantity: max,
          isActive: b.is_active ?? true,
          amountUc: b.amount_uc ?? null,
          gold: b.gold ?? null,
          sortOrder: b.sort_order ?? 0,
        })
        .returning()
      await audit(tx, staff, {
        action: 'product.create',
        entity: 'product',
        entityId: p!.id,
        after: adminProductOut(p!),
      })
      return p!
    })
    return c.json(adminProductOut(row), 200)
  })

  app.openapi(routes.productPatch, async (c) => {
    const staff = staffOf(c)
    const { id } = c.req.valid('param')
    const b = c.req.valid('json')
    const row = await c.var.deps.db.transaction((tx) =>
      patchAudited<typeof products.$inferSelect>(
        tx,
        staff,
        { table: products, id: products.id, entity: 'product' },
        id,
        {
          title: b.title,
          price: b.price,
          discountPrice: b.discount_price,
          minQuantity: b.min_quantity,
          maxQuantity: b.max_quantity,
          isActive: b.is_active,
          amountUc: b.amount_uc,
          gold: b.gold,
          sortOrder: b.sort_order,
        },
        (m) => {
          checkDiscount(m.price, m.discountPrice)
          if (m.minQuantity > m.maxQuantity) throw fieldError('max_quantity', 'admin_min_over_max')
        },
      ),
    )
    // the shown percent follows the prices
    const percent = discountPercentOf(row.price, row.discountPrice)
    if (percent !== row.discountPercent)
      await c.var.deps.db.update(products).set({ discountPercent: percent }).where(eq(products.id, id))
    return c.json(adminProductOut({ ...row, discountPercent: percent }), 200)
  })

  app.openapi(routes.gifts, async (c) => {
    return c.json((await listAllGifts(c.var.deps.db)).map(adminGiftOut), 200)
  })

  app.openapi(routes.giftCreate, async (c) => {
    const staff = staffOf(c)
    const b = c.req.valid('json')
    checkDiscount(b.price, b.discount_price)
    const row = await c.var.deps.db.transaction(async (tx) => {
      const [g] = await tx
        .insert(gifts)
        .values({
          title: b.title,
          type: b.type,
          region: b.region,
          price: b.price,
          discountPrice: b.discount_price ?? null,
          discountPercent: discountPercentOf(b.price, b.discount_price ?? null),
          cashback: b.cashback ?? 0,
          logo: b.logo ?? '',
          description: b.description ?? '',
          tags: b.tags ?? [],
          isMain: b.is_main ?? false,
          isNew: b.is_new ?? true,
          isActive: b.is_active ?? false,
        })
        .returning()
      await audit(tx, staff, {
        action: 'gift.create',
        entity: 'gift',
        entityId: g!.id,
        after: adminGiftOut(g!),
      })
      return g!
    })
    return c.json(adminGiftOut(row), 200)
  })

  app.openapi(routes.giftPatch, async (c) => {
    const staff = staffOf(c)
    const { id } = c.req.valid('param')
    const b = c.req.valid('json')
    const row = await c.var.deps.db.transaction((tx) =>
      patchAudited<typeof gifts.$inferSelect>(
        tx,
        staff,
        { table: gifts, id: gifts.id, entity: 'gift' },
        id,
        {
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
        },
        (m) => checkDiscount(m.price, m.discountPrice),
      ),
    )
    const percent = discountPercentOf(row.price, row.discountPrice)
    if (percent !== row.discountPercent)
      await c.var.deps.db.update(gifts).set({ discountPercent: percent }).where(eq(gifts.id, id))
    return c.json(adminGiftOut({ ...row, discountPercent: percent }), 200)
  })

  const faqOut = (f: typeof faq.$inferSelect) => ({
    id: f.id,
    game: f.gameId,
    text: f.text,
    answer: f.answer,
    order: f.order,
  })

  app.openapi(routes.faq, async (c) => {
    return c.json((await listGameFaq(c.var.deps.db, c.req.valid('param').id)).map(faqOut), 200)
  })

  app.openapi(routes.faqCreate, async (c) => {
    const staff = staffOf(c)
    const { id: gameId } = c.req.valid('param')
    const b = c.req.valid('json')
    const row = await c.var.deps.db.transaction(async (tx) => {
      const [game] = await tx.select({ id: games.id }).from(games).where(eq(games.id, gameId))
      if (!game) throw fail(404, 'not_found')
      const [f] = await tx
        .insert(faq)
        .values({ gameId, text: b.text, answer: b.answer, order: b.order ?? 0 })
        .returning()
      await audit(tx, staff, { action: 'faq.create', entity: 'faq', entityId: f!.id, after: faqOut(f!) })
      return f!
    })
    return c.json(faqOut(row), 200)
  })

  app.openapi(routes.faqPatch, async (c) => {
    const staff = staffOf(c)
    const { id } = c.req.valid('param')
    const b = c.req.valid('json')
    const row = await c.var.deps.db.transaction((tx) =>
      patchAudited<typeof faq.$inferSelect>(tx, staff, { table: faq, id: faq.id, entity: 'faq' }, id, {
        text: b.text,
        answer: b.answer,
        order: b.order,
      }),
    )
    return c.json(faqOut(row), 200)
  })

  app.openapi(routes.faqDelete, async (c) => {
    const staff = staffOf(c)
    const { id } = c.req.valid('param')
    await c.var.deps.db.transaction(async (tx) => {
      const [f] = await tx.delete(faq).where(eq(faq.id, id)).returning()
      if (!f) throw fail(404, 'not_found')
      await audit(tx, staff, { action: 'faq.delete', entity: 'faq', entityId: id, before: faqOut(f) })
    })
    return c.json({ deleted: true as const }, 200)
  })

  app.openapi(routes.articles, async (c) => {
    return c.json(await listArticles(c.var.deps.db), 200)
  })

  app.openapi(routes.articlePut, async (c) => {
    const staff = staffOf(c)
    const { slug } = c.req.valid('param')
    const b = c.req.valid('json')
    const row = await c.var.deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(articles).where(eq(articles.slug, slug)).for('update')
      const [a] = await tx
        .insert(articles)
        .values({ slug, header: b.header, text: b.text })
        .onConflictDoUpdate({ target: articles.slug, set: { header: b.header, text: b.text } })
        .returning()
      // a new text is a new version; the old ones stay (what a consent was given to, issue 33)
      await keepArticleVersion(tx, slug)
      await audit(tx, staff, {
        action: before ? 'article.update' : 'article.create',
        entity: 'article',
        entityId: slug,
        before: before ?? null,
        after: a,
      })
      return a!
    })
    return c.json(row, 200)
  })
}
