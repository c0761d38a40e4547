// Issue 16's owner path with JavaScript: import codes → a guest buys one → the order is in the
// back-office with its timeline, and the stock counts follow.
import { expect, test } from '@playwright/test'
import { OWNER, orderNumberOf, signInAs } from './admin-helpers'
import { guestBuysOne, newVoucherProduct, ownerImportsCodes } from './admin-stock-steps'

test('the owner imports codes, a guest buys one, the order and the counts show it', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(90_000)
  const token = await signInAs(context, request, OWNER)
  const { gameId, productId } = await newVoucherProduct(request, token)
  await ownerImportsCodes(page, productId)

  const guest = await browser.newContext()
  const orderId = await guestBuysOne(await guest.newPage(), gameId)
  await guest.close()

  await page.goto(`/admin/orders?q=${orderId}`)
  await page.getByRole('link', { name: `Заказ № ${await orderNumberOf(request, orderId)}` }).click()
  const timeline = page.getByRole('list').filter({ hasText: 'Заказ создан' })
  await expect(timeline).toContainText('оплачен')
  await expect(timeline).toContainText('выполнен')
  await expect(page.getByRole('button', { name: 'Отправить письмо ещё раз' })).toBeVisible()
  await page.getByRole('button', { name: 'Отправить письмо ещё раз' }).click()
  await expect(timeline).toContainText('Действие сотрудника')

  await page.goto(`/admin/stock/products/${productId}`)
  await expect(page.getByText(/Свободно: 2 · Продано: 1/)).toBeVisible()
  await page.getByRole('link', { name: 'проданные' }).click()
  await expect(page.getByRole('table', { name: 'Коды', exact: true }).getByRole('row')).toHaveCount(2)

  // every reveal is in the audit log
  await page.goto('/admin/audit?entity=product_code')
  await expect(page.getByRole('table')).toContainText('stock.reveal')
})
