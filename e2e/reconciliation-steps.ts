// «Сверка» end to end (issue 43): a payment succeeds at the YooKassa fake that the shop never asked
// for (its metadata names a real order), the owner opens «Сверка» on a phone, runs it, sees the
// difference with its order and amount, opens the order, comes back and marks it explained.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { FAKE_YOOKASSA_ORIGIN } from '../playwright.config'
import { OWNER, signInAs } from './admin-helpers'
import { createPubgOrder, email } from './payment-steps'

/** YooKassa took 1 101,60 ₽ for `orderId` without the shop starting that payment. */
async function plantPaymentAtYookassa(request: APIRequestContext, orderId: string) {
  const res = await request.post(`${FAKE_YOOKASSA_ORIGIN}/_test/plant`, {
    data: { value: '1101.60', currency: 'RUB', metadata: { order_id: orderId } },
  })
  expect(res.ok(), await res.text()).toBe(true)
}

/** The order's short number people read (decision 135). */
async function numberOf(request: APIRequestContext, orderId: string): Promise<number> {
  const res = await request.get(`/api/orders/${orderId}/`)
  expect(res.ok(), await res.text()).toBe(true)
  return ((await res.json()) as { number: number }).number
}

const cardOf = (page: Page, number: number) =>
  page.getByRole('listitem').filter({ has: page.getByRole('link', { name: `Открыть заказ № ${number}` }) })

export async function ownerExplainsPlantedDifference(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
) {
  await page.setViewportSize({ width: 360, height: 800 })
  const orderId = await createPubgOrder(request, '60 UC', 1, email('recon'))
  await plantPaymentAtYookassa(request, orderId)
  const number = await numberOf(request, orderId)

  await signInAs(context, request, OWNER)
  await page.goto('/admin/reconciliation')
  await expect(page.getByRole('heading', { level: 1, name: 'Сверка' })).toBeVisible()
  await page.getByRole('button', { name: 'Сверить сейчас' }).click()
  await expect(page.getByText('Сверка выполнена')).toBeVisible()

  const card = cardOf(page, number)
  await expect(card).toHaveCount(1)
  await expect(card).toContainText('Оплата есть у платёжной системы, но не в магазине')
  await expect(card).toContainText(/1[\s\u202f\u00a0]101,60[\s\u00a0]₽/)
  // nothing sideways on a phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

  await card.getByRole('link', { name: `Открыть заказ № ${number}` }).click()
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}$`))

  await page.goto('/admin/reconciliation')
  const again = cardOf(page, number)
  await again.getByLabel('Чем объясняется').fill('Покупатель оплатил по старой ссылке, заказ выдан вручную')
  await again.getByRole('button', { name: 'Объяснено' }).click()
  await expect(page.getByText('Расхождение отмечено объяснённым')).toBeVisible()
  await expect(cardOf(page, number)).toHaveCount(0)

  await page.goto('/admin/reconciliation?status=explained')
  await expect(cardOf(page, number)).toContainText('Покупатель оплатил по старой ссылке, заказ выдан вручную')
  await expect(cardOf(page, number)).toContainText(OWNER.email)
}
