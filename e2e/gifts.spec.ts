import { expect, test } from '@playwright/test'
import {
  apiGiftPage,
  apiGifts,
  buyAsGuest,
  expectShowsApiPage,
  findAndOpen,
  GIFTS_PER_PAGE,
  payInSandbox,
} from './gifts-shared'

test('a guest finds a gift by search, buys it, pays in the sandbox and sees the gift code', async ({
  page,
  request,
}) => {
  await findAndOpen(page, 'Roblox', 'Roblox — 800 Robux')
  await expect(page).toHaveTitle('Roblox — 800 Robux — купить код | ИгроМаркет')
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /Roblox — 800 Robux/)
  const picture = page.getByRole('img', { name: 'Roblox — 800 Robux' })
  await expect(picture).toHaveAttribute('width', '400')
  await expect(picture).toHaveAttribute('height', '320')
  await expect(page.getByRole('link', { name: '#Robux' })).toBeVisible()

  const orderId = await buyAsGuest(page, 'js-buyer@example.com')
  const code = await payInSandbox(page, request, orderId)
  await expect(page.getByText(code)).toBeVisible()
})

test('an API refusal shows as the form’s error text, and the form still buys afterwards', async ({
  page,
}) => {
  await findAndOpen(page, 'Valorant', 'Valorant — 1000 VP')
  // valid for the browser, refused by the API (no top-level domain)
  await page.getByRole('textbox', { name: 'Электронная почта' }).fill('gamer@localhost')
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await page.getByRole('button', { name: /^Купить за/ }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Неверный адрес электронной почты' })).toBeVisible()
  await expect(page).toHaveURL(/\/gifts\/detalis\/\d+$/)
  await buyAsGuest(page, 'gamer@example.com')
})

test('the new and discounted tabs list exactly the gifts of their API lists', async ({ page, request }) => {
  await page.goto('/gifts')
  for (const [tab, list] of [
    ['Новинки', 'new/'],
    ['Со скидкой', 'discounted/'],
    ['Все', ''],
  ] as const) {
    await page.getByRole('navigation', { name: 'Разделы подарков' }).getByRole('link', { name: tab }).click()
    await expect(page.getByRole('link', { name: tab })).toHaveAttribute('aria-current', 'page')
    await expectShowsApiPage(page, request, list, 1)
  }
  await expect(page).toHaveURL('/gifts')
})

test('paging walks the whole catalogue and refuses a page past the end', async ({ page, request }) => {
  await page.goto('/gifts')
  await expect(page).toHaveTitle('Подарочные карты и коды — ИгроМаркет')
  await expectShowsApiPage(page, request, '', 1)
  await page.getByRole('link', { name: 'Вперёд' }).click()
  await expect(page).toHaveURL('/gifts/2')
  await expect(page).toHaveTitle('Подарочные карты и коды, страница 2 — ИгроМаркет')
  await expect(page.getByRole('link', { name: 'Страница 2' })).toHaveAttribute('aria-current', 'page')
  await expectShowsApiPage(page, request, '', 2)
  await page.getByRole('link', { name: 'Назад' }).click()
  await expect(page).toHaveURL('/gifts')

  const { count } = await apiGiftPage(request, '', 1)
  // well past the end, so that gifts the back-office specs add meanwhile cannot reach it
  const past = Math.ceil(count / GIFTS_PER_PAGE) + 5
  const res = await page.goto(`/gifts/${past}`)
  expect(res?.status()).toBe(404)
  await expect(page.getByText(`Page Not Found: /gifts/${past}`)).toBeVisible()
})

test('an out-of-stock gift is marked in the list and cannot be bought', async ({ page, request }) => {
  const soldOut = (await apiGifts(request, '')).find((g) => !g.in_stock)!
  await page.goto(`/gifts?search=${encodeURIComponent(soldOut.title)}`)
  const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: soldOut.title }) })
  await expect(card.getByText('Нет в наличии')).toBeVisible()
  await card.getByRole('link', { name: soldOut.title }).click()
  await expect(page.getByText('Подарок закончился — купить его сейчас нельзя')).toBeVisible()
  await expect(page.getByRole('button', { name: /^Купить за/ })).toBeDisabled()
})

test('an unknown gift shows the 404 error screen; a malformed id fails the route check', async ({ page }) => {
  const unknown = await page.goto('/gifts/detalis/999999')
  expect(unknown?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Страница не найдена')
  await expect(page).toHaveTitle('ИгроМаркет 404')
  await expect(page.getByText('Подарок не найден')).toBeVisible()

  const malformed = await page.goto('/gifts/detalis/abc')
  expect(malformed?.status()).toBe(404)
  await expect(page.getByText('Page Not Found: /gifts/detalis/abc')).toBeVisible()
})
