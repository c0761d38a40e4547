// Signed-in buyers: prefilled email, last order data, repeat order, and games that need an account.
import { type BrowserContext, expect, type Page, test } from '@playwright/test'
import { AVATAR_PNG, openGameFromHome, orderForm, PAY_URL, quantity, submitOrder } from './purchase-steps'

/** A repeat lands at the pay page's methods, with the repeated order's method when it had one (issue 50). */
const REPEAT_PAY_URL = /\/orders\/[0-9a-f-]{36}\/pay(\?method=[\w.-]+)?#methods-heading$/

/** Signs up through the API (an unknown email creates the account) and keeps the token as the shop does. */
async function signIn(page: Page, context: BrowserContext, baseURL: string) {
  const email = `buyer-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const res = await page.request.post('/api/auth/jwt/create/', {
    data: { email, password: 'Very-secret-pass-2026' },
  })
  expect(res.ok()).toBe(true)
  const { access } = (await res.json()) as { access: string }
  await context.addCookies([{ name: 'access', value: access, url: baseURL, httpOnly: true, sameSite: 'Lax' }])
  return email
}

test('signed in: the email is prefilled and the last Standoff order data comes back', async ({
  page,
  context,
  baseURL,
}) => {
  const email = await signIn(page, context, baseURL!)
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await expect(page.getByLabel('Электронная почта')).toHaveValue(email)
  await page.getByRole('button', { name: 'Увеличить количество: 100 голды' }).click()
  await page.getByLabel('ID аккаунта Standoff 2').fill('77001122')
  await page.getByLabel('Скриншот аватара в игре').setInputFiles(AVATAR_PNG)
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)

  const orderId = new URL(page.url()).pathname.split('/')[2]

  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await expect(page.getByLabel('ID аккаунта Standoff 2')).toHaveValue('77001122')

  // repeating it reuses the avatar already on that order (§5): no new upload is asked for
  await page.goto(`${new URL(page.url()).pathname}?repeat=${orderId}`)
  await expect(page.getByRole('img', { name: 'Аватар из прошлого заказа' })).toBeVisible()
  await expect(quantity(page, '100 голды')).toHaveValue('1')
  await page.getByRole('button', { name: 'Подтвердить и оплатить' }).click()
  await expect(page).toHaveURL(REPEAT_PAY_URL)
})

test('signed in: repeating a supply order preloads it into a confirm form', async ({
  page,
  context,
  baseURL,
}) => {
  await signIn(page, context, baseURL!)
  await openGameFromHome(page, /^Genshin Impact/, 'Genshin')
  const gamePath = new URL(page.url()).pathname
  await quantity(page, '60 кристаллов').fill('3')
  await page.getByLabel('ID игрока').fill('700999111')
  await page.getByLabel('Сервер').selectOption({ label: 'Азия' })
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
  const orderId = new URL(page.url()).pathname.split('/')[2]

  await page.goto(`${gamePath}?repeat=${orderId}`)
  await expect(page.getByRole('heading', { name: 'Повторить заказ' })).toBeVisible()
  await expect(quantity(page, '60 кристаллов')).toHaveValue('3')
  await expect(page.getByLabel('ID игрока')).toHaveValue('700999111')
  await expect(page.getByLabel('Сервер')).toHaveValue(/\d+/)
  await expect(page.getByLabel('Сервер').locator('option:checked')).toHaveText('Азия')
  await page.getByRole('button', { name: 'Подтвердить и оплатить' }).click()
  await expect(page).toHaveURL(REPEAT_PAY_URL)
  expect(new URL(page.url()).pathname.split('/')[2]).not.toBe(orderId)
})

test('signed in: a game that needs an account shows its form and sells', async ({
  page,
  context,
  baseURL,
}) => {
  await signIn(page, context, baseURL!)
  await openGameFromHome(page, /^PUBG: New State/, 'New State')
  await expect(orderForm(page)).toBeVisible()
  await page.getByRole('button', { name: 'Увеличить количество: 300 NC' }).click()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
})

test('repeating an order that is not there says so and leaves an empty form', async ({ page }) => {
  await page.goto('/products/1?repeat=00000000-0000-4000-8000-000000000000')
  await expect(page.getByText('Не удалось загрузить прошлый заказ — заполните форму заново.')).toBeVisible()
  await expect(quantity(page, '60 UC')).toHaveValue('0')
})
