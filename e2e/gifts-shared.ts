// Steps and API look-ups shared by the gift e2e specs (JavaScript on and off).
import { type APIRequestContext, expect, type Page } from '@playwright/test'

export interface ApiGift {
  id: number
  title: string
  in_stock: boolean
  discount_price: string | null
}

/** Every gift of one API list (the oracle the storefront lists are checked against). */
export async function apiGifts(request: APIRequestContext, list: '' | 'new/' | 'discounted/', search = '') {
  const query = search ? `&search=${encodeURIComponent(search)}` : ''
  const res = await request.get(`/api/gifts/${list}?limit=100${query}`)
  expect(res.ok()).toBe(true)
  return ((await res.json()) as { results: ApiGift[] }).results
}

/** Gifts per catalogue page (GIFTS_PER_PAGE of the storefront's gift loaders). */
export const GIFTS_PER_PAGE = 8

/** The titles of one catalogue page as the API lists it, and the list's length. */
export async function apiGiftPage(request: APIRequestContext, list: '' | 'new/' | 'discounted/', n: number) {
  const res = await request.get(
    `/api/gifts/${list}?limit=${GIFTS_PER_PAGE}&offset=${(n - 1) * GIFTS_PER_PAGE}`,
  )
  expect(res.ok()).toBe(true)
  const body = (await res.json()) as { count: number; results: ApiGift[] }
  return { count: body.count, titles: body.results.map((g) => g.title) }
}

/**
 * The open catalogue page shows page `n` of the API's list. Specs of the back-office add gifts while
 * this runs, so the page is reloaded until a render and an API read agree.
 */
export async function expectShowsApiPage(
  page: Page,
  request: APIRequestContext,
  list: '' | 'new/' | 'discounted/',
  n: number,
) {
  let tries = 0
  await expect(async () => {
    if (tries++ > 0) await page.reload()
    const { titles } = await apiGiftPage(request, list, n)
    expect(titles.length).toBeGreaterThan(0)
    expect(await cardTitles(page)).toEqual(titles)
  }).toPass({ timeout: 15_000 })
}

/** Titles of the gift cards on the page, in order. */
export function cardTitles(page: Page) {
  return page.locator('.gift-grid').getByRole('heading', { level: 2 }).allInnerTexts()
}

/** Searches the catalogue with its GET form and opens the gift called `title`. */
export async function findAndOpen(page: Page, query: string, title: string) {
  await page.goto('/gifts')
  await page.getByRole('searchbox', { name: 'Поиск подарков' }).fill(query)
  await page.getByRole('button', { name: 'Найти' }).click()
  await expect(page).toHaveURL(`/gifts?search=${encodeURIComponent(query)}`)
  await expect(page.getByText(`По запросу «${query}» найден 1 подарок`)).toBeVisible()
  await page.getByRole('link', { name: title }).click()
  await expect(page).toHaveURL(/\/gifts\/detalis\/\d+$/)
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
}

/** Fills the email and buys; returns the new order's id from the payment page's address. */
export async function buyAsGuest(page: Page, email: string): Promise<string> {
  await page.getByRole('textbox', { name: 'Электронная почта' }).fill(email)
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await page.getByRole('button', { name: /^Купить за/ }).click()
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}\/pay$/)
  return new URL(page.url()).pathname.split('/')[2]!
}

/**
 * Pays an order in the sandbox through the payment page: the card method (a redirect scenario)
 * sends the shopper to the sandbox checkout, whose «Оплатить» confirms the payment and returns to
 * /orders/{id}/pay. Returns the gift code the order received (read from the API, to look for it).
 */
export async function payInSandbox(page: Page, request: APIRequestContext, orderId: string) {
  await expect(page).toHaveURL(`/orders/${orderId}/pay`)
  await page.getByRole('radio', { name: /^Банковская карта(?! \(ЮKassa\))/ }).check()
  await page.getByRole('button', { name: 'Перейти к оплате' }).click()
  await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout\//)
  await page.getByRole('button', { name: 'Оплатить' }).click()
  await expect(page).toHaveURL(`/orders/${orderId}/pay`)
  const order = (await (await request.get(`/api/orders/${orderId}/`)).json()) as {
    status: string
    code: string | null
  }
  expect(order.status).toBe('done')
  expect(order.code).toBeTruthy()
  await expect(page.getByRole('heading', { name: 'Код подарка' })).toBeVisible()
  return order.code!
}
