// The success screen and a declined payment on a 360×740 phone (issue 50), shared by the JS and
// no-JS specs: a done order leads with «Готово», its short number and the code with its copy
// button on the first screen, then how to activate it; a declined payment says at the top that
// no money was taken and offers the retry and another method there.
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import { orderNumberOf } from './admin-helpers'
import {
  choosePaymentMethod,
  confirmInSandbox,
  createPubgOrder,
  METHOD_BY_SCENARIO,
  payPath,
  SANDBOX,
} from './payment-steps'

export const PHONE = { width: 360, height: 740 }

/** axe (WCAG 2.0 A/AA, 2.1 AA, as e2e/a11y.spec.ts) finds nothing; axe needs JavaScript. */
async function expectNoAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze()
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
}

/** The element's box lies within the first screen (the page scrolled to its top). */
async function expectOnFirstScreen(
  page: Page,
  what: Parameters<Page['locator']>[0] | ReturnType<Page['locator']>,
) {
  const locator = typeof what === 'string' ? page.locator(what) : what
  await expect(locator).toBeVisible()
  await page.evaluate(() => window.scrollTo(0, 0))
  const box = await locator.boundingBox()
  expect(box, 'a box').not.toBeNull()
  expect(box!.y + box!.height, `${locator} ends within the first ${PHONE.height} px`).toBeLessThanOrEqual(
    PHONE.height,
  )
}

/** A guest buys 325 UC, pays in the sandbox and lands on the success screen. */
export async function successScreenShowsTheCode(page: Page, javaScript: boolean) {
  await page.setViewportSize(PHONE)
  const id = await createPubgOrder(page.request, '325 UC', 1)
  const number = await orderNumberOf(page.request, id)
  await page.goto(payPath(id))
  await expect(page.getByRole('heading', { level: 1, name: 'Оплата заказа' })).toBeVisible()
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
  await confirmInSandbox(page)
  await expect(page).toHaveURL(payPath(id))

  await expect(page.getByRole('heading', { level: 1, name: 'Готово' })).toBeVisible({ timeout: 15_000 })
  await expect(page.getByText(`Заказ № ${number}`, { exact: true })).toBeVisible()
  await expect(page.getByText(id)).toHaveCount(0)
  const codes = page.getByRole('region', { name: 'Ваши коды' })
  await expect(codes.getByRole('listitem')).toHaveCount(1)
  const first = codes.getByRole('listitem').first()
  await expect(first.locator('code')).toHaveText(/^UC-[A-Z0-9]{4}-/)
  await expectOnFirstScreen(page, first.locator('code'))
  if (javaScript) {
    const copy = first.getByRole('button', { name: /^Копировать: UC-/ })
    await expectOnFirstScreen(page, copy)
  } else {
    // without JavaScript the code is plain selectable text
    await expect(codes.getByRole('button')).toHaveCount(0)
  }
  // how to activate them, from the done mail's text, and where
  await expect(codes.getByRole('heading', { name: 'Как активировать UC-коды' })).toBeVisible()
  await expect(codes.getByText(/Midasbuy .*введите код/)).toBeVisible()
  await expect(codes.getByRole('link', { name: /Открыть страницу активации Midasbuy/ })).toHaveAttribute(
    'href',
    /^https:\/\/www\.midasbuy\.com\//,
  )
  // a done order offers no payment: no methods, no promo code
  await expect(page.getByRole('heading', { name: 'Способ оплаты' })).toHaveCount(0)
  await expect(page.getByRole('textbox', { name: 'Промокод' })).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Выполнен', exact: true })).toBeVisible()
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  if (javaScript) await expectNoAxeViolations(page)
}

/** The sandbox declines the payment: the top of the page says so and offers both ways on. */
export async function declinedPaymentSaysSoAtTheTop(page: Page, javaScript: boolean) {
  test.setTimeout(60_000)
  await page.setViewportSize(PHONE)
  const id = await createPubgOrder(page.request)
  await page.goto(payPath(id))
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
  await expect(page.getByRole('heading', { name: SANDBOX.heading })).toBeVisible({ timeout: 20_000 })
  await page.getByRole('button', { name: SANDBOX.decline }).click()
  await expect(page).toHaveURL(payPath(id))

  const note = page
    .getByRole('alert')
    .filter({ has: page.getByRole('heading', { name: /деньги не списаны/ }) })
  await expect(note.getByRole('heading')).toHaveText('Оплата не прошла — деньги не списаны')
  await expect(note).toContainText('Попробуйте ещё раз или выберите другой способ')
  const retry = note.getByRole('button', { name: 'Повторить оплату' })
  const other = note.getByRole('link', { name: 'Выбрать другой способ' })
  await expectOnFirstScreen(page, note.getByRole('heading'))
  await expectOnFirstScreen(page, retry)
  await expectOnFirstScreen(page, other)
  await expect(other).toHaveAttribute('href', '#methods-heading')
  await expect(page.locator('#methods-heading')).toHaveText('Способ оплаты')
  if (javaScript) await expectNoAxeViolations(page)

  // the retry starts the same method again, and this time the buyer pays
  await retry.click()
  await confirmInSandbox(page)
  await expect(page).toHaveURL(payPath(id))
  await expect(page.getByRole('heading', { level: 1, name: 'Готово' })).toBeVisible({ timeout: 15_000 })
  await expect(page.getByText('деньги не списаны')).toHaveCount(0)
}
