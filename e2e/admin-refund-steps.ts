// Steps of the owner's refund specs (JS on and off): a guest buys from the demo PUBG game, the
// order stays `sent` (E2E_STAYS_SENT_DOMAIN: a supplier that has not finished), the owner finds it
// with its timeline and refunds it, and the buyer's order page shows «Возврат» with the reason.
import { expect, type Page } from '@playwright/test'
import { OWNER, orderNumberOf } from './admin-helpers'
import { choosePaymentMethod, confirmInSandbox, METHOD_BY_SCENARIO, payPath } from './payment-steps'
import { orderForm, PAY_URL, quantity, submitOrder } from './purchase-steps'

/** Kept in step with E2E_STAYS_SENT_DOMAIN in api/src/services/fulfilment/index.ts. */
const STAYS_SENT = '@stays-sent.test'

/** A guest buys one 60 UC of the demo PUBG game and pays in the sandbox; returns the order id. */
export async function guestBuysUndelivered(page: Page, gameId: number) {
  await page.goto(`/products/${gameId}`)
  await page.waitForLoadState('networkidle')
  await quantity(page, '60 UC').fill('1')
  await expect(quantity(page, '60 UC')).toHaveValue('1')
  await orderForm(page)
    .getByLabel('Электронная почта')
    .fill(`refund-${Date.now()}-${Math.floor(Math.random() * 1e6)}${STAYS_SENT}`)
  await orderForm(page).getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
  const orderId = /\/orders\/([0-9a-f-]{36})\/pay/.exec(page.url())![1]!
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
  await confirmInSandbox(page)
  await expect(page.getByTestId('order-status')).toHaveText('Отправлен', { timeout: 15_000 })
  return orderId
}

/** The owner finds the order, sees its timeline, refunds it with `reason` and sees the refund. */
export async function ownerRefunds(page: Page, orderId: string, reason: string) {
  await page.goto(`/admin/orders?q=${orderId}`)
  const title = `Заказ № ${await orderNumberOf(page.request, orderId)}`
  await page.getByRole('link', { name: title }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  const timeline = page.getByRole('list').filter({ hasText: 'Заказ создан' })
  const event = (text: string) => timeline.getByRole('listitem').filter({ hasText: text })
  await expect(event('Статус → ждёт оплаты')).toHaveCount(1)
  await expect(event('Статус → оплачен')).toHaveCount(1)
  await expect(event('Статус → отправлен')).toHaveCount(1)
  await expect(event('Статус → ошибка')).toHaveCount(0)
  await expect(event('Возврат')).toHaveCount(0)

  const form = page.getByRole('form', { name: 'Вернуть деньги' })
  await form.getByLabel('Причина для покупателя').fill(reason)
  await form.getByRole('button', { name: 'Вернуть деньги' }).click()

  await expect(page.getByText('Возврат оформлен').first()).toBeVisible()
  const refund = page.getByTestId('admin-refund')
  await expect(refund).toContainText('через платёжную систему')
  await expect(refund).toContainText(reason)
  await expect(page.getByText(`Причина ошибки: ${reason}`)).toBeVisible()
  await expect(event('Статус → ошибка')).toHaveCount(1)
  await expect(event('Возврат')).toHaveCount(1)
  await expect(event('Действие сотрудника').filter({ hasText: OWNER.email })).toHaveCount(1)
  // refunded once: the form is gone, so a second refund cannot even be asked for
  await expect(page.getByRole('form', { name: 'Вернуть деньги' })).toHaveCount(0)
}

/** The buyer's order page: failed, with «Возврат», the reason and the way the money goes back. */
export async function buyerSeesRefund(page: Page, orderId: string, reason: string) {
  await page.goto(payPath(orderId))
  await expect(page.getByTestId('order-status')).toHaveText('Ошибка')
  const note = page.getByTestId('order-refund')
  await expect(note.getByRole('heading', { name: 'Возврат' })).toBeVisible()
  await expect(note).toContainText(`Причина: ${reason}`)
  await expect(note).toContainText('тем же способом, которым вы платили')
}
