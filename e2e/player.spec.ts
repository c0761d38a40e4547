// The player check with JavaScript (issue 17): the nickname appears as soon as the id (and server)
// is complete, an unknown id is refused before any order, and the pay page shows who gets it.
import { expect, test } from '@playwright/test'
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

test('supply game with servers: the nickname appears once id and server are given, and reaches the pay page', async ({
  page,
}) => {
  await openGameFromHome(page, /^Genshin Impact/, 'Genshin')
  await quantity(page, '60 кристаллов').fill('1')
  await page.getByLabel('ID игрока').fill('100000001')
  // no server yet: nothing is asked
  await expect(orderForm(page).getByText('Игрок: Тестовый игрок')).toHaveCount(0)
  await page.getByLabel('Сервер').selectOption({ label: 'Европа' })
  await expectNickname(page, 'Тестовый игрок')
  await page.getByLabel('Электронная почта').fill(guestEmail('player-js'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
  const account = page.locator('.pay-dl__row').filter({ hasText: 'Ник игрока' })
  await expect(account).toContainText('Тестовый игрок')
})

test('an unknown id is refused live and on submit, and no order is made', async ({ page }) => {
  await openGameFromHome(page, /^Free Fire/, 'Free Fire')
  await quantity(page, '310 алмазов').fill('1')
  await page.getByLabel('ID игрока').fill('100000000')
  await expect(
    orderForm(page).getByRole('status').filter({ hasText: 'Игрок с ID 100000000 не найден' }),
  ).toBeVisible()
  await page.getByLabel('Электронная почта').fill(guestEmail('player-missing'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page.getByLabel('ID игрока')).toHaveAccessibleDescription(/Игрок с ID 100000000 не найден/)
  await expect(page).toHaveURL(/\/products\/\d+$/)
  // a corrected id is checked again and goes through
  await page.getByLabel('ID игрока').fill('100000001')
  await expectNickname(page, 'Тестовый игрок')
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
})

test('Standoff: the nickname appears for the account id; submitting right away still waits for it', async ({
  page,
}) => {
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await page.getByRole('button', { name: 'Увеличить количество: 100 голды' }).click()
  await page.getByLabel('Скриншот аватара в игре').setInputFiles(AVATAR_PNG)
  await page.getByLabel('Электронная почта').fill(guestEmail('player-standoff'))
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await page.getByLabel('ID аккаунта Standoff 2').fill('100000001')
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
  await expect(page.locator('.pay-dl__row').filter({ hasText: 'Ник игрока' })).toContainText('Тестовый игрок')
})

test('a malformed id is refused with the supplier rule, before any order', async ({ page }) => {
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  await page.getByLabel('ID аккаунта Standoff 2').fill('abc')
  await expect(orderForm(page).getByRole('status').filter({ hasText: 'Такого ID не бывает' })).toBeVisible()
})

test('Standoff at 360 px: a numeric keyboard for the id, and the nickname or the refusal right under it (issue 50)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 })
  await openGameFromHome(page, /^Standoff 2 от/, 'Standoff')
  const id = page.getByLabel('ID аккаунта Standoff 2')
  await expect(id).toHaveAttribute('inputmode', 'numeric')
  const avatar = page.getByLabel('Скриншот аватара в игре')
  const status = orderForm(page)
    .getByRole('status')
    .filter({ hasText: /^Игрок/ })
  /** The answer starts under the id field, before the avatar upload, within 80 px of the field. */
  const expectUnderTheId = async () => {
    const field = (await id.boundingBox())!
    const answer = (await status.boundingBox())!
    const upload = (await avatar.boundingBox())!
    expect(answer.y).toBeGreaterThanOrEqual(field.y + field.height)
    expect(answer.y - (field.y + field.height)).toBeLessThanOrEqual(80)
    expect(answer.y + answer.height).toBeLessThanOrEqual(upload.y)
  }
  await id.fill('100000000')
  await expect(status).toHaveText(/Игрок с ID 100000000 не найден/)
  await expectUnderTheId()
  await id.fill('100000001')
  await expect(status).toHaveText('Игрок: Тестовый игрок')
  await expectUnderTheId()
})
