// The player check without JavaScript (issue 17): the first submit shows «Игрок: … — всё верно?»,
// the second makes the order; an unknown id is refused with its message.
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

const nicknameRow = (page: import('@playwright/test').Page) =>
  page.locator('.pay-dl__row').filter({ hasText: 'Ник игрока' })

test('supply game: a confirmation step names the player before the order is made', async ({ page }) => {
  await openGameFromHome(page, /^Mobile Legends/, 'Legends')
  await quantity(page, '86 алмазов').fill('1')
  await page.getByLabel('ID игрока').fill('100000001')
  await page.getByLabel('ID сервера').fill('2041')
  await page.getByLabel('Электронная почта').fill(guestEmail('player-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(/\/products\/\d+$/)
  // what was typed is kept on the confirmation step
  await expect(page.getByLabel('ID игрока')).toHaveValue('100000001')
  await confirmPlayer(page, 'Тестовый игрок')
  await expect(page).toHaveURL(PAY_URL)
  await expect(nicknameRow(page)).toContainText('Тестовый игрок')
})

test('Standoff: the avatar sent with the first submit survives the confirmation step', async ({ page }) => {
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await quantity(page, '500 голды').fill('1')
  await page.getByLabel('ID аккаунта Standoff 2').fill('100000001')
  await page.getByLabel('Скриншот аватара в игре').setInputFiles(AVATAR_PNG)
  await page.getByLabel('Электронная почта').fill(guestEmail('player-standoff-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await confirmPlayer(page, 'Тестовый игрок')
  await expect(page).toHaveURL(PAY_URL)
  await expect(nicknameRow(page)).toContainText('Тестовый игрок')
  await expect(page.getByRole('img', { name: 'Аватар аккаунта' })).toBeVisible()
})

test('an unknown id is refused with its message and no confirmation', async ({ page }) => {
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await quantity(page, '500 голды').fill('1')
  await page.getByLabel('ID аккаунта Standoff 2').fill('100000000')
  await page.getByLabel('Скриншот аватара в игре').setInputFiles(AVATAR_PNG)
  await page.getByLabel('Электронная почта').fill(guestEmail('player-missing-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(orderForm(page).getByRole('alert').first()).toContainText('Игрок с ID 100000000 не найден')
  await expect(page.getByLabel('ID аккаунта Standoff 2')).toHaveAccessibleDescription(/не найден/)
  await expect(page.getByRole('button', { name: 'Да, всё верно — к оплате' })).toHaveCount(0)
})

test('Standoff at 360 px: the confirmation names the player right under the id, before the avatar upload (issue 50)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await quantity(page, '500 голды').fill('1')
  const id = page.getByLabel('ID аккаунта Standoff 2')
  await expect(id).toHaveAttribute('inputmode', 'numeric')
  await id.fill('100000001')
  await page.getByLabel('Скриншот аватара в игре').setInputFiles(AVATAR_PNG)
  await page.getByLabel('Электронная почта').fill(guestEmail('player-place-nojs'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  const question = page.getByText('Игрок: Тестовый игрок — всё верно?')
  await expect(question).toBeVisible()
  const field = (await page.getByLabel('ID аккаунта Standoff 2').boundingBox())!
  const answer = (await question.boundingBox())!
  const upload = (await page.getByLabel('Скриншот аватара в игре').boundingBox())!
  expect(answer.y).toBeGreaterThan(field.y + field.height)
  expect(answer.y + answer.height).toBeLessThan(upload.y)
  await confirmPlayer(page, 'Тестовый игрок')
  await expect(page).toHaveURL(PAY_URL)
})
