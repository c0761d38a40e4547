// Issue 20, finding 2, in Chromium: `returnTo` values that a browser's URL parser turns into
// another origin (`/%09/evil.example/x` → `//evil.example/x`) leave the shopper on our origin,
// after sign-in, for a signed-in shopper at once, after sign-out and after a social sign-in;
// a newline in them is no 500.
import { expect, type Page, test } from '@playwright/test'
import { baseURL, FAKE_SOCIAL_ORIGIN } from '../playwright.config'
import { PASSWORD, signUpViaPopup, uniqueEmail } from './account-helpers'

const ORIGIN = new URL(baseURL).origin
const TRICKS = ['/%09/evil.example/x', '/%0a/evil.example/x', '/%5C/evil.example/x', '/.//evil.example/x']
const onOurOrigin = (page: Page) => expect.poll(() => new URL(page.url()).origin).toBe(ORIGIN)

test('after sign-in with a tricky returnTo the shopper stays on the shop', async ({ page }) => {
  for (const trick of TRICKS) {
    await page.context().clearCookies()
    const res = await page.goto(`/auth?returnTo=${trick}`)
    expect(res?.status()).toBe(200)
    await page.getByLabel('Электронная почта').fill(uniqueEmail('redirect'))
    await page.getByLabel('Я даю согласие на обработку персональных данных').check()
    await page.getByLabel('Пароль').fill(PASSWORD)
    await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
    await expect(page.getByRole('button', { name: 'Выйти' })).toBeVisible()
    await onOurOrigin(page)
  }
})

test('a signed-in shopper sent to /auth with a tricky returnTo stays on the shop, no 500', async ({
  page,
}) => {
  await signUpViaPopup(page, uniqueEmail('redirect-in'))
  for (const trick of TRICKS) {
    const res = await page.goto(`/auth?returnTo=${trick}`)
    expect(res?.status()).toBeLessThan(500)
    await onOurOrigin(page)
  }
})

test('sign-out and a social sign-in with a tricky returnTo come back to the shop', async ({ page }) => {
  await signUpViaPopup(page, uniqueEmail('redirect-out'))
  const out = await page.request.post('/auth/logout', {
    form: { returnTo: '/\t/evil.example/x' },
    headers: { origin: ORIGIN },
    maxRedirects: 0,
  })
  expect(out.status()).toBe(302)
  expect(new URL(out.headers().location ?? '', baseURL).origin).toBe(ORIGIN)

  await page.context().clearCookies()
  await page
    .context()
    .addCookies([{ name: 'fake_user', value: `redir${Date.now()}`, url: FAKE_SOCIAL_ORIGIN }])
  await page.goto('/auth')
  // the social button's form carries the page's returnTo: make it a tricky one
  await page
    .locator('form[action="/auth/vk_id/start"] input[name="returnTo"]')
    .evaluate((i: HTMLInputElement) => {
      i.value = '/\t/evil.example/x'
    })
  await page.getByRole('button', { name: 'Войти через VK ID' }).click()
  await expect(page.getByRole('button', { name: 'Выйти' })).toBeVisible()
  await onOurOrigin(page)
})

// Issue 38, finding 4: `//evil.invalid/login` rendered the 404 page with «Войти» (and «Последние
// заказы», and the popup's close link) pointing at `//evil.invalid/login?…` — another host — and
// `//evil.example/..` was a 500.
const DOUBLED = ['//evil.invalid/login', '//evil.example/..', '/\\evil.invalid/x', '///evil.invalid/a?b=1']
const offSite = (page: Page) =>
  page
    .locator('a[href]')
    .evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))
    .then((hrefs) => hrefs.filter((h) => new URL(h).hostname.includes('evil')))

test('a path starting with // stays on the shop, no 500, and its popup links never leave it', async ({
  page,
}) => {
  for (const path of DOUBLED) {
    const res = await page.goto(`${ORIGIN}${path}`)
    expect(res?.status(), path).toBeLessThan(500)
    await onOurOrigin(page)
    expect(await offSite(page), path).toEqual([])
  }
  await page.goto(`${ORIGIN}//evil.invalid/login`)
  await page.getByRole('link', { name: 'Войти', exact: true }).first().click()
  await expect(page.getByRole('dialog')).toBeVisible()
  await onOurOrigin(page)
  expect(await offSite(page)).toEqual([])
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toBeHidden()
  await onOurOrigin(page)

  await signUpViaPopup(page, uniqueEmail('doubled'))
  await page.goto(`${ORIGIN}//evil.invalid/login`)
  await expect(page.getByRole('link', { name: 'Последние заказы' }).first()).toBeAttached()
  expect(await offSite(page)).toEqual([])
  await page.getByRole('link', { name: 'Последние заказы' }).first().click({ force: true })
  await onOurOrigin(page)
})
