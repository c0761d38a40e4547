// Stock refusals shared by the JS and no-JS specs (issue 12): a voucher product with no free codes
// is «Нет в наличии» on its game page and cannot be chosen, and comes back by itself when codes
// arrive; a payment whose codes cannot be held is refused on the pay page before anyone pays; a
// sold-out gift is marked on its card and page.
import { type APIRequestContext, expect, type Page } from '@playwright/test'
import { OWNER } from './admin-helpers'
import { newVoucherProduct } from './admin-stock-steps'
import { apiGifts } from './gifts-shared'
import { choosePaymentMethod, email, METHOD_BY_SCENARIO, payPath } from './payment-steps'
import { quantity } from './purchase-steps'

async function ownerToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/auth/jwt/create/', { data: OWNER })
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { access: string }).access
}

async function importCodes(request: APIRequestContext, token: string, productId: number, n: number) {
  const tag = Math.random().toString(36).slice(2, 8).toUpperCase()
  const text = Array.from({ length: n }, (_, i) => `HOLD-${tag}-${i}`).join('\n')
  const res = await request.post(`/api/admin/stock/products/${productId}/codes/`, {
    headers: { authorization: `Bearer ${token}` },
    data: { text },
  })
  expect(res.status(), await res.text()).toBe(200)
  expect(((await res.json()) as { imported: number }).imported).toBe(n)
}

async function guestOrder(request: APIRequestContext, productId: number): Promise<string> {
  const res = await request.post('/api/orders/pubg/', {
    data: { products: [{ product_id: productId, quantity: 1 }], email: email('hold') },
  })
  expect(res.status(), await res.text()).toBe(201)
  return ((await res.json()) as { id: string }).id
}

export async function soldOutProductIsMarked(page: Page, request: APIRequestContext) {
  const token = await ownerToken(request)
  const { gameId, productId } = await newVoucherProduct(request, token)
  await page.goto(`/products/${gameId}`)
  const card = page.getByRole('listitem').filter({ hasText: '77 UC' })
  await expect(card.getByText('Нет в наличии')).toBeVisible()
  await expect(quantity(page, '77 UC')).toBeDisabled()
  // codes arrive: the product is on sale again, with nothing else done
  await importCodes(request, token, productId, 2)
  await expect(async () => {
    await page.reload()
    await expect(card.getByText('Нет в наличии')).toHaveCount(0, { timeout: 1000 })
  }).toPass({ timeout: 20_000 })
  await expect(quantity(page, '77 UC')).toBeEnabled()
}

export async function payPageRefusesWhenCodesCannotBeHeld(page: Page, request: APIRequestContext) {
  const token = await ownerToken(request)
  const { productId } = await newVoucherProduct(request, token)
  await importCodes(request, token, productId, 1)
  // two shoppers order the last code; the first starts paying and holds it
  const first = await guestOrder(request, productId)
  const second = await guestOrder(request, productId)
  const held = await request.post('/api/payments/sandbox-card/', {
    data: { order_id: first, currency: 'RUB' },
  })
  expect(held.status(), await held.text()).toBe(200)
  // the second is told before paying, on the pay page, and stays there
  await page.goto(payPath(second))
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
  await expect(
    page.getByRole('alert').filter({ hasText: '«77 UC»: столько нет в наличии (доступно: 0)' }),
  ).toBeVisible()
  await expect(page).toHaveURL(payPath(second))
  await expect(page.getByRole('heading', { name: 'Тестовая касса' })).toHaveCount(0)
}

export async function soldOutGiftIsMarked(page: Page, request: APIRequestContext) {
  const soldOut = (await apiGifts(request, '')).find((g) => !g.in_stock)!
  await page.goto(`/gifts?search=${encodeURIComponent(soldOut.title)}`)
  const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: soldOut.title }) })
  await expect(card.getByText('Нет в наличии')).toBeVisible()
  await card.getByRole('link', { name: soldOut.title }).click()
  await expect(page.getByText('Подарок закончился — купить его сейчас нельзя')).toBeVisible()
  await expect(page.getByRole('button', { name: /^Купить за/ })).toBeDisabled()
}
