// Issue 47: the legal documents are setup steps. Until the owner publishes one, its storefront page
// says the shop has not published it yet and the overview's «Что ещё не настроено» lists it; the
// line opens the document's template on /admin/articles (a plain link: JavaScript on or off),
// filled with the seller's requisites; the owner edits it and publishes it.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import { withSellerChanged } from './seller-lock'

/** The storefront and menu titles of the four legal documents (shared/legal-documents.ts). */
export const LEGAL_TITLES = {
  'privacy-policy': 'Политика конфиденциальности',
  consent: 'Согласие на обработку персональных данных',
  'user-agreement': 'Пользовательское соглашение',
  refunds: 'Правила возврата',
} as const
export type LegalSlug = keyof typeof LEGAL_TITLES

const NOT_PUBLISHED = 'Магазин ещё не опубликовал этот документ'

const setupLine = (page: Page, slug: LegalSlug) =>
  page
    .getByRole('main')
    .getByRole('alert', { name: 'Что ещё не настроено' })
    .getByRole('link', { name: `Не опубликован документ «${LEGAL_TITLES[slug]}»: заполните его из шаблона` })

const noSideScroll = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  )

/** The storefront page of a document not published: the plain notice, no text of anyone's. */
export async function documentNotPublished(page: Page, slug: LegalSlug) {
  await page.goto(`/info/${slug}`)
  await expect(page.getByRole('heading', { level: 1, name: LEGAL_TITLES[slug] })).toBeVisible()
  await expect(page.getByRole('main')).toContainText(NOT_PUBLISHED)
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
}

/**
 * The owner (signed in, on the back-office) opens the document's template from the overview's
 * setup line, finds `expected` in it (the requisites), adds a line of their own and publishes it:
 * the storefront shows it, /admin/articles marks it present, the overview no longer lists it.
 */
export async function publishFromTemplate(page: Page, slug: LegalSlug, expected: string[]) {
  await page.goto('/admin')
  await setupLine(page, slug).click()
  await expect(page).toHaveURL(new RegExp(`/admin/articles\\?template=${slug}#article-template$`))
  const form = page.getByRole('form', { name: `Опубликовать: ${LEGAL_TITLES[slug]}` })
  await expect(form).toBeVisible()
  const text = form.getByLabel('Текст (HTML)')
  for (const e of expected)
    await expect(text).toHaveValue(new RegExp(e.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  // no placeholder left unfilled, nor the demo company's requisites (the demo's contacts row)
  await expect(text).not.toHaveValue(/\{\w+\}|7703482150/)
  const header = await form.getByLabel('Заголовок').inputValue()
  expect(header.length).toBeGreaterThan(5)
  await noSideScroll(page)
  // the owner's edit is what gets published
  const mine = `Проверено владельцем ${Date.now()}`
  await text.fill(`${await text.inputValue()}\n<p>${mine}</p>`)
  await form.getByRole('button', { name: 'Опубликовать' }).click()
  await expect(page.getByText('Документ опубликован')).toBeVisible()
  await expect(page).toHaveURL(/\/admin\/articles$/)
  await expect(page.locator(`li[data-linked="${slug}"]`)).toHaveAttribute('data-present', 'true')
  await expect(page.getByRole('form', { name: `Опубликовать: ${LEGAL_TITLES[slug]}` })).toHaveCount(0)

  await page.goto(`/info/${slug}`)
  await expect(page.getByRole('heading', { level: 1, name: header })).toBeVisible()
  await expect(page.getByRole('main')).toContainText(mine)
  await expect(page.getByRole('main')).not.toContainText(NOT_PUBLISHED)
  for (const e of expected) await expect(page.getByRole('main')).toContainText(e)

  await page.goto('/admin')
  await expect(page.getByRole('heading', { level: 1, name: 'Обзор' })).toBeVisible()
  await expect(setupLine(page, slug)).toHaveCount(0)
}

/**
 * For an owner's first day (the lead's e2e/first-day-steps.ts): every legal document, published
 * from its template, each found to carry `expected` (the requisites the owner saved).
 */
export async function ownerPublishesLegalDocuments(page: Page, expected: string[]) {
  for (const slug of Object.keys(LEGAL_TITLES) as LegalSlug[]) {
    await documentNotPublished(page, slug)
    await publishFromTemplate(page, slug, expected)
  }
}

/**
 * On the demo server (which publishes neither the consent nor the refund rules), at 360 px: `slug`
 * is not published; the owner's template carries the requisites saved in «Реквизиты и чеки»; the
 * owner publishes it. The requisites row is shared by the run: changed and put back under its lock.
 */
export async function ownerPublishesDemoDocument(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
  slug: 'consent' | 'refunds',
) {
  await page.setViewportSize({ width: 360, height: 780 })
  await documentNotPublished(page, slug)
  const token = await signInAs(context, request, OWNER)
  const auth = { Authorization: `Bearer ${token}` }
  const name = `Шаблон ${Date.now()}`
  await withSellerChanged(
    request,
    auth,
    (before) => ({
      ...before,
      legal_form: 'ООО',
      company_name: name,
      inn: '7707083893',
      ogrn: '1027700132195',
      address: 'Москва, ул. Шаблонная, 5',
      email: 'legal@shop.example',
    }),
    () => publishFromTemplate(page, slug, [`ООО ${name}`, 'ИНН 7707083893', 'ОГРН 1027700132195']),
  )
}
