// The same purchases with JavaScript off: the HTML forms alone carry the guest to the payment page.
import { expect, test } from '@playwright/test'
import {
  AVATAR_PNG,
  confirmPlayer,
  guestEmail,
  openGameFromHome,
  orderForm,
  PAY_URL,
  quantity,
  submitOrder,
} from './purchase-steps'

test('PUBG without JavaScript → the payment page', async ({ page }) => {
  await openGameFromHome(page, /^PUBG Mobile/, 'PUBG Mobile')
  await quantity(page, '60 UC').fill('3')
  await page.getByLabel('Электронная почта').fill(guestEmail('pubg-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
})

test('Standoff without JavaScript: multipart form with the avatar → the payment page', async ({ page }) => {
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await quantity(page, '500 голды').fill('1')
  await page.getByLabel('ID аккаунта Standoff 2').fill('51234567')
  await page.getByLabel('Скриншот аватара в игре').setInputFiles(AVATAR_PNG)
  await page.getByLabel('Электронная почта').fill(guestEmail('standoff-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  // the surplus was set by the server when the form was rendered
  await expect(page.locator('input[name="surplus"]')).toHaveValue(/^0\.(?:[01]\d|2[0-3])$/)
  await submitOrder(page)
  await confirmPlayer(page, 'Игрок 51234567')
  await expect(page).toHaveURL(PAY_URL)
})

test('Steam without JavaScript → the payment page', async ({ page }) => {
  await openGameFromHome(page, /^Steam \(Россия\)/, 'Steam')
  await expect(page.locator('.totals')).toContainText('Комиссия сервиса (8%)')
  await page.getByLabel('Логин Steam').fill('gaben_fan')
  await page.getByLabel('Сумма пополнения, ₽').fill('250,50')
  await page.getByLabel('Электронная почта').fill(guestEmail('steam-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
})

test('supply game with a free-text server, without JavaScript → the payment page', async ({ page }) => {
  await openGameFromHome(page, /^Mobile Legends/, 'Legends')
  await quantity(page, '86 алмазов').fill('2')
  await page.getByLabel('ID игрока').fill('88990011')
  await page.getByLabel('ID сервера').fill('2041')
  await page.getByLabel('Электронная почта').fill(guestEmail('supply-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await confirmPlayer(page, 'Игрок 88990011')
  await expect(page).toHaveURL(PAY_URL)
})

test('missing fields come back from the server with their messages, values kept', async ({ page }) => {
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await quantity(page, '100 голды').fill('2')
  await submitOrder(page)
  const summary = orderForm(page).getByRole('alert')
  await expect(summary).toContainText('Укажите ID аккаунта')
  await expect(summary).toContainText('Загрузите скриншот аватара')
  await expect(summary).toContainText('Укажите электронную почту')
  await expect(page.getByLabel('ID аккаунта Standoff 2')).toBeFocused()
  await expect(page.getByLabel('Электронная почта')).toHaveAccessibleDescription(/Укажите электронную почту/)
  await expect(quantity(page, '100 голды')).toHaveValue('2')
})

test('quantities outside min/max are refused by the server with a message', async ({ page }) => {
  await openGameFromHome(page, /^Free Fire/, 'Free Fire')
  const qty = quantity(page, '100 алмазов')
  await qty.fill('25')
  await page.getByLabel('ID игрока').fill('123')
  await page.getByLabel('Электронная почта').fill(guestEmail('ff-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(qty).toHaveAccessibleDescription(/100 алмазов: количество от 2 до 20/)
  await expect(qty).toBeFocused()
  await expect(qty).toHaveValue('25')
  await expect(page.getByLabel('ID игрока')).toHaveValue('123')
})

test('an order with no product is refused', async ({ page }) => {
  await openGameFromHome(page, /^PUBG Mobile/, 'PUBG Mobile')
  await page.getByLabel('Электронная почта').fill(guestEmail('empty'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(orderForm(page).getByRole('alert')).toContainText('Выберите хотя бы один товар')
})

test('the same form posted twice makes one order (idempotency key in the form)', async ({ page }) => {
  await openGameFromHome(page, /^PUBG Mobile/, 'PUBG Mobile')
  const action = new URL(page.url()).pathname
  const key = await page.locator('input[name="idempotency_key"]').inputValue()
  expect(key).toMatch(/^[0-9a-f-]{36}$/)
  const qtyName = (await quantity(page, '60 UC').getAttribute('name'))!
  const form = {
    idempotency_key: key,
    [qtyName]: '1',
    email: guestEmail('twice'),
    // the consent box, ticked (issue 33)
    personal_data_consent: 'on',
  }
  const post = () => page.request.post(action, { form, maxRedirects: 0 })
  const [first, second] = [await post(), await post()]
  expect(first.status()).toBe(302)
  expect(second.status()).toBe(302)
  expect(first.headers().location).toMatch(PAY_URL)
  expect(second.headers().location).toBe(first.headers().location)
  // a new render carries a new key, so a new order can follow
  await page.reload()
  expect(await page.locator('input[name="idempotency_key"]').inputValue()).not.toBe(key)
})
