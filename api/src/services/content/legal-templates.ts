// The legal documents' templates (issue 47): the privacy policy, the consent to personal data
// processing, the user agreement (offer) and the refund rules, in locales/ru/legal-templates.json,
// filled with the seller's requisites («Реквизиты и чеки»), the shop's name and its address. The
// owner reviews and edits the filled text in /admin/articles; saving it publishes the article.
// A requisite not filled yet is left as a visible «[ИНН — заполните …]» and named in `missing`.
import { inArray } from 'drizzle-orm'
import { isLegalSlug, LEGAL_SLUGS, type LegalSlug } from '../../../../shared/legal-documents'
import { isSoleTraderNumber } from '../../../../shared/requisites'
import templates from '../../../../locales/ru/legal-templates.json' with { type: 'json' }
import type { Db, Tx } from '../../db/client'
import { articles } from '../../db/schema'
import { ApiError } from '../../lib/errors'
import { escapeHtml } from '../payments/checkout-page'
import { type SellerSettings, sellerName } from '../receipts/settings'

export interface LegalTemplate {
  header: string
  /** HTML (our own markup; the storefront sanitizes every article anyway) */
  text: string
  /** the requisites the text needs that are not filled yet, by their Russian names */
  missing: string[]
}

type Requisite = keyof typeof templates.fields

/** «2 декабря 2026 г.» in the shop's time zone: the edition date the document states. */
function editionDate(now: Date, zone: string): string {
  const f = new Intl.DateTimeFormat('ru-RU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: zone,
  })
  return f.format(now)
}

/** The template of `slug` filled from the requisites; null for a slug that has no template. */
export function legalTemplate(
  slug: string,
  seller: SellerSettings,
  shop: { name: string; url: string; timeZone: string },
  now = new Date(),
): LegalTemplate | null {
  // only our own slugs: a path such as «constructor» must not reach the object's prototype
  if (!isLegalSlug(slug)) return null
  const doc = (templates.documents as Record<LegalSlug, { header: string; text: string[] } | undefined>)[slug]
  if (!doc) return null
  const given: Record<Requisite, string> = {
    seller: seller.companyName.trim() ? sellerName(seller).trim() : '',
    inn: seller.inn.trim(),
    ogrn: seller.ogrn.trim(),
    address: seller.address.trim(),
    email: seller.email.trim(),
  }
  const missing = (Object.keys(given) as Requisite[]).filter((k) => given[k] === '')
  const shown = (k: Requisite) =>
    escapeHtml(given[k] || templates.missing.replace('{field}', templates.fields[k]))
  const site = escapeHtml(shop.url)
  const fields: Record<string, string> = {
    seller: shown('seller'),
    inn: shown('inn'),
    ogrn_label: templates.ogrn_label[isSoleTraderNumber(given.ogrn) ? 'sole_trader' : 'company'],
    ogrn: shown('ogrn'),
    address: shown('address'),
    email: given.email ? `<a href="mailto:${shown('email')}">${shown('email')}</a>` : shown('email'),
    shop: escapeHtml(shop.name),
    site: `<a href="${site}">${site}</a>`,
    date: editionDate(now, shop.timeZone),
  }
  const text = doc.text.join('\n').replace(/\{(\w+)\}/g, (all, k: string) => fields[k] ?? all)
  return { header: doc.header, text, missing: missing.map((k) => templates.fields[k]) }
}

/**
 * The requisites a text still marks as not filled («[ИНН — заполните …]», as a template leaves
 * them): a legal document is not published with a blank where the seller's details belong.
 */
export function unfilledRequisites(text: string): string[] {
  return (Object.keys(templates.fields) as Requisite[])
    .map((k) => templates.fields[k])
    .filter((name) => text.includes(escapeHtml(templates.missing.replace('{field}', name))))
}

/** The legal documents not published yet (no article under their slug), in LEGAL_SLUGS order. */
export async function unpublishedLegal(db: Db | Tx): Promise<LegalSlug[]> {
  const rows = await db
    .select({ slug: articles.slug })
    .from(articles)
    .where(inArray(articles.slug, [...LEGAL_SLUGS]))
  const published = new Set(rows.map((r) => r.slug))
  return LEGAL_SLUGS.filter((s) => !published.has(s))
}

/** The 404 of a slug that has no template, naming the documents that have one. */
export const noTemplate = (slug: string) =>
  new ApiError(404, 'article_template_not_found', templates.not_found.replace('{slug}', slug))
