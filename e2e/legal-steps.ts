// Issue 33 in the browser (JS on and off, 360 px): the consent box of the guest order form and of
// sign-up refuses to go on unticked and goes on ticked; the owner's requisites in «Реквизиты и
// чеки» show in the footer and on /info/contacts.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import { guestEmail, openGameFromHome, PAY_URL, quantity, submitOrder } from './purchase-steps'

const CONSENT = 'Я даю согласие на обработку персональных данных'
const REFUSED = /Поставьте отметку «Я даю согласие на обработку персональных данных»/

export async function guestOrderNeedsConsent(page: Page) {
  await page.setViewportSize({ width: 360, height: 780 })
  await openGameFromHome(page, /^PUBG Mobile/, 'PUBG Mobile')
  await quantity(page, '60 UC').fill('1')
  await page.getByLabel('Электронная почта').fill(guestEmail('consent'))
  const box = page.getByLabel(CONSENT)
  await expect(box).not.toBeChecked()
  await expect(page.getByRole('link', { name: 'согласие на обработку персональных данных' })).toHaveAttribute(
    'href',
    '/info/consent',
  )
  await submitOrder(page)
  await expect(page.getByText(REFUSED).first()).toBeVisible()
  await expect(page).not.toHaveURL(PAY_URL)
  await page.getByLabel(CONSENT).check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
}

export async function signUpNeedsConsent(page: Page) {
  await page.setViewportSize({ width: 360, height: 780 })
  const email = guestEmail('consent-signup')
  await page.goto('/auth')
  await page.getByLabel('Электронная почта').fill(email)
  await page.getByLabel('Пароль', { exact: true }).fill('Consent-pass-2026!')
  await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page.getByText(REFUSED).first()).toBeVisible()
  await page.getByLabel('Пароль', { exact: true }).fill('Consent-pass-2026!')
  await page.getByLabel(CONSENT).check()
  await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page).toHaveURL('/')
  await page.goto('/profile')
  await expect(page).toHaveURL(/\/profile/)
}

type Seller = Record<string, unknown> & { company_name: string }

export async function ownerFillsRequisites(page: Page, context: BrowserContext, request: APIRequestContext) {
  await page.setViewportSize({ width: 360, height: 780 })
  const token = await signInAs(context, request, OWNER)
  const auth = { Authorization: `Bearer ${token}` }
  const before = (await (await request.get('/api/admin/seller/', { headers: auth })).json()) as Seller
  const name = `Ромашка ${Date.now()}`
  try {
    await page.goto('/admin/seller')
    await expect(page.getByRole('heading', { level: 1, name: 'Реквизиты и чеки' })).toBeVisible()
    const form = page.getByRole('form', { name: 'Реквизиты и чеки' })
    // a wrong ИНН is refused by its field, in Russian, and nothing is saved
    await form.getByLabel('ИНН', { exact: true }).fill('1234567890')
    await form.getByRole('button', { name: 'Сохранить' }).click()
    await expect(form.locator('.field__error', { hasText: 'ИНН с ошибкой' })).toBeVisible()
    await form.getByLabel('ИНН', { exact: true }).fill(String(before.inn))
    await form.getByLabel('Название', { exact: true }).fill(name)
    await form.getByRole('button', { name: 'Сохранить' }).click()
    await expect(page.getByText('Реквизиты и настройки чеков сохранены')).toBeVisible()
    // nothing scrolls sideways at 360 px
    const wide = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(wide).toBeLessThanOrEqual(360)

    await page.goto('/info/contacts')
    await expect(page.getByRole('contentinfo')).toContainText(name)
    await expect(page.getByRole('contentinfo')).toContainText(`ИНН ${before.inn}`)
    await expect(page.getByRole('main')).toContainText(name)
  } finally {
    // other specs read the demo's requisites: put them back
    const res = await request.put('/api/admin/seller/', { headers: auth, data: before })
    expect(res.status(), await res.text()).toBe(200)
  }
}
