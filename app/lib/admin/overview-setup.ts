// The overview's «Что ещё не настроено» list (issue 37, 33): each line says what a new shop lacks
// and links to the back-office screen that fixes it.
import type { components } from '#openapi/schema'
import { INFO_PAGES } from '#app/components/info/info-pages'
import type { TFunction } from '#app/i18n/translate'

type Overview = components['schemas']['AdminOverview']

export interface SetupLine {
  key: string
  text: string
  /** the screen where the owner fixes it */
  to: string
}

/** The seller's requisites and the receipts are fixed in «Реквизиты и чеки». */
export const SELLER_SCREEN = '/admin/seller'

/** The form of /admin/articles that opens a legal document's template (issue 47). */
export const templatePath = (slug: string) => `/admin/articles?template=${slug}#article-template`

/** The storefront title of the linked page `/info/{slug}` (its menu and footer name). */
export function linkedPageTitle(slug: string, t: TFunction): string {
  const page = INFO_PAGES.find((p) => p.path === `/info/${slug}`)
  return page ? t(`${page.key}.title`) : slug
}

export function setupLines(o: Pick<Overview, 'setup' | 'seller_warnings' | 'failed_receipts'>, t: TFunction) {
  const lines: SetupLine[] = []
  if (!o.setup.shop_named)
    lines.push({
      key: 'shop',
      text: t('admin.shop_settings.not_saved', { name: o.setup.shop_name }),
      to: '/admin/shop',
    })
  if (o.setup.payment_methods === 0)
    lines.push({
      key: 'payments',
      text: t('admin.overview_alerts.no_payment_methods'),
      to: '/admin/payments',
    })
  for (const slug of o.setup.missing_articles ?? [])
    lines.push({
      key: `article:${slug}`,
      text: t('admin.overview_alerts.legal_missing', { title: linkedPageTitle(slug, t) }),
      to: templatePath(slug),
    })
  for (const w of o.seller_warnings ?? []) lines.push({ key: `seller:${w}`, text: w, to: SELLER_SCREEN })
  const failed = o.failed_receipts?.length ?? 0
  if (failed > 0)
    lines.push({
      key: 'receipts',
      text: t('admin.overview_alerts.failed_receipts', { n: failed }),
      // the refused receipts are listed, and resent, on the same screen
      to: `${SELLER_SCREEN}#failed-heading`,
    })
  return lines
}
