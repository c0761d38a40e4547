import { expect, test } from '@playwright/test'

test('the home page is in Russian and remembers the locale in i18n_redirected', async ({ page, context }) => {
  await page.goto('/')
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru')
  await expect(page.getByRole('link', { name: 'Подарки' })).toBeVisible()
  const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected')
  expect(cookie?.value).toBe('ru')
  expect(cookie?.path).toBe('/')
  expect(cookie?.sameSite).toBe('Lax')
  const days = ((cookie?.expires ?? 0) - Date.now() / 1000) / 86400
  expect(days).toBeGreaterThan(364)
  expect(days).toBeLessThanOrEqual(365.01)
})

test('an unknown path shows the 404 error screen with a way home', async ({ page }) => {
  const res = await page.goto('/no/such/page')
  expect(res?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Страница не найдена')
  await expect(page.getByText('Page not found: /no/such/page')).toBeVisible()
  await expect(page).toHaveTitle('ИгроМаркет 404')
  await page.getByRole('link', { name: 'На главную' }).click()
  await expect(page).toHaveURL('/')
})

test('pages carry no stray NUL bytes from the streaming renderer', async ({ request }) => {
  for (const path of [
    '/',
    '/products/1',
    '/gifts?tab=discounted',
    '/gifts/detalis/2',
    '/info/privacy-policy',
  ]) {
    const body = await (await request.get(path)).text()
    expect(body.includes('\u0000'), path).toBe(false)
  }
})
