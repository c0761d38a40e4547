// Short order numbers (issue 47, decision 135), shared by the JS and no-JS specs: the buyer's pay
// page says «Заказ № N», and support finds the order in the back-office by typing «№ N», at a
// phone's width and a desktop's.
import { type Browser, expect } from '@playwright/test'
import { createPubgOrder, pubgProduct } from './account-helpers'
import { baseURL } from '../playwright.config'
import { orderNumberOf, SUPPORT, signInAs } from './admin-helpers'

export async function orderFoundByItsNumber(browser: Browser, javaScriptEnabled: boolean) {
  for (const width of [360, 1280]) {
    const context = await browser.newContext({
      baseURL,
      locale: 'ru-RU',
      javaScriptEnabled,
      viewport: { width, height: 800 },
    })
    try {
      const { request } = context
      const { product } = await pubgProduct(request)
      const orderId = await createPubgOrder(request, null, product.id, 1, `number-${width}@example.com`)
      const number = await orderNumberOf(request, orderId)
      const page = await context.newPage()

      await page.goto(`/orders/${orderId}/pay`)
      await expect(page.getByText(`Заказ № ${number}`, { exact: true })).toBeVisible()
      await expect(page.getByText(orderId)).toHaveCount(0)

      await signInAs(context, request, SUPPORT)
      await page.goto('/admin/orders')
      const search = page.getByRole('search', { name: 'Поиск заказов' })
      await search.getByLabel('Номер заказа или почта').fill(`№ ${number}`)
      await search.getByRole('button', { name: 'Найти' }).click()
      await expect(page.getByRole('status').filter({ hasText: 'Найдено: 1' })).toBeVisible()
      await page.getByRole('link', { name: `Заказ № ${number}` }).click()
      await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}$`))
      await expect(page.getByRole('heading', { level: 1, name: `Заказ № ${number}` })).toBeVisible()
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
    } finally {
      await context.close()
    }
  }
}
