import { expect, type Page, test } from '@playwright/test'

/** A message key shown instead of its text (`gifts.tabs.all`): a page that lacks its messages. */
const RAW_KEY =
  /\b(account|catalogue|products|top_up_balance|gifts|info|payment|order_lookup|shell|nav)\.[a-z_]+\b/

async function expectNoRawKeys(page: Page) {
  const text = await page.locator('body').textContent()
  expect((text ?? '').match(RAW_KEY)?.[0] ?? null).toBeNull()
}

test('a page arrives compressed and carries only its own messages', async ({ page }) => {
  const res = await page.goto('/')
  expect(['br', 'gzip']).toContain(res?.headers()['content-encoding'])
  const html = await res!.text()
  // the pay page's and the gift pages' texts are not part of the catalogue page
  expect(html).not.toContain('Способ оплаты')
  expect(html).toContain('Каталог')
  await expectNoRawKeys(page)
})

test('moving between sections in the browser brings each section its messages', async ({ page }) => {
  await page.goto('/')
  await page.evaluate(() => {
    ;(window as { __sameDocument?: boolean }).__sameDocument = true
  })
  await page
    .getByRole('link', { name: /^PUBG Mobile/ })
    .first()
    .click()
  await expect(page).toHaveURL(/\/products\/\d+/)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expectNoRawKeys(page)

  await page.getByRole('navigation', { name: 'Главное меню' }).getByRole('link', { name: 'Подарки' }).click()
  await expect(page).toHaveURL(/\/gifts/)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  await expectNoRawKeys(page)

  await page
    .getByRole('navigation', { name: 'Информация о магазине' })
    .getByRole('link', { name: 'Контакты' })
    .click()
  await expect(page).toHaveURL(/\/info\/contacts/)
  await expectNoRawKeys(page)

  await page.getByRole('navigation', { name: 'Главное меню' }).getByRole('link', { name: 'Каталог' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expectNoRawKeys(page)
  // all of it without a full page load
  expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
})
