// Issue 20, finding 2 without JavaScript: the sign-in page's plain form post with a tricky
// `returnTo` ends on our origin, and a signed-in shopper is never sent off it.
import { expect, test } from '@playwright/test'
import { baseURL } from '../playwright.config'
import { PASSWORD, uniqueEmail } from './account-helpers'

const ORIGIN = new URL(baseURL).origin

test('without JavaScript: sign-in and /auth with a tricky returnTo stay on the shop', async ({ page }) => {
  await page.goto('/auth?returnTo=/%09/evil.example/x')
  await page.getByLabel('Электронная почта').fill(uniqueEmail('redirect-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await page.getByLabel('Пароль').fill(PASSWORD)
  await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page.getByRole('button', { name: 'Выйти' })).toBeVisible()
  expect(new URL(page.url()).origin).toBe(ORIGIN)

  for (const trick of ['/%09/evil.example/x', '/%0d%0a/evil.example', '/%5C/evil.example']) {
    const res = await page.goto(`/auth?returnTo=${trick}`)
    expect(res?.status()).toBeLessThan(500)
    expect(new URL(page.url()).origin).toBe(ORIGIN)
  }
})

test('without JavaScript: a path starting with // stays on the shop and its «Войти» link too', async ({
  page,
}) => {
  for (const path of ['//evil.invalid/login', '//evil.example/..', '/\\evil.invalid/x']) {
    const res = await page.goto(`${ORIGIN}${path}`)
    expect(res?.status(), path).toBeLessThan(500)
    expect(new URL(page.url()).origin).toBe(ORIGIN)
    const hrefs = await page
      .locator('a[href]')
      .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))
    expect(
      hrefs.filter((h) => new URL(h).hostname.includes('evil')),
      path,
    ).toEqual([])
  }
  await page.goto(`${ORIGIN}//evil.invalid/login`)
  await page.getByRole('link', { name: 'Войти', exact: true }).first().click()
  expect(new URL(page.url()).origin).toBe(ORIGIN)
  await expect(page.getByRole('dialog')).toBeVisible()
  const close = await page
    .locator('.user-dialog a[href]')
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))
  expect(close.length).toBeGreaterThan(0)
  for (const h of close) expect(new URL(h).origin).toBe(ORIGIN)
})
