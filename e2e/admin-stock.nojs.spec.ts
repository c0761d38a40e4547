// The owner path without JavaScript: import with the line report, reveal, a guest buys one.
import { expect, test } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import { guestBuysOne, newVoucherProduct, ownerImportsCodes } from './admin-stock-steps'

test('without JavaScript: codes imported with a line report, one revealed, one sold', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(90_000)
  const token = await signInAs(context, request, OWNER)
  const { gameId, productId } = await newVoucherProduct(request, token)
  await ownerImportsCodes(page, productId)
  const guest = await browser.newContext({ javaScriptEnabled: false })
  const orderId = await guestBuysOne(await guest.newPage(), gameId)
  await guest.close()
  await page.goto(`/admin/orders/${orderId}`)
  await expect(page.getByRole('list').filter({ hasText: 'Заказ создан' })).toContainText('выполнен')
  await page.goto(`/admin/stock/products/${productId}`)
  await expect(page.getByText(/Свободно: 2 · Продано: 1/)).toBeVisible()
})
