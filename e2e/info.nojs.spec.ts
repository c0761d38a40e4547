import { expect, test } from '@playwright/test'

// The info pages are plain server-rendered documents: they read the same with JavaScript off.
test('info pages render without JavaScript', async ({ page }) => {
  await page.goto('/info')
  await page.getByRole('main').getByRole('link', { name: 'Контакты' }).first().click()
  await expect(page).toHaveURL('/info/contacts')
  // the requisites themselves are the owner's (e2e/legal-steps.ts changes them meanwhile): their terms show
  await expect(page.getByRole('main').getByRole('term').filter({ hasText: 'ИНН' })).toBeVisible()
  await page.goto('/info/TextBlock')
  await expect(page.getByRole('heading', { level: 1, name: 'Как мы работаем' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: 'Почему нам доверяют' })).toBeVisible()
})

test('an unknown info page is a 404', async ({ page }) => {
  const res = await page.goto('/info/no-such-page')
  expect(res?.status()).toBe(404)
})
