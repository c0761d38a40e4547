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

test('social sign-in of an unknown provider is an unknown page: the 404 screen, not raw JSON', async ({
  page,
  request,
}) => {
  for (const path of ['/auth/github/redirect', '/auth/github/redirect/?code=x', '/auth/github/start']) {
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(404)
    expect(res?.headers()['content-type'], path).toContain('text/html')
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Страница не найдена')
    await expect(page.getByRole('link', { name: 'На главную' })).toBeVisible()
  }
  // a form post to an unknown provider's start is refused the same way
  const post = await request.post('/auth/github/start', { form: { mode: 'auth' } })
  expect(post.status()).toBe(404)
  // the known providers still have their routes (GET start leads to the sign-in page)
  const known = await request.get('/auth/vk_id/start', { maxRedirects: 0 })
  expect(known.status()).toBe(302)
  expect(known.headers().location).toMatch(/^\/auth\?returnTo=/)
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
