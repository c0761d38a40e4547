// The phone layout check of every screen (e2e/screens.ts), with JavaScript (phone.spec.ts) and
// without (phone.nojs.spec.ts): opened at 360×740, then the same page resized to 320, 768 and
// 1280 px. SAVE_SCREENS=1 (`npm run screens`) also photographs the main screens, whole pages, into
// docs/screens/<screen>-360.png and -1280.png.
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import AxeBuilder from '@axe-core/playwright'
import { type BrowserContext, expect, type Page, type APIRequestContext, test } from '@playwright/test'
import { hiddenBehindBars, layoutProblems, MAX_HEADER_HEIGHT } from './phone-checks'
import { OWNER, OWNER_SCREENS, STAFF_SCREENS, signInAs } from './admin-helpers'
import { payWithSandbox } from './account-helpers'
import { backOfficeTextProblems } from './backoffice-text'
import { createPubgOrder, email } from './payment-steps'
import { SCREENS } from './screens'

export const PHONE = { width: 360, height: 740 }
const SCREENS_DIR = fileURLToPath(new URL('../docs/screens/', import.meta.url))
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa']

export const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')

async function checkWidth(page: Page, width: number, full: boolean) {
  await page.setViewportSize({ width, height: PHONE.height })
  const problems = await layoutProblems(page)
  // phones: every check; tablet and desktop: no horizontal scroll and a one-row header
  const relevant = full ? problems : problems.filter((p) => /wide at|header is/.test(p))
  if (full) relevant.push(...(await hiddenBehindBars(page)))
  expect(relevant, `${page.url()} at ${width} px`).toEqual([])
}

export function phoneScreens(js: boolean) {
  test.use({ viewport: PHONE })
  for (const screen of SCREENS) {
    test(`${screen.name}: fits 320–1280 px, phone-sized targets and text`, async ({
      page,
      context,
      request,
    }: {
      page: Page
      context: BrowserContext
      request: APIRequestContext
    }) => {
      const path = await screen.path({ page, context, request })
      const res = await page.goto(path)
      expect(res?.status()).toBe(screen.status ?? 200)
      await expect(page.locator('h1').first()).toBeVisible()
      if (js) await page.waitForLoadState('networkidle')
      await screen.act?.(page)
      // a form post's answer may still be streaming when its first alert shows
      await page.waitForLoadState('load')

      await checkWidth(page, 360, true)
      expect((await page.locator('.site-header__inner').boundingBox())?.height ?? 0).toBeLessThanOrEqual(
        MAX_HEADER_HEIGHT,
      )
      if (js) {
        const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()
        expect(
          violations.map(
            (v) =>
              `${v.id}: ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 3)
                .join(', ')}`,
          ),
          `axe at 360 px on ${path}`,
        ).toEqual([])
      }
      const save = js && screen.main && process.env.SAVE_SCREENS
      if (save) {
        mkdirSync(SCREENS_DIR, { recursive: true })
        await page.screenshot({
          path: `${SCREENS_DIR}${slug(screen.name)}-360.png`,
          fullPage: true,
        })
      }
      await checkWidth(page, 320, true)
      await checkWidth(page, 768, false)
      await checkWidth(page, 1280, false)
      if (save) {
        await page.setViewportSize({ width: 1280, height: 800 })
        await page.screenshot({
          path: `${SCREENS_DIR}${slug(screen.name)}-1280.png`,
          fullPage: true,
        })
      }
    })
  }
}

/** The back-office on the owner's phone: the same checks (its wide tables scroll inside their box). */
export function phoneOwnerScreens(js: boolean) {
  test.use({ viewport: PHONE })
  for (const screen of [...OWNER_SCREENS, ...STAFF_SCREENS]) {
    test(`back-office ${screen.path}: fits 320–1280 px, phone-sized targets and text, words people read`, async ({
      page,
      context,
      request,
    }: {
      page: Page
      context: BrowserContext
      request: APIRequestContext
    }) => {
      const access = await signInAs(context, request, OWNER)
      if (screen.path === '/admin/audit') await longestAuditAction(request, access)
      // screens of money and orders read with one paid order at least (revenue, totals, statuses)
      if (screen.path === '/admin' || screen.path === '/admin/orders')
        await payWithSandbox(request, null, await createPubgOrder(request, '60 UC', 1, email('words')))
      const res = await page.goto(screen.path)
      expect(res?.status()).toBe(200)
      await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible()
      if (js) await page.waitForLoadState('networkidle')
      // words a person reads (issue 47): no raw keys, enums, ISO times or unformatted amounts
      expect(await backOfficeTextProblems(page), `the text of ${screen.path}`).toEqual([])
      await checkWidth(page, 360, true)
      await checkWidth(page, 320, true)
      await checkWidth(page, 768, false)
      await checkWidth(page, 1280, false)
    })
  }
}

/** The order card of a paid order, JavaScript on or off: its fields, payments and timeline in words. */
export function phoneOrderCard() {
  test.use({ viewport: PHONE })
  test('back-office order card: words people read at 360 px', async ({ page, context, request }) => {
    await signInAs(context, request, OWNER)
    const orderId = await createPubgOrder(request, '60 UC', 1, email('card-words'))
    await payWithSandbox(request, null, orderId)
    const res = await page.goto(`/admin/orders/${orderId}`)
    expect(res?.status()).toBe(200)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    const paymentsCard = page.getByRole('region', { name: 'Платежи' })
    await expect(paymentsCard).toContainText('оплачен')
    // the method as the buyer saw it and the provider by name, not the method's address
    await expect(paymentsCard).toContainText('Банковская карта · Песочница (тестовые платежи)')
    await expect(paymentsCard).not.toContainText('sandbox-card')
    expect(await backOfficeTextProblems(page), 'the text of the order card').toEqual([])
    await checkWidth(page, 360, true)
  })
}

/** Leaves the back-office's longest action name («payment_method_group.create», in monospace) in
 *  the audit log, under a hidden country no buyer is offered: the audit's cards must wrap it. */
async function longestAuditAction(request: APIRequestContext, access: string) {
  const headers = { authorization: `Bearer ${access}` }
  const name = `Скрытая ${Date.now()}${Math.floor(Math.random() * 1e4)}`
  const country = await request.post('/api/admin/payments/countries/', {
    headers,
    data: { name, currency: 'RUB', hidden: true },
  })
  expect(country.status(), await country.text()).toBe(200)
  const { id } = (await country.json()) as { id: number }
  const group = await request.post(`/api/admin/payments/countries/${id}/method_groups/`, {
    headers,
    data: { name: 'Для журнала' },
  })
  expect(group.status(), await group.text()).toBe(200)
}
