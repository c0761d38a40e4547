// Steps of the account e2e specs (issue 13): the forgotten-password round trip through the mail
// (an .eml file of the e2e server), and a sign-in on the /auth page. Work with JavaScript on and off.
import { expect, type Page } from '@playwright/test'
import { linkIn, waitForMail } from './mail-steps'

export const PHONE = { width: 360, height: 740 }
export const NEW_PASSWORD = 'Quiet-Lantern-31'
/** Toasts are queued one after another (§4): a new one may wait for the previous to finish. */
export const TOAST = { timeout: 15_000 }

/** Signs in (or up) on the /auth page. */
export async function signInOnPage(page: Page, email: string, password: string) {
  await page.goto('/auth')
  await page.getByLabel('Электронная почта').fill(email)
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await page.getByLabel('Пароль', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
}

/** «Забыли пароль?» from the sign-in page → mail → the link's form → a new password. */
export async function resetPasswordByMail(page: Page, email: string, password = NEW_PASSWORD) {
  await page.goto('/auth')
  await page.getByRole('link', { name: 'Забыли пароль?' }).click()
  await expect(page).toHaveURL('/auth/forgot')
  await page.getByLabel('Электронная почта').fill(email)
  await page.getByRole('button', { name: 'Отправить ссылку' }).click()
  await expect(page.getByRole('main').getByRole('status')).toContainText('Если аккаунт с этой почтой есть')
  // two hops through the job queue (the reset job, then its mail): slow on a loaded machine
  const mail = await waitForMail(email, /Сброс пароля/, 60_000)
  const link = new URL(linkIn(mail, /\/auth\/reset\?token=/))
  await page.goto(`${link.pathname}${link.search}`)
  // an easy password is refused in Russian, and the link keeps working
  await page.getByLabel('Новый пароль').fill('password1')
  await page.getByRole('button', { name: 'Сменить пароль' }).click()
  await expect(page.getByText(/самых частых паролей|легко угадать|слишком простой/)).toBeVisible()
  await page.getByLabel('Новый пароль').fill(password)
  await page.getByRole('button', { name: 'Сменить пароль' }).click()
  await expect(page).toHaveURL('/auth')
  await expect(page.getByText('Войдите с новым паролем')).toBeVisible(TOAST)
  return link
}

/** Signed in: the header has the sign-out form (inside the phone menu at 360 px). */
export async function expectSignedIn(page: Page) {
  await expect(page.locator('form[action="/auth/logout"]').first()).toBeAttached()
}

export async function expectSignedOut(page: Page) {
  await expect(page.locator('form[action="/auth/logout"]')).toHaveCount(0)
}

/** Signs out from the header (opening the phone's account menu first when it is closed). */
export async function signOut(page: Page) {
  const summary = page.locator('details.account-menu > summary')
  if (await summary.isVisible()) await summary.click()
  await page.getByRole('button', { name: 'Выйти' }).click()
  await expectSignedOut(page)
}
