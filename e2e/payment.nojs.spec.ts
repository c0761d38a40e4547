// The payment page with JavaScript off: every step is a server-rendered form, the provider form
// has a visible button, and a waiting page (the order on its way, a QR waiting for the bank app)
// refreshes itself.
import { expect, test } from '@playwright/test'
import {
  choosePaymentMethod,
  confirmInSandbox,
  createPubgOrder,
  METHOD_BY_SCENARIO,
  payPath,
  statusHeading,
} from './payment-steps'

test('main path: choose a method, pay in the sandbox, back to a done order with its codes', async ({
  page,
  request,
}) => {
  const id = await createPubgOrder(request, '660 UC', 1)
  await page.goto(payPath(id))
  await expect(page.getByTestId('order-status')).toHaveText('Создан')
  await expect(page.getByTestId('total-to-pay')).toHaveText('899,00 ₽')
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
  // the action answered with a redirect to the provider
  await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout\//)
  await confirmInSandbox(page)
  await expect(page).toHaveURL(payPath(id))
  await expect(statusHeading(page, 'Выполнен')).toBeVisible()
  const codes = page.getByRole('region', { name: 'Ваши коды' })
  await expect(codes.getByRole('listitem')).toHaveCount(1)
  // without JavaScript no copy button: the code is plain selectable text
  await expect(codes.locator('code')).toHaveText(/^UC-/)
  await expect(codes.getByRole('button')).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Перейти к оплате' })).toHaveCount(0)
})

test('form scenario: a visible button sends the provider form', async ({ page, request }) => {
  const id = await createPubgOrder(request)
  await page.goto(payPath(id))
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.form)
  // post/redirect/get: the started payment is on the page, a reload would not pay again
  await expect(page).toHaveURL(new RegExp(`${payPath(id)}\\?payment=[0-9a-f-]{36}`))
  await expect(page.getByText('Нажмите кнопку, чтобы перейти на страницу платёжной системы.')).toBeVisible()
  await page.getByRole('button', { name: 'Перейти на страницу оплаты' }).click()
  await confirmInSandbox(page)
  await expect(statusHeading(page, 'Выполнен')).toBeVisible()
})

test('wait_order_state: the waiting page refreshes itself until the order is done', async ({
  page,
  context,
  request,
}) => {
  // a page that refreshes itself every few seconds, on a loaded machine: more than the default 30 s
  test.setTimeout(60_000)
  const id = await createPubgOrder(request)
  await page.goto(payPath(id))
  // the email field appears (CSS only) for the method that needs it, prefilled from the order
  const email = page.getByLabel('Электронная почта для чека')
  await expect(email).toBeHidden()
  await page.getByRole('radio', { name: METHOD_BY_SCENARIO.wait_order_state, exact: true }).check()
  await expect(email).toBeVisible()
  await expect(email).toHaveValue(/@example\.com$/)
  await page.getByRole('button', { name: 'Перейти к оплате' }).click()
  await expect(page.getByText('Ждём подтверждения оплаты')).toBeVisible()
  await expect(page.locator('noscript meta[http-equiv="refresh"]')).toHaveCount(1)

  // pay in another tab; this one is not touched again
  const link = page.getByRole('link', { name: 'Открыть страницу оплаты' })
  await expect(link).toHaveAttribute('target', '_blank')
  const other = await context.newPage()
  await other.goto((await link.getAttribute('href'))!)
  await confirmInSandbox(other)
  await other.close()

  await expect(statusHeading(page, 'Выполнен')).toBeVisible({ timeout: 30_000 })
  await expect(page.locator('noscript meta[http-equiv="refresh"]')).toHaveCount(0)
})

test('promo code and country work as plain form posts', async ({ page, request }) => {
  const id = await createPubgOrder(request)
  await page.goto(payPath(id))
  const code = page.getByRole('textbox', { name: 'Промокод' })
  await code.fill('NO-SUCH-CODE')
  await page.getByRole('button', { name: 'Применить' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Такого промокода нет' })).toBeVisible()
  await page.getByRole('textbox', { name: 'Промокод' }).fill('WELCOME10')
  await page.getByRole('button', { name: 'Применить' }).click()
  await expect(page.getByTestId('total-to-pay')).toHaveText('809,10 ₽')
  await page.getByRole('button', { name: 'Убрать промокод' }).click()
  await expect(page.getByTestId('total-to-pay')).toHaveText('899,00 ₽')

  await page.getByRole('combobox', { name: 'Страна', exact: true }).selectOption({ label: 'Беларусь' })
  await page.getByRole('button', { name: 'Выбрать' }).click()
  await expect(page.getByText('Валюта оплаты: BYN')).toBeVisible()
  await expect(page.getByRole('radio', { name: 'Система «Расчёт»' })).toBeVisible()
})

test('a QR waiting for the bank app: the page reloads itself by GET, counting up to ten minutes, never after a form post', async ({
  page,
  request,
}) => {
  const id = await createPubgOrder(request)
  await page.goto(payPath(id))
  // the method and the promo fields, nothing started: the buyer may be typing, no reload
  const refresh = page.locator('noscript meta[http-equiv="refresh"]')
  await expect(page.getByRole('textbox', { name: 'Промокод' })).toBeVisible()
  await expect(refresh).toHaveCount(0)

  await choosePaymentMethod(page, METHOD_BY_SCENARIO.qr)
  await expect(page.getByRole('img', { name: /QR/ })).toBeVisible({ timeout: 20_000 })
  await expect(page).toHaveURL(new RegExp(`${payPath(id)}\\?payment=([0-9a-f-]{36})`))
  const payment = new URL(page.url()).searchParams.get('payment')!
  // every 10 s, to the same page (a GET: the started payment is not started again), one more
  await expect(refresh).toHaveAttribute('content', `10;url=${payPath(id)}?payment=${payment}&waited=1`)
  await expect(page).toHaveURL(/[?&]waited=1$/, { timeout: 20_000 })
  await expect(page.getByRole('img', { name: /QR/ })).toBeVisible()
  await expect(refresh).toHaveAttribute('content', `10;url=${payPath(id)}?payment=${payment}&waited=2`)
  const started = await request.get(`/api/orders/payment_data/${id}/`)
  expect(((await started.json()) as { payment_id: string }).payment_id, 'no second payment').toBe(payment)

  // the 60th reload (10 minutes) is the last: the QR stays, the page stops reloading
  await page.goto(`${payPath(id)}?payment=${payment}&waited=59`)
  await expect(refresh).toHaveAttribute('content', `10;url=${payPath(id)}?payment=${payment}&waited=60`)
  await page.goto(`${payPath(id)}?payment=${payment}&waited=60`)
  await expect(page.getByRole('img', { name: /QR/ })).toBeVisible()
  await expect(refresh).toHaveCount(0)

  // a form's answer (here a refused promo code and its message) is not reloaded away
  await page.goto(`${payPath(id)}?payment=${payment}`)
  await expect(refresh).toHaveCount(1)
  await page.getByRole('textbox', { name: 'Промокод' }).fill('NO-SUCH-CODE')
  await page.getByRole('button', { name: 'Применить' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Такого промокода нет' })).toBeVisible()
  await expect(refresh).toHaveCount(0)
})
