// Issue 50, «remember the right things», on a 360×740 phone with and without JavaScript (shared by
// remember-buyer.spec.ts and remember-buyer.nojs.spec.ts):
// - a guest's email and player id come back pre-filled on this device, and «Забыть» clears them;
// - a signed-in buyer repeats a paid order from the history and lands on the new order's pay page
//   with the last method checked and the pay button on screen;
// - a guest's gift order remembers the email for the next gift, and the footer's «Данные на этом
//   устройстве» page forgets it; the profile settings offer the same button.
import { type BrowserContext, expect, type Page } from '@playwright/test'
import { createPubgOrder, payWithSandbox, pubgProduct } from './account-helpers'
import { demoGift, gameId } from './demo-catalogue'
import { guestEmail } from './purchase-steps'

const PHONE = { width: 360, height: 740 }
const CONSENT = 'Я даю согласие на обработку персональных данных'
const FORGET = 'Забыть мои данные на этом устройстве'

/** A guest tops up Steam, comes back: the login and the email are there; «Забыть» clears them. */
export async function guestIsRememberedAndForgotten(page: Page, context: BrowserContext) {
  await page.setViewportSize(PHONE)
  const steam = `/products/${await gameId(page.request, 'Steam')}`
  const email = guestEmail('remember')
  await page.goto(steam)
  // a first visit: nothing remembered, nothing to forget
  await expect(page.getByLabel('Логин Steam')).toHaveValue('')
  await expect(page.getByRole('button', { name: FORGET })).toHaveCount(0)
  await page.getByLabel('Логин Steam').fill('remember_e2e')
  await page.getByLabel('Сумма пополнения, ₽').fill('500')
  await page.getByLabel('Электронная почта').fill(email)
  await page.getByLabel(CONSENT).check()
  await page.getByRole('button', { name: 'Перейти к оплате' }).click()
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}\/pay$/)

  // the device keeps it in an HttpOnly cookie that does not show the email in the clear
  const cookie = (await context.cookies()).find((c) => c.name === 'buyer')
  expect(cookie?.httpOnly).toBe(true)
  expect(cookie?.sameSite).toBe('Lax')
  expect(cookie?.value).not.toContain('remember_e2e')

  await page.goto(steam)
  await expect(page.getByLabel('Логин Steam')).toHaveValue('remember_e2e')
  await expect(page.getByLabel('Электронная почта')).toHaveValue(email)
  // the fields stay editable
  await expect(page.getByLabel('Логин Steam')).toBeEditable()
  const forget = page.getByRole('button', { name: FORGET })
  await expect(forget).toBeVisible()
  await forget.click()
  await expect(page).toHaveURL(new RegExp(`${steam}$`))
  await expect(
    page.getByText('Готово: это устройство больше не помнит вашу почту и ID игрока.'),
  ).toBeVisible()
  await expect(page.getByLabel('Логин Steam')).toHaveValue('')
  await expect(page.getByLabel('Электронная почта')).toHaveValue('')
  await expect(page.getByRole('button', { name: FORGET })).toHaveCount(0)
  expect((await context.cookies()).some((c) => c.name === 'buyer')).toBe(false)
  // and a fresh load stays empty
  await page.reload()
  await expect(page.getByLabel('Логин Steam')).toHaveValue('')
}

/** Signs up through the API and keeps the token as the shop does; the token. */
async function signIn(page: Page, context: BrowserContext, baseURL: string): Promise<string> {
  const email = `repeat-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const res = await page.request.post('/api/auth/jwt/create/', {
    data: { email, password: 'Very-secret-pass-2026' },
  })
  expect(res.ok()).toBe(true)
  const { access } = (await res.json()) as { access: string }
  await context.addCookies([{ name: 'access', value: access, url: baseURL, httpOnly: true, sameSite: 'Lax' }])
  return access
}

/**
 * A signed-in buyer paid a PUBG order by bank card (not the cheapest method); «Повторить заказ» in
 * the history, then «Подтвердить и оплатить» (on the first screen), lands on the new order's pay
 * page with the bank card checked and the pay button on screen.
 */
export async function repeatLandsOnThePayButton(page: Page, context: BrowserContext, baseURL: string) {
  await page.setViewportSize(PHONE)
  const token = await signIn(page, context, baseURL)
  const { product } = await pubgProduct(page.request)
  const first = await createPubgOrder(page.request, token, product.id, 1)
  await payWithSandbox(page.request, token, first)

  await page.goto('/profile')
  await page.getByRole('link', { name: 'Повторить заказ' }).first().click()
  await expect(page.getByRole('heading', { name: 'Повторить заказ' })).toBeVisible()
  const confirm = page.getByRole('button', { name: 'Подтвердить и оплатить' })
  await expect(confirm).toBeInViewport()
  await confirm.click()

  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}\/pay\?method=sandbox-card#methods-heading$/)
  expect(new URL(page.url()).pathname).not.toContain(first)
  await expect(page.getByRole('radio', { name: 'Банковская карта', exact: true })).toBeChecked()
  // the cheapest (SBP) is not what the page checked
  await expect(page.getByRole('radio', { name: 'СБП по QR-коду', exact: true })).not.toBeChecked()
  const pay = page.getByTestId('pay-button')
  await expect(pay).toBeInViewport()
  await expect(page.getByRole('heading', { name: 'Способ оплаты' })).toBeInViewport()
  // one more tap pays with it
  await pay.click()
  await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//, { timeout: 20_000 })
}

/**
 * A guest buys a gift: the next gift page has the email filled in, with «Забыть» beside it; the
 * footer's «Данные на этом устройстве» (on every page, the same for everyone) opens the page that
 * forgets it, after which the gift form is empty again.
 */
export async function giftRemembersAndTheFooterForgets(page: Page, context: BrowserContext) {
  await page.setViewportSize(PHONE)
  const gift = `/gifts/detalis/${(await demoGift(page.request)).id}`
  const email = guestEmail('gift-remember')
  await page.goto(gift)
  const field = page.getByRole('textbox', { name: 'Электронная почта' })
  await expect(field).toHaveValue('')
  await expect(page.getByRole('button', { name: FORGET })).toHaveCount(0)
  await field.fill(email)
  await page.getByLabel(CONSENT).check()
  await page.getByRole('button', { name: /^Купить за/ }).click()
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}\/pay$/)
  // sent to the gift pages only: the gift lists and the home page stay served from the page cache
  const cookie = (await context.cookies()).find((c) => c.name === 'buyer')
  expect(cookie?.path).toBe('/gifts/detalis')
  expect(cookie?.httpOnly).toBe(true)

  await page.goto(gift)
  await expect(field).toHaveValue(email)
  await expect(
    page.getByText('Почта подставлена из вашего прошлого заказа на этом устройстве.'),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: FORGET })).toBeVisible()

  // the footer's link, from a page that never sees the cookie
  await page.goto('/')
  const link = page.getByRole('contentinfo').getByRole('link', { name: 'Данные на этом устройстве' })
  await link.click()
  await expect(page).toHaveURL(/\/buyer\/forget$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Данные на этом устройстве' })).toBeVisible()
  const forget = page.getByRole('button', { name: FORGET })
  // the whole page fits a phone's width
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  await forget.click()
  await expect(page).toHaveURL(/\/buyer\/forget$/)
  await expect(
    page.getByText('Готово: это устройство больше не помнит вашу почту и ID игрока.'),
  ).toBeVisible()
  expect((await context.cookies()).some((c) => c.name === 'buyer')).toBe(false)
  await page.goto(gift)
  await expect(field).toHaveValue('')
  await expect(page.getByRole('button', { name: FORGET })).toHaveCount(0)
}

/** A signed-in buyer finds the same button in the profile settings; it forgets and comes back there. */
export async function profileSettingsForget(page: Page, context: BrowserContext, baseURL: string) {
  await page.setViewportSize(PHONE)
  await signIn(page, context, baseURL)
  // what a guest order on this device left before signing in
  await context.addCookies([
    {
      name: 'buyer',
      value: 'left-before',
      domain: new URL(baseURL).hostname,
      path: '/gifts/detalis',
      httpOnly: true,
      sameSite: 'Lax',
    },
  ])
  await page.goto('/profile/settings')
  const section = page.getByRole('region', { name: 'Данные на этом устройстве' })
  await expect(section).toBeVisible()
  await section.getByRole('button', { name: FORGET }).click()
  await expect(page).toHaveURL(/\/profile\/settings$/)
  await expect(
    page.getByText('Готово: это устройство больше не помнит вашу почту и ID игрока.'),
  ).toBeVisible()
  expect((await context.cookies()).some((c) => c.name === 'buyer')).toBe(false)
}
