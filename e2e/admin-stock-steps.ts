// Stock steps shared by the JS and no-JS back-office specs: the owner imports codes for a new
// voucher product (a duplicate, a malformed and a wrong-amount line refused, line by line), reveals one, and a
// guest buys one of exactly those codes; the order is then in the back-office with its timeline.
import { type APIRequestContext, expect, type Page } from '@playwright/test'
import { choosePaymentMethod, confirmInSandbox, METHOD_BY_SCENARIO } from './payment-steps'
import { PAY_URL, quantity, submitOrder } from './purchase-steps'

/** A new active PUBG game with one 77 UC product and no codes yet, through the back-office API. */
export async function newVoucherProduct(request: APIRequestContext, ownerToken: string) {
  const headers = { authorization: `Bearer ${ownerToken}` }
  const title = `Склад ${Math.floor(Math.random() * 1e6)}`
  const game = await request.post('/api/admin/games/', {
    headers,
    data: { kind: 'PUBGGame', title, is_active: true },
  })
  expect(game.status(), await game.text()).toBe(200)
  const gameId = ((await game.json()) as { id: number }).id
  const product = await request.post(`/api/admin/games/${gameId}/products/`, {
    headers,
    data: { title: '77 UC', price: '99.00', amount_uc: 77, min_quantity: 1, max_quantity: 5 },
  })
  expect(product.status(), await product.text()).toBe(200)
  return { gameId, title, productId: ((await product.json()) as { id: number }).id }
}

export async function ownerImportsCodes(page: Page, productId: number) {
  const tag = Math.random().toString(36).slice(2, 8).toUpperCase()
  const codes = [`AAA-${tag}-1`, `AAA-${tag}-2`, `AAA-${tag}-3`]
  await page.goto('/admin/stock')
  await page.locator(`a[href="/admin/stock/products/${productId}"]`).click()
  await expect(page.getByRole('heading', { level: 1, name: '77 UC' })).toBeVisible()
  const form = page.getByRole('form', { name: 'Загрузить коды' })
  await form
    .getByLabel('Коды, по одному в строке')
    .fill([...codes, codes[0], 'bad code with spaces', `PUBG325-${tag},325`].join('\n'))
  await form.getByRole('button', { name: 'Загрузить' }).click()
  const report = page.getByRole('status').filter({ hasText: 'Отчёт о загрузке' })
  await expect(report).toContainText('Загружено кодов: 3')
  await expect(report).toContainText('Не загружено строк: 3')
  await expect(report.getByRole('row').filter({ hasText: 'повтор в этой загрузке' })).toContainText('4')
  await expect(report.getByRole('row').filter({ hasText: 'неверный формат' })).toContainText('5')
  // a code of another UC amount is not taken into the 77 UC product (issue 37)
  await expect(
    report.getByRole('row').filter({ hasText: 'количество UC не совпадает с товаром' }),
  ).toContainText('6')
  // the same codes again: all refused as already in stock
  await page.getByLabel('Коды, по одному в строке').fill(codes.join('\n'))
  await page.getByRole('button', { name: 'Загрузить' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Отчёт о загрузке' })).toContainText(
    'Загружено кодов: 0',
  )
  await expect(page.getByText('уже есть в базе').first()).toBeVisible()

  // masked in the list; one revealed on request
  const list = page.getByRole('table', { name: 'Коды', exact: true })
  await expect(list.getByRole('row')).toHaveCount(4)
  for (const code of codes) await expect(list.getByText(code)).toHaveCount(0)
  await list
    .getByRole('button', { name: /^Показать код/ })
    .first()
    .click()
  await expect(page.locator('output')).toHaveText(new RegExp(`^AAA-${tag}-\\d$`))
  return codes
}

/** A guest buys one 77 UC code through the storefront; returns the order id. */
export async function guestBuysOne(page: Page, gameId: number) {
  await page.goto(`/products/${gameId}`)
  // the order form is interactive once its script is in (with JavaScript on)
  await page.waitForLoadState('networkidle')
  await quantity(page, '77 UC').fill('1')
  await expect(quantity(page, '77 UC')).toHaveValue('1')
  await page.getByLabel('Электронная почта').fill(`stock-${Date.now()}@example.com`)
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
  const orderId = /\/orders\/([0-9a-f-]{36})\/pay/.exec(page.url())![1]!
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
  await confirmInSandbox(page)
  await expect(page.getByTestId('order-status')).toHaveText('Выполнен', { timeout: 15_000 })
  return orderId
}
