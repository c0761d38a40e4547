// Accounts without JavaScript (issue 13), at 360 px: the forgotten-password round trip, the
// password change, and logout clearing the stored cart (Clear-Site-Data).
import { expect, test } from '@playwright/test'
import { PASSWORD, uniqueEmail } from './account-helpers'
import {
  expectSignedIn,
  NEW_PASSWORD,
  PHONE,
  resetPasswordByMail,
  signInOnPage,
  signOut,
  TOAST,
} from './accounts-steps'

test.use({ viewport: PHONE })
test.setTimeout(120_000)

test('without JavaScript: forgotten password → mail → new password → sign in; the old one is refused', async ({
  page,
}) => {
  const email = uniqueEmail('nojs-forgot')
  await signInOnPage(page, email, PASSWORD)
  await expect(page.getByText('Аккаунт создан, вы вошли')).toBeVisible(TOAST)
  await signOut(page)

  await resetPasswordByMail(page, email)
  await signInOnPage(page, email, PASSWORD)
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Неверный пароль')
  await signInOnPage(page, email, NEW_PASSWORD)
  await expectSignedIn(page)
})

test('without JavaScript: the password change and the logout that clears the stored cart', async ({
  page,
}) => {
  const email = uniqueEmail('nojs-change')
  await signInOnPage(page, email, PASSWORD)
  await expectSignedIn(page)
  await page.goto('/profile/security')
  await page.getByLabel('Нынешний пароль').fill(PASSWORD)
  await page.getByLabel('Новый пароль').fill('12345678')
  await page.getByRole('button', { name: 'Сменить пароль' }).click()
  await expect(page.getByText(/самых частых паролей/)).toBeVisible()
  await page.getByLabel('Нынешний пароль').fill(PASSWORD)
  await page.getByLabel('Новый пароль').fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Сменить пароль' }).click()
  await expect(page.getByText('Остальные входы в аккаунт завершены')).toBeVisible(TOAST)

  const logout = page.waitForResponse(
    (r) => r.url().endsWith('/auth/logout') && r.request().method() === 'POST',
  )
  await signOut(page)
  expect((await (await logout).allHeaders())['clear-site-data']).toBe('"storage"')
})
