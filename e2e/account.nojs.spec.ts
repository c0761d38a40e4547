import { expect, test } from '@playwright/test'
import { authDialog, createPubgOrder, PASSWORD, pubgProduct, uniqueEmail } from './account-helpers'
import { signInAs } from './admin-helpers'

/** Toasts are queued one after another (§4): a new one may wait for the previous to finish. */
const TOAST = { timeout: 15_000 }

test('without JavaScript: sign up in the popup, sign out, wrong password, sign in', async ({ page }) => {
  const email = uniqueEmail('nojs')
  await page.goto('/gifts?auth=1')
  const dialog = authDialog(page)
  await dialog.getByLabel('Электронная почта').fill(email)
  await dialog.getByLabel('Я даю согласие на обработку персональных данных').check()
  await dialog.getByLabel('Пароль').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page).toHaveURL('/gifts')
  await expect(page.getByText('Аккаунт создан, вы вошли')).toBeVisible(TOAST)
  await expect(page.getByRole('button', { name: 'Выйти' })).toBeVisible()

  await page.getByRole('button', { name: 'Выйти' }).click()
  await expect(page.getByRole('link', { name: 'Войти' })).toBeVisible()

  // a wrong password lands on the sign-in page with the message
  await page.goto('/?auth=1')
  await authDialog(page).getByLabel('Электронная почта').fill(email)
  await authDialog(page).getByLabel('Я даю согласие на обработку персональных данных').check()
  await authDialog(page).getByLabel('Пароль').fill('wrong password')
  await authDialog(page).getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page).toHaveURL(/\/auth\?returnTo=/)
  await expect(page.getByRole('main').getByRole('alert')).toHaveText('Неверный пароль')
  await page.getByLabel('Пароль').fill(PASSWORD)
  await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByText('Вы вошли в аккаунт')).toBeVisible(TOAST)
})

test('without JavaScript: the profile and its deletion popup work by URL', async ({ page }) => {
  await page.goto('/profile')
  await expect(page).toHaveURL('/')
  await page.goto('/auth')
  await page.getByLabel('Электронная почта').fill(uniqueEmail('nojs-del'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await page.getByLabel('Пароль').fill(PASSWORD)
  await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page).toHaveURL('/')
  await page.goto('/profile')
  await page.getByRole('link', { name: 'Удалить аккаунт' }).click()
  await page
    .getByRole('dialog', { name: 'Удалить аккаунт?' })
    .getByRole('button', { name: 'Да, удалить аккаунт' })
    .click()
  await expect(page).toHaveURL('/')
  await expect(page.getByText('Аккаунт удалён')).toBeVisible(TOAST)
})

test('without JavaScript: the order history pages by 50 with plain links', async ({
  page,
  context,
  request,
}) => {
  const access = await signInAs(context, request, { email: uniqueEmail('pages'), password: PASSWORD })
  const { product } = await pubgProduct(request)
  for (let i = 0; i < 51; i++) await createPubgOrder(request, access, product.id)

  const cards = page.locator('.order-list > li')
  await page.goto('/profile')
  await expect(cards).toHaveCount(50)
  await expect(page.getByRole('link', { name: 'Предыдущая страница' })).toHaveCount(0)
  await page.getByRole('link', { name: 'Следующая страница' }).click()
  await expect(page).toHaveURL(/\/profile\?page=2$/)
  await expect(cards).toHaveCount(1)
  await expect(page.getByRole('link', { name: 'Следующая страница' })).toHaveCount(0)
  await page.getByRole('link', { name: 'Предыдущая страница' }).click()
  await expect(cards).toHaveCount(50)
})
