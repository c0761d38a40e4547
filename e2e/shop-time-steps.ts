// The shop's one time zone (issue 47, decision 136), shared by the JS and no-JS specs: the owner
// sees the zone at /admin/shop, and the back-office's times say «МСК», the promo expiry too, at a
// phone's width and a desktop's.
import { type Browser, expect } from '@playwright/test'
import { baseURL } from '../playwright.config'
import { createPubgOrder, pubgProduct } from './account-helpers'
import { OWNER, orderNumberOf, signInAs } from './admin-helpers'

export async function timesInTheShopZone(browser: Browser, javaScriptEnabled: boolean) {
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
      const orderId = await createPubgOrder(request, null, product.id, 1, `zone-${width}@example.com`)
      const number = await orderNumberOf(request, orderId)
      await signInAs(context, request, OWNER)
      const page = await context.newPage()

      await page.goto('/admin/shop')
      const form = page.getByRole('form', { name: 'Магазин: название и контакты' })
      await expect(form.getByLabel('Часовой пояс магазина')).toHaveValue('Europe/Moscow')
      await expect(form.getByRole('option', { name: 'Екатеринбург (МСК+2)' })).toHaveCount(1)

      await page.goto(`/admin/orders?q=${number}`)
      const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: `Заказ № ${number}` }) })
      await expect(row).toContainText(/\d{2}\.\d{2}\.\d{4} \d{2}:\d{2} МСК/)
      await expect(row).not.toContainText(/\d{4}-\d{2}-\d{2}T/)

      await page.goto('/admin/promo')
      // the new code's form (the edit forms of existing codes fold away)
      await expect(
        page.getByRole('form', { name: 'Новый промокод' }).getByLabel('Действует до (МСК)'),
      ).toHaveCount(1)
      await expect(page.getByText('(UTC)')).toHaveCount(0)
    } finally {
      await context.close()
    }
  }
}
