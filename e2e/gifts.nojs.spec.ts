import { expect, test } from '@playwright/test'
import { orderNumberOf } from './admin-helpers'
import {
  apiGifts,
  buyAsGuest,
  cardTitles,
  expectShowsApiPage,
  findAndOpen,
  payInSandbox,
} from './gifts-shared'

// The same shop with JavaScript off: every step is a link or a plain form.

test('without JavaScript a guest searches, buys, pays in the sandbox and sees the gift code', async ({
  page,
  request,
}) => {
  await findAndOpen(page, 'Fortnite', 'Fortnite — 1000 В-баксов')
  const orderId = await buyAsGuest(page, 'nojs-buyer@example.com')
  // the pay page names the order by its short number (decision 135)
  await expect(page.getByText(`№ ${await orderNumberOf(request, orderId)}`).first()).toBeAttached()
  const code = await payInSandbox(page, request, orderId)
  await expect(page.getByText(code)).toBeVisible()
})

test('without JavaScript the tabs and the search keep their state in the URL', async ({ page, request }) => {
  await page.goto('/gifts?tab=discounted')
  await expectShowsApiPage(page, request, 'discounted/', 1)
  await page.getByRole('searchbox', { name: 'Поиск подарков' }).fill('steam')
  await page.getByRole('button', { name: 'Найти' }).click()
  await expect(page).toHaveURL('/gifts?tab=discounted&search=steam')
  const steamDiscounted = (await apiGifts(request, 'discounted/', 'steam')).map((g) => g.title)
  expect(steamDiscounted.length).toBeGreaterThan(0)
  expect(await cardTitles(page)).toEqual(steamDiscounted)
  await page.getByRole('link', { name: 'Новинки' }).click()
  await expect(page).toHaveURL('/gifts?tab=new&search=steam')
})

test('without JavaScript the page links page through the catalogue', async ({ page, request }) => {
  await page.goto('/gifts')
  await expectShowsApiPage(page, request, '', 1)
  await page.getByRole('link', { name: 'Страница 2' }).click()
  await expect(page).toHaveURL('/gifts/2')
  await expectShowsApiPage(page, request, '', 2)
})

test('without JavaScript an empty email is stopped and an unknown gift is a 404', async ({ page }) => {
  await findAndOpen(page, 'Spotify', 'Spotify Premium, 3 месяца')
  await expect(page.getByRole('textbox', { name: 'Электронная почта' })).toHaveAttribute('required', '')
  const res = await page.goto('/gifts/detalis/424242')
  expect(res?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Страница не найдена')
})
