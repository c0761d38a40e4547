// Accounts with JavaScript (issue 13), at 360 px: sign-up → confirmation mail → confirmed;
// forgotten password → mail → new password → sign-in, old refused; one refresh per page load;
// logout then reload shows an empty cart.
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
import { linkIn, waitForMail } from './mail-steps'

test.use({ viewport: PHONE })
test.setTimeout(120_000)

test('sign-up → confirmation mail → confirmed', async ({ page }) => {
  const email = uniqueEmail('confirm')
  await signInOnPage(page, email, PASSWORD)
  await expectSignedIn(page)
  await page.goto('/profile/security')
  await expect(page.getByText(`Почта ${email} не подтверждена`)).toBeVisible()
  const mail = await waitForMail(email, /почт/i)
  const link = new URL(linkIn(mail, /\/auth\/confirm\?token=/))
  await page.goto(`${link.pathname}${link.search}`)
  await page.getByRole('button', { name: 'Подтвердить почту' }).click()
  await expect(page).toHaveURL('/profile/security')
  await expect(page.getByText('Почта подтверждена')).toBeVisible(TOAST)
  await expect(page.getByText(`Почта ${email} подтверждена.`)).toBeVisible()
  // the link works once
  await page.goto(`${link.pathname}${link.search}`)
  await page.getByRole('button', { name: 'Подтвердить почту' }).click()
  await expect(page.getByRole('main').getByRole('alert')).toContainText('устарела или уже использована')
})

test('forgotten password → mail → new password → sign in; the old one is refused', async ({ page }) => {
  const email = uniqueEmail('forgot')
  await signInOnPage(page, email, PASSWORD)
  await expectSignedIn(page)
  await signOut(page)

  await resetPasswordByMail(page, email)
  await signInOnPage(page, email, PASSWORD)
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Неверный пароль')
  await signInOnPage(page, email, NEW_PASSWORD)
  await expectSignedIn(page)
})

test('changing the password in the profile ends the other sign-ins', async ({ page, browser }) => {
  const email = uniqueEmail('change')
  await signInOnPage(page, email, PASSWORD)
  await expectSignedIn(page)
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const otherPage = await other.newPage()
  await signInOnPage(otherPage, email, PASSWORD)
  await expectSignedIn(otherPage)

  await page.goto('/profile/security')
  await page.getByLabel('Нынешний пароль').fill('not my password')
  await page.getByLabel('Новый пароль').fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Сменить пароль' }).click()
  await expect(page.getByText('Нынешний пароль указан неверно')).toBeVisible()
  await page.getByLabel('Нынешний пароль').fill(PASSWORD)
  await page.getByLabel('Новый пароль').fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Сменить пароль' }).click()
  await expect(page.getByText('Остальные входы в аккаунт завершены')).toBeVisible(TOAST)

  // the other browser is signed out at its next page
  await otherPage.goto('/profile')
  await expect(otherPage).toHaveURL('/')
  await expect(otherPage.locator('form[action="/auth/logout"]')).toHaveCount(0)
  await other.close()
})

test('one page load with an expired access cookie sets exactly one new pair of cookies', async ({
  page,
  context,
}) => {
  await signInOnPage(page, uniqueEmail('refresh'), PASSWORD)
  await expectSignedIn(page)
  const url = new URL(page.url())
  await context.addCookies([
    { name: 'access', value: 'expired.token.value', domain: url.hostname, path: '/' },
  ])
  const response = await page.goto('/profile')
  expect(response?.status()).toBe(200)
  const setCookies = (await response!.headersArray()).filter((h) => h.name.toLowerCase() === 'set-cookie')
  const names = setCookies.map((h) => h.value.split('=')[0])
  expect(names.filter((n) => n === 'refresh')).toHaveLength(1)
  expect(names.filter((n) => n === 'access')).toHaveLength(1)
  await expectSignedIn(page)
})

test('logout then reload shows an empty cart', async ({ page }) => {
  await signInOnPage(page, uniqueEmail('cart'), PASSWORD)
  await expectSignedIn(page)
  await page.evaluate(() => localStorage.setItem('cart', JSON.stringify({ '1': { '2': 3 } })))
  await signOut(page)
  await page.reload()
  expect(await page.evaluate(() => localStorage.getItem('cart'))).toBeNull()
})
