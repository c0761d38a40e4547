// Steps shared by the JS and no-JS specs of the back-office's promo codes and payment setup: what
// the owner changes there, a shopper sees on the payment page.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import { createPubgOrder, payPath } from './payment-steps'

/** "1 234,50 ₽" → 1234.5 */
const amountOf = (text: string | null) => Number((text ?? '').replace(/[^\d,]/g, '').replace(',', '.'))

async function totalToPay(page: Page) {
  return amountOf(await page.getByTestId('total-to-pay').textContent())
}

/** The shopper's side: a new guest order (no back-office cookies) and its payment page. */
async function asShopperOnPayPage(page: Page, context: BrowserContext, request: APIRequestContext) {
  await context.clearCookies()
  const orderId = await createPubgOrder(request)
  await page.goto(payPath(orderId))
  await expect(page.getByTestId('total-to-pay')).toBeVisible()
}

async function applyCode(page: Page, code: string) {
  await page.getByRole('textbox', { name: 'Промокод' }).fill(code)
  await page.getByRole('button', { name: 'Применить' }).click()
}

export async function ownerCreatesPromoThatShopperApplies(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
) {
  const code = `E2E${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`.toUpperCase()
  await signInAs(context, request, OWNER)
  await page.goto('/admin')
  await page
    .getByRole('navigation', { name: 'Разделы управления' })
    .getByRole('link', { name: 'Промокоды' })
    .click()
  await expect(page.getByRole('heading', { level: 1, name: 'Промокоды' })).toBeVisible()

  // a refused form first: the API's message by the field, and what was typed stays
  const create = page.getByRole('form', { name: 'Новый промокод' })
  await create.getByRole('textbox', { name: 'Код', exact: true }).fill(code)
  await create.getByLabel('Для чего').selectOption({ label: 'Игра: PUBG Mobile' })
  await create.getByLabel('Скидка, %').fill('0')
  await create.getByRole('button', { name: 'Добавить' }).click()
  const refused = page.getByRole('form', { name: 'Новый промокод' })
  await expect(refused.getByRole('alert')).toBeVisible()
  await expect(refused.getByLabel('Скидка, %')).toHaveAttribute('aria-invalid', 'true')
  await expect(refused.getByRole('textbox', { name: 'Код', exact: true })).toHaveValue(code)

  await refused.getByLabel('Скидка, %').fill('20')
  await refused.getByLabel('Сколько раз можно использовать').fill('5')
  await refused.getByRole('button', { name: 'Добавить' }).click()
  const card = page.getByTestId(`promo-${code}`)
  await expect(card).toContainText('−20%')
  await expect(card).toContainText('Игра: PUBG Mobile')
  await expect(card).toContainText('Использований: 0 из 5')
  await expect(card).toContainText('работает')

  // a shopper applies it on the payment page: 20 % off
  await asShopperOnPayPage(page, context, request)
  const before = await totalToPay(page)
  await applyCode(page, code.toLowerCase())
  await expect.poll(() => totalToPay(page)).toBe(Math.round(before * 80) / 100)

  // switched off, the code is gone for the next buyer
  await signInAs(context, request, OWNER)
  await page.goto('/admin/promo')
  await page
    .getByRole('form', { name: `Выключить: ${code}` })
    .getByRole('button', { name: 'Выключить' })
    .click()
  await expect(page.getByTestId(`promo-${code}`)).toContainText('выключен')
  await expect(page.getByRole('form', { name: `Включить: ${code}` })).toBeVisible()
  await asShopperOnPayPage(page, context, request)
  await applyCode(page, code)
  await expect(page.getByRole('alert').filter({ hasText: 'Такого промокода нет' })).toBeVisible()
}

/** Selects `country` on the payment page (the form posts without JavaScript too). */
async function chooseCountry(page: Page, country: string) {
  await page.getByRole('combobox', { name: 'Страна', exact: true }).selectOption({ label: country })
  await page.getByRole('button', { name: 'Выбрать' }).click()
}

async function switchMethod(page: Page, title: string, to: 'Выключить' | 'Включить') {
  await page.goto('/admin/payments')
  await page
    .getByRole('form', { name: `${to}: ${title}` })
    .getByRole('button', { name: to })
    .click()
  const next = to === 'Выключить' ? 'Включить' : 'Выключить'
  await expect(page.getByRole('form', { name: `${next}: ${title}` })).toBeVisible()
}

/** The owner changes the method's minimum in its edit form; what it was before. */
async function setMinimum(page: Page, title: string, value: string): Promise<string> {
  await page.goto('/admin/payments')
  const card = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('form', { name: new RegExp(`^(Вы|В)ключить: ${title}$`) }) })
  await card.locator('summary', { hasText: 'Изменить' }).click()
  const form = page.getByRole('form', { name: `Изменить способ ${title}` })
  const field = form.getByLabel(/^Минимальная сумма заказа/)
  const was = await field.inputValue()
  await field.fill(value)
  await form.getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.getByText('Способ оплаты сохранён')).toBeVisible()
  return was
}

/**
 * The owner switches `method` of `country` off: the payment page shows it unavailable; switched on
 * again, it is offered again. Each spec uses a method no other spec pays with, since the e2e
 * server is shared; `minimum` first lowers the method's minimum through its edit form so the
 * test order reaches it (put back at the end).
 */
export async function ownerSwitchesMethodOff(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
  where: { country: string; method: string; minimum?: string },
) {
  const radio = page.getByRole('radio', { name: where.method, exact: true })
  await signInAs(context, request, OWNER)
  await page.goto('/admin/payments')
  await expect(page.getByRole('heading', { level: 1, name: 'Оплата' })).toBeVisible()
  await expect(page.getByRole('heading', { level: 2, name: where.country })).toBeVisible()
  const minimumWas = where.minimum ? await setMinimum(page, where.method, where.minimum) : null
  await switchMethod(page, where.method, 'Выключить')

  await asShopperOnPayPage(page, context, request)
  await chooseCountry(page, where.country)
  await expect(radio).toBeDisabled()
  await expect(radio).toHaveAccessibleDescription(/Способ временно недоступен/)

  await signInAs(context, request, OWNER)
  await switchMethod(page, where.method, 'Включить')
  await asShopperOnPayPage(page, context, request)
  await chooseCountry(page, where.country)
  await expect(radio).toBeEnabled()
  await expect(radio).not.toHaveAccessibleDescription(/Способ временно недоступен/)
  if (minimumWas !== null) {
    await signInAs(context, request, OWNER)
    await setMinimum(page, where.method, minimumWas)
  }
}
