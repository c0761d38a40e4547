// A guest buys each of the four game kinds with JavaScript on, and the form refuses what §5 refuses.
import { expect, type Page, test } from '@playwright/test'
import {
  AVATAR_PNG,
  expectNickname,
  guestEmail,
  openGameFromHome,
  orderForm,
  PAY_URL,
  quantity,
  submitOrder,
} from './purchase-steps'

test('PUBG: steppers, live total, email → the payment page', async ({ page }) => {
  await openGameFromHome(page, /^PUBG Mobile/, 'PUBG Mobile')
  await page.getByRole('button', { name: 'Увеличить количество: 325 UC' }).click()
  await page.getByRole('button', { name: 'Увеличить количество: 325 UC' }).click()
  await expect(quantity(page, '325 UC')).toHaveValue('2')
  // 2 × 449.00 at list price, 2 × 44.90 off: 808.20 to pay, in exact kopecks
  const totals = page.locator('.totals')
  await expect(totals).toContainText('898,00')
  await expect(totals).toContainText('−89,80')
  await expect(totals).toContainText('808,20')
  await page.getByLabel('Электронная почта').fill(guestEmail('pubg'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
})

test('Standoff: account id, avatar with preview, surplus → the payment page', async ({ page }) => {
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await page.getByRole('button', { name: 'Увеличить количество: 100 голды' }).click()
  await expect(page.getByText(/за 105,\d\d G/)).toBeVisible()
  await page.getByLabel('ID аккаунта Standoff 2').fill('51234567')
  await expectNickname(page, 'Игрок 51234567')
  await page.getByLabel('Скриншот аватара в игре').setInputFiles(AVATAR_PNG)
  await expect(page.getByRole('img', { name: 'Выбранный аватар' })).toBeVisible()
  await page.getByLabel('Электронная почта').fill(guestEmail('standoff'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
})

test('Steam: amount and commission shown before paying → the payment page', async ({ page }) => {
  await openGameFromHome(page, /^Steam \(Россия\)/, 'Steam')
  await page.getByLabel('Логин Steam').fill('gaben_fan')
  await page.getByLabel('Сумма пополнения, ₽').fill('500')
  const totals = page.locator('.totals')
  await expect(totals).toContainText('Комиссия сервиса (8%)')
  await expect(totals).toContainText('40,00')
  await expect(totals).toContainText('540,00')
  await page.getByLabel('Электронная почта').fill(guestEmail('steam'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
})

test('Supply game with a server list: user id and server → the payment page', async ({ page }) => {
  await openGameFromHome(page, /^Genshin Impact/, 'Genshin')
  await page.getByRole('button', { name: 'Увеличить количество: 60 кристаллов' }).click()
  await page.getByLabel('ID игрока').fill('700123456')
  await page.getByLabel('Сервер').selectOption({ label: 'Европа' })
  await page.getByLabel('Электронная почта').fill(guestEmail('supply'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
})

test('each missing field shows its message, and the first one takes focus', async ({ page }) => {
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await page.getByRole('button', { name: 'Увеличить количество: 100 голды' }).click()
  await submitOrder(page)
  const summary = orderForm(page).getByRole('alert')
  await expect(summary).toContainText('Укажите ID аккаунта')
  await expect(summary).toContainText('Загрузите скриншот аватара')
  await expect(summary).toContainText('Укажите электронную почту')
  const accountId = page.getByLabel('ID аккаунта Standoff 2')
  await expect(accountId).toBeFocused()
  await expect(accountId).toHaveAttribute('aria-invalid', 'true')
  await expect(page.getByLabel('Электронная почта')).toHaveAccessibleDescription(/Укажите электронную почту/)
  await expect(page).toHaveURL(/\/products\/\d+$/)
})

test('a supply order without a user id is refused with its message', async ({ page }) => {
  await openGameFromHome(page, /^Free Fire/, 'Free Fire')
  await page.getByRole('button', { name: 'Увеличить количество: 310 алмазов' }).click()
  await page.getByLabel('Электронная почта').fill(guestEmail('ff'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page.getByLabel('ID игрока')).toHaveAccessibleDescription(/Укажите ID аккаунта/)
  await expect(page.getByLabel('ID игрока')).toBeFocused()
})

test('quantities outside min/max are refused with a message', async ({ page }) => {
  await openGameFromHome(page, /^Free Fire/, 'Free Fire')
  // 100 алмазов: from 2 to 20 a line
  const qty = quantity(page, '100 алмазов')
  await qty.fill('1')
  await page.getByLabel('ID игрока').fill('123')
  await page.getByLabel('Электронная почта').fill(guestEmail('ff'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(qty).toHaveAccessibleDescription(/100 алмазов: количество от 2 до 20/)
  await qty.fill('21')
  await submitOrder(page)
  await expect(qty).toHaveAccessibleDescription(/100 алмазов: количество от 2 до 20/)
  await expect(page).toHaveURL(/\/products\/\d+$/)
  // the + button never goes past the maximum, and starts a line at the minimum
  await qty.fill('0')
  await page.getByRole('button', { name: 'Увеличить количество: 100 алмазов' }).click()
  await expect(qty).toHaveValue('2')
})

test('a reload of the game page restores the cart from local storage', async ({ page }) => {
  await openGameFromHome(page, /^Mobile Legends/, 'Legends')
  await page.getByRole('button', { name: 'Увеличить количество: 172 алмаза' }).click()
  await page.getByRole('button', { name: 'Увеличить количество: 172 алмаза' }).click()
  await expect(quantity(page, '172 алмаза')).toHaveValue('2')
  // §3: a map of game id → product id → quantity
  const gameId = new URL(page.url()).pathname.split('/').pop()!
  const productId = (await quantity(page, '172 алмаза').getAttribute('name'))!.replace('qty_', '')
  await expect
    .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '{}')))
    .toEqual({ [gameId]: { [productId]: 2 } })
  await page.reload()
  await expect(quantity(page, '172 алмаза')).toHaveValue('2')
  await expect(page.locator('.totals')).toContainText('550,00')
})

test('an API refusal shows the API message as the form error', async ({ page }) => {
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await page.getByRole('button', { name: 'Увеличить количество: 100 голды' }).click()
  await page.getByLabel('ID аккаунта Standoff 2').fill('51234567')
  // named and typed as a PNG, but not one: only the API looks at the content
  await page
    .getByLabel('Скриншот аватара в игре')
    .setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not an image') })
  await page.getByLabel('Электронная почта').fill(guestEmail('standoff'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(orderForm(page).getByRole('alert')).toContainText(
    'Аватар должен быть изображением PNG, JPEG, WebP или GIF',
  )
  await expect(page).toHaveURL(/\/products\/\d+$/)
  // the button is usable again once the answer is in
  await expect(page.getByRole('button', { name: 'Перейти к оплате' })).toBeEnabled()
})

test('a guest on a game that needs an account is asked to sign in instead of the form', async ({ page }) => {
  await openGameFromHome(page, /^PUBG: New State/, 'New State')
  await expect(page.getByText('Чтобы купить PUBG: New State, войдите в аккаунт.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Перейти к оплате' })).toHaveCount(0)
  await expect(page.getByRole('link', { name: 'Войти' }).last()).toHaveAttribute('href', /\?auth=1$/)
})

test('a game id that is not a number fails the route check; an unknown game shows its status', async ({
  page,
}) => {
  const bad = await page.goto('/products/abc')
  expect(bad?.status()).toBe(404)
  await expect(page.getByText('Page Not Found: /products/abc')).toBeVisible()
  const missing = await page.goto('/products/99999')
  expect(missing?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Страница не найдена')
})

test('keyboard only: a guest buys with Tab, Space and Enter', async ({ page }) => {
  await openGameFromHome(page, /^PUBG Mobile/, 'PUBG Mobile')
  /** Tabs forward until the element has focus (fails if it is not reachable). */
  const tabTo = async (target: ReturnType<Page['getByRole']>) => {
    for (let i = 0; i < 60; i++) {
      if (await target.evaluate((el) => el === document.activeElement)) return
      await page.keyboard.press('Tab')
    }
    throw new Error('not reachable with Tab')
  }
  await page.getByRole('heading', { level: 1 }).click()
  const plus = page.getByRole('button', { name: 'Увеличить количество: 60 UC' })
  await expect(plus).toBeEnabled()
  await tabTo(plus)
  await page.keyboard.press('Space')
  await page.keyboard.press('Enter')
  await expect(quantity(page, '60 UC')).toHaveValue('2')
  await tabTo(page.getByLabel('Электронная почта'))
  await page.keyboard.type(guestEmail('keyboard'))
  // the consent box (issue 33): Tab, Space, then Enter submits from the box
  await tabTo(page.getByLabel('Я даю согласие на обработку персональных данных'))
  await page.keyboard.press('Space')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(PAY_URL)
})
