// SBP through YooKassa, end to end against the local fake (tests/fakes/yookassa-server.ts): the
// owner adds a YooKassa SBP method in the back-office, a buyer chooses it and sees the QR (and, on a
// phone, the bank-app button), the fake's payer pays and YooKassa notifies the shop, and
// «Проверить оплату» takes the buyer to the paid order. Works with JavaScript and without.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { FAKE_YOOKASSA_ORIGIN } from '../playwright.config'
import { OWNER, signInAs } from './admin-helpers'
import { choosePaymentMethod, createPubgOrder, payPath } from './payment-steps'

const uniq = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

/** The owner adds a YooKassa SBP method to Russia's first group through the form; its title. */
export async function ownerAddsSbpMethod(page: Page, context: BrowserContext, request: APIRequestContext) {
  const tag = uniq()
  const title = `СБП ЮKassa ${tag}`
  await signInAs(context, request, OWNER)
  await page.goto('/admin/payments')
  const russia = page.locator('section.card').filter({
    has: page.getByRole('heading', { level: 2, name: 'Россия', exact: true }),
  })
  const add = russia
    .locator('details')
    .filter({ has: page.locator('summary', { hasText: /^Добавить способ в группу/ }) })
    .first()
  await add.locator('summary').click()
  const form = add.getByRole('form')
  // a wrong address first: the Russian refusal by the field, what was typed kept
  await form.getByLabel('Название для покупателя').fill(title)
  await form.getByLabel('Адрес способа').fill('Не латиница')
  await form.getByLabel('Платёжная система').selectOption('yookassa')
  await form.getByLabel('Вид оплаты').selectOption('sbp')
  await form.getByRole('button', { name: 'Добавить' }).click()
  const again = page
    .locator('details[open]')
    .filter({ has: page.locator('summary', { hasText: /^Добавить способ в группу/ }) })
    .getByRole('form')
  // the message on top and by the field itself
  await expect(again.getByRole('alert')).toContainText('латинские строчные буквы, цифры и _')
  await expect(again.getByLabel('Адрес способа')).toHaveAccessibleDescription(/латинские строчные буквы/)
  await expect(again.getByLabel('Название для покупателя')).toHaveValue(title)
  await again.getByLabel('Адрес способа').fill(`yk_sbp_${tag}`)
  await again.getByLabel('Платёжная система').selectOption('yookassa')
  await again.getByLabel('Вид оплаты').selectOption('sbp')
  // above the seed's sandbox SBP (1.5 %): the pay page checks the cheapest method, and the other
  // specs on this server (purchase-taps) pay by the seed's methods, not by this one
  await again.getByLabel('Комиссия, %').fill('2')
  await again.getByLabel('Включён').check()
  await again.getByRole('button', { name: 'Добавить' }).click()
  await expect(page.getByText('Способ оплаты добавлен')).toBeVisible()
  const card = page.getByTestId(`method-yk_sbp_${tag}`)
  await expect(card).toContainText(title)
  await expect(card).toContainText('включён')
  await expect(card).toContainText('провайдер yookassa')
  // nothing wider than the screen
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
  expect(overflow).toBe(false)
  return title
}

/** A buyer pays an order by that method: the QR, the bank link, the fake pays, «Проверить оплату». */
export async function buyerPaysBySbp(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
  title: string,
  phone: boolean,
) {
  await context.clearCookies()
  const orderId = await createPubgOrder(request)
  await page.goto(payPath(orderId))
  await choosePaymentMethod(page, title)
  const qr = page.getByRole('img', { name: /QR/ })
  await expect(qr).toBeVisible({ timeout: 20_000 })
  const bank = page.getByRole('link', { name: 'Открыть приложение банка' })
  await expect(bank).toHaveAttribute('href', /^https:\/\/qr\.nspk\.ru\//)
  if (phone) await expect(bank).toBeVisible()
  await expect(page.getByText(/действует до/i)).toBeVisible()

  const data = await request.get(`/api/orders/payment_data/${orderId}/`)
  expect(data.ok(), await data.text()).toBe(true)
  const { payment_id: paymentId, type } = (await data.json()) as { payment_id: string; type: string }
  expect(type).toBe('invoice_qr')
  // the payer pays in the bank app; YooKassa notifies the shop (the fake posts it)
  const paid = await request.post(`${FAKE_YOOKASSA_ORIGIN}/_test/succeed/${paymentId}`)
  expect(paid.ok(), await paid.text()).toBe(true)
  expect(((await paid.json()) as { notified: number }).notified).toBe(200)

  await page.getByRole('button', { name: 'Проверить оплату' }).click()
  await expect(
    page.getByRole('heading', { name: /^(Оплачен|Отправляется|Отправлен|Выполнен)$/ }),
  ).toBeVisible({ timeout: 20_000 })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
  expect(overflow).toBe(false)
}
