// Social sign-in and binding without JavaScript: the buttons are plain form posts, and an
// attacker's return link in the victim's browser binds nothing (issue 20, finding 1).
import { type Browser, expect, test } from '@playwright/test'
import { baseURL } from '../playwright.config'
import { authDialog, PASSWORD, uniqueEmail } from './account-helpers'

const TOAST = { timeout: 15_000 }

async function signUp(page: import('@playwright/test').Page, email: string) {
  await page.goto('/auth')
  await page.getByLabel('Электронная почта').fill(email)
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await page.getByLabel('Пароль').fill(PASSWORD)
  await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page.getByRole('button', { name: 'Выйти' })).toBeVisible()
}

async function attackersReturnLink(browser: Browser): Promise<string> {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    let link = ''
    // the attacker's browser posts the start form; its redirects are followed by hand up to the
    // provider's answer (a redirect's target cannot be routed), which is not opened
    await page.route(`**/auth/yandex/start`, async (route) => {
      const start = await route.fetch({ maxRedirects: 0 })
      const authorize = new URL(start.headers().location ?? '')
      authorize.searchParams.set('fake_user', `attacker${Date.now()}`)
      const answer = await context.request.get(authorize.toString(), { maxRedirects: 0 })
      link = answer.headers().location ?? ''
      await route.abort()
    })
    await page.goto('/auth')
    await page.getByRole('button', { name: 'Войти через Яндекс ID' }).click()
    await expect.poll(() => link).toContain('state=')
    return link
  } finally {
    await context.close()
  }
}

test('without JavaScript: sign in with VK ID from the popup’s button', async ({ page }) => {
  await page.goto('/gifts?auth=1')
  await authDialog(page).getByRole('button', { name: 'Войти через VK ID' }).click()
  await expect(page).toHaveURL('/gifts')
  await expect(page.getByText('Аккаунт создан, вы вошли')).toBeVisible(TOAST)
})

test('without JavaScript: bind from the profile; the attacker’s return link binds nothing', async ({
  page,
  browser,
}) => {
  const email = uniqueEmail('nojs-bind')
  await signUp(page, email)
  const link = await attackersReturnLink(browser)
  await page.goto(link)
  await expect(page.getByText('Вход не удалось завершить')).toBeVisible(TOAST)

  await page.goto('/profile')
  const yandex = page.getByRole('listitem').filter({ hasText: 'Яндекс ID:' })
  await expect(yandex).toContainText('не привязан')
  await yandex.getByRole('button', { name: 'Привязать Яндекс ID' }).click()
  await expect(page).toHaveURL('/profile')
  await expect(page.getByText('Яндекс ID привязан к профилю')).toBeVisible(TOAST)
  await expect(page.getByRole('listitem').filter({ hasText: 'Яндекс ID:' })).not.toContainText('не привязан')
})
