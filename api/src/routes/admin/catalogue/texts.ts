// Back-office texts: a game's FAQ and the info articles (HTML; the storefront sanitizes it on display).
import { z } from '@hono/zod-openapi'
import type { ApiApp } from '../../../context'
import { IdParam } from '../../../lib/schemas'
import {
  adminFaqOut,
  createFaq,
  deleteFaq,
  patchFaq,
  putArticle,
} from '../../../services/admin/catalogue/texts'
import { listArticles, listGameFaq } from '../../../services/admin/catalogue/views'
import { legalTemplate, noTemplate } from '../../../services/content/legal-templates'
import { getSellerSettings } from '../../../services/receipts/settings'
import { getShopSettings } from '../../../services/shop/settings'
import { Filled, Int, jsonBody, Text } from '../fields'
import { staffOf } from '../guard'
import { ownerRoute } from './owner-route'
import { message } from '../../../lib/errors'

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
const ArticleTemplate = z
  .object({
    slug: z.string(),
    header: z.string(),
    text: z.string().openapi({ description: "HTML filled with the seller's requisites, to review and save" }),
    missing_requisites: z.array(z.string()).openapi({
      description:
        'Requisites the text needs that «Реквизиты и чеки» lacks (Russian names); the text marks each in brackets',
    }),
  })
  .openapi('AdminArticleTemplate')
const FaqFields = z.object({
  text: Filled(500, message('field_question_required')),
  answer: Filled(5000, message('field_answer_required')),
  order: Int(-1000, 1000).optional(),
})
const FaqCreate = FaqFields.openapi('AdminFaqCreate')
const FaqPatch = FaqFields.partial().openapi('AdminFaqPatch')
/** An info article's longest header and text, in characters (the storefront's form limit follows). */
export const ARTICLE_HEADER_MAX = 300
export const ARTICLE_TEXT_MAX = 200_000
const ArticleBody = z
  .object({
    header: Text(ARTICLE_HEADER_MAX).min(1, message('field_title_required')),
    text: Text(ARTICLE_TEXT_MAX),
  })
  .openapi('AdminArticleInput')
const SlugParam = z.object({
  slug: z
    .string()
    .max(64, message('field_slug'))
    .regex(/^[A-Za-z0-9_-]{1,64}$/, message('field_slug'))
    .openapi({ param: { name: 'slug', in: 'path' } }),
})

const routes = {
  faq: ownerRoute(
    {
      method: 'get',
      path: '/api/admin/games/{id}/faq/',
      summary: 'A game’s FAQ',
      request: { params: IdParam },
    },
    z.array(FaqOut),
  ),
  faqCreate: ownerRoute(
    {
      method: 'post',
      path: '/api/admin/games/{id}/faq/',
      summary: 'Add a FAQ item',
      request: { params: IdParam, ...jsonBody(FaqCreate) },
    },
    FaqOut,
  ),
  faqPatch: ownerRoute(
    {
      method: 'patch',
      path: '/api/admin/faq/{id}/',
      summary: 'Change a FAQ item',
      request: { params: IdParam, ...jsonBody(FaqPatch) },
    },
    FaqOut,
  ),
  faqDelete: ownerRoute(
    {
      method: 'delete',
      path: '/api/admin/faq/{id}/',
      summary: 'Remove a FAQ item',
      request: { params: IdParam },
    },
    z.object({ deleted: z.literal(true) }),
  ),
  articles: ownerRoute(
    { method: 'get', path: '/api/admin/articles/', summary: 'Every info article' },
    z.array(ArticleOut),
  ),
  articlePut: ownerRoute(
    {
      method: 'put',
      path: '/api/admin/articles/{slug}/',
      summary: 'Create or replace an info article (HTML; the storefront sanitizes it on display)',
      request: { params: SlugParam, ...jsonBody(ArticleBody) },
    },
    ArticleOut,
  ),
  articleTemplate: ownerRoute(
    {
      method: 'get',
      path: '/api/admin/articles/{slug}/template/',
      summary: 'A legal document’s template filled with the seller’s requisites (issue 47)',
      description:
        'For privacy-policy, consent, user-agreement and refunds: the text to review, edit and save with PUT /api/admin/articles/{slug}/ (which publishes it). Nothing is saved. Another slug: 404.',
      request: { params: SlugParam },
    },
    ArticleTemplate,
  ),
}

export function registerAdminTexts(app: ApiApp) {
  app.openapi(routes.faq, async (c) =>
    c.json((await listGameFaq(c.var.deps.db, c.req.valid('param').id)).map(adminFaqOut), 200),
  )

  app.openapi(routes.faqCreate, async (c) => {
    const row = await createFaq(c.var.deps.db, staffOf(c), c.req.valid('param').id, c.req.valid('json'))
    return c.json(adminFaqOut(row), 200)
  })

  app.openapi(routes.faqPatch, async (c) => {
    const row = await patchFaq(c.var.deps.db, staffOf(c), c.req.valid('param').id, c.req.valid('json'))
    return c.json(adminFaqOut(row), 200)
  })

  app.openapi(routes.faqDelete, async (c) => {
    await deleteFaq(c.var.deps.db, staffOf(c), c.req.valid('param').id)
    return c.json({ deleted: true as const }, 200)
  })

  app.openapi(routes.articles, async (c) => c.json(await listArticles(c.var.deps.db), 200))

  app.openapi(routes.articlePut, async (c) => {
    const row = await putArticle(c.var.deps.db, staffOf(c), c.req.valid('param').slug, c.req.valid('json'))
    return c.json(row, 200)
  })

  app.openapi(routes.articleTemplate, async (c) => {
    const { db, config } = c.var.deps
    const { slug } = c.req.valid('param')
    const [seller, shop] = await Promise.all([getSellerSettings(db), getShopSettings(db, config)])
    const filled = legalTemplate(slug, seller, {
      name: shop.name,
      url: config.publicUrl,
      timeZone: shop.timeZone,
    })
    if (!filled) throw noTemplate(slug)
    return c.json({ slug, header: filled.header, text: filled.text, missing_requisites: filled.missing }, 200)
  })
}
