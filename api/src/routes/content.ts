import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { fail, message } from '../lib/errors'
import { errorResponses, idParam, jsonContent } from '../lib/schemas'
import { shareAnswer } from '../lib/shared-answer'
import { activeGameFaq, findArticle, firstContacts } from '../services/content/public'
import { getSellerSettings, sellerName } from '../services/receipts/settings'

const ArticleSchema = z
  .object({
    slug: z.string(),
    header: z.string(),
    text: z.string().openapi({ description: 'HTML; clients must sanitize it before rendering' }),
  })
  .openapi('Article')

const ContactSchema = z
  .object({
    company_name: z.string(),
    address: z.string(),
    inn: z.string(),
    company_id: z.string().openapi({ description: 'State registration number (ОГРН)' }),
    extra: z.string().openapi({ description: 'Free text, one item per line' }),
  })
  .openapi('Contact')

const FaqItemSchema = z
  .object({
    id: z.number().int(),
    text: z.string().openapi({ description: 'The question' }),
    answer: z.string(),
    game: z.number().int(),
    order: z.number().int(),
  })
  .openapi('FaqItem')

const SlugParam = z.object({
  slug: z
    .string()
    .max(100, message('field_article_slug'))
    .regex(/^[A-Za-z0-9_-]{1,100}$/, message('field_article_slug'))
    .openapi({ param: { name: 'slug', in: 'path' }, example: 'privacy-policy' }),
})

const GamePkParam = z.object({
  game_pk: idParam('game_pk'),
})

const getArticleRoute = createRoute({
  method: 'get',
  path: '/api/articles/{slug}/',
  tags: ['content'],
  summary: 'One info article (privacy-policy, user-agreement, TextBlock, …)',
  description:
    "Public; cached for anonymous callers for the catalogue cache time. The text is the owner's HTML as saved: clients sanitize it before display. Unknown slug: 404.",
  request: { params: SlugParam },
  responses: { 200: jsonContent(ArticleSchema), ...errorResponses(400, 404) },
})

const getContactsRoute = createRoute({
  method: 'get',
  path: '/api/contacts/',
  tags: ['content'],
  summary: "The shop's legal and contact details",
  description:
    "Public. The owner's requisites once saved in the back office, otherwise the seeded contacts row; 404 when neither exists.",
  responses: { 200: jsonContent(ContactSchema), ...errorResponses(404) },
})

const listFaqRoute = createRoute({
  method: 'get',
  path: '/api/faq/{game_pk}/',
  tags: ['content'],
  summary: 'FAQ of an active game, ordered by `order`',
  description:
    'Public; cached for anonymous callers for the catalogue cache time. A game that does not exist or is hidden answers 404.',
  request: { params: GamePkParam },
  responses: { 200: jsonContent(z.array(FaqItemSchema)), ...errorResponses(400, 404) },
})

export function registerContent(app: ApiApp) {
  app.openapi(getArticleRoute, async (c) => {
    const { slug } = c.req.valid('param')
    const row = await findArticle(c.var.deps.db, slug)
    if (!row) throw fail(404, 'article_not_found', { slug })
    shareAnswer(c)
    return c.json({ slug: row.slug, header: row.header, text: row.text }, 200)
  })

  app.openapi(getContactsRoute, async (c) => {
    // the owner's requisites («Реквизиты и чеки») once saved with an INN; before that (or saved
    // empty, as a fresh shop's form is), the seeded row
    const seller = await getSellerSettings(c.var.deps.db)
    if (seller.saved && seller.inn !== '') {
      shareAnswer(c)
      const lines = [
        seller.email && `Почта: ${seller.email}`,
        seller.phone && `Телефон: ${seller.phone}`,
        seller.extra,
      ]
      return c.json(
        {
          company_name: sellerName(seller),
          address: seller.address,
          inn: seller.inn,
          company_id: seller.ogrn,
          extra: lines.filter(Boolean).join('\n'),
        },
        200,
      )
    }
    const row = await firstContacts(c.var.deps.db)
    if (!row) throw fail(404, 'contacts_not_found')
    shareAnswer(c)
    return c.json(
      {
        company_name: row.companyName,
        address: row.address,
        inn: row.inn,
        company_id: row.companyId,
        extra: row.extra,
      },
      200,
    )
  })

  app.openapi(listFaqRoute, async (c) => {
    const { game_pk } = c.req.valid('param')
    const rows = await activeGameFaq(c.var.deps.db, game_pk)
    if (!rows) throw fail(404, 'game_not_found')
    shareAnswer(c)
    return c.json(
      rows.map((r) => ({ id: r.id, text: r.text, answer: r.answer, game: r.gameId, order: r.order })),
      200,
    )
  })
}
