// Shared steps of the purchase e2e specs (with and without JavaScript).
import { expect, type Page } from '@playwright/test'

/** A real 1×1 PNG: the API recognises images by their content. */
export const AVATAR_PNG = {
  name: 'avatar.png',
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
}

export const PAY_URL = /\/orders\/[0-9a-f-]{36}\/pay$/

export const guestEmail = (kind: string) => `guest-${kind}-${Date.now()}@example.com`

/** From the home page to a game's page: the catalogue search, then the game's card. */
export async function openGameFromHome(page: Page, title: RegExp, search: string) {
  await page.goto('/')
  await page.getByRole('searchbox', { name: 'Поиск игры' }).fill(search)
  await page.getByRole('button', { name: 'Найти' }).click()
  await expect(page).toHaveURL(/\?search=/)
  await page.getByRole('link', { name: title }).first().click()
  await expect(page).toHaveURL(/\/products\/\d+$/)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
}

export function quantity(page: Page, product: string) {
  return page.getByRole('spinbutton', { name: `Количество: ${product}`, exact: true })
}

export async function submitOrder(page: Page) {
  await page.getByRole('button', { name: 'Перейти к оплате' }).click()
}

export function orderForm(page: Page) {
  return page.getByRole('form', { name: 'Оформление заказа' })
}

/** Without JavaScript a checked game asks «Игрок: … — всё верно?» before the order (issue 17). */
export async function confirmPlayer(page: Page, nickname: string) {
  await expect(page.getByText(`Игрок: ${nickname} — всё верно?`)).toBeVisible()
  await page.getByRole('button', { name: 'Да, всё верно — к оплате' }).click()
}

/** With JavaScript the nickname appears under the id once it is complete (issue 17). */
export async function expectNickname(page: Page, nickname: string) {
  await expect(
    orderForm(page)
      .getByRole('status')
      .filter({ hasText: `Игрок: ${nickname}` }),
  ).toBeVisible()
}
