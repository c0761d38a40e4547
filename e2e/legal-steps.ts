// Issue 33 in the browser (JS on and off, 360 px): the consent box of the guest order form and of
// sign-up refuses to go on unticked and goes on ticked; the owner's requisites in «Реквизиты и
// чеки» show in the footer and on /info/contacts.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import { waitForMail } from './mail-steps'
import { withSellerLock } from './seller-lock'
import { choosePaymentMethod, confirmInSandbox, METHOD_BY_SCENARIO, payPath } from './payment-steps'
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

/** The requisites row is shared by the whole run: changed and put back under the seller lock. */
export const ownerFillsRequisites = (page: Page, context: BrowserContext, request: APIRequestContext) =>
  withSellerLock(() => fillRequisites(page, context, request))

async function fillRequisites(page: Page, context: BrowserContext, request: APIRequestContext) {
  await page.setViewportSize({ width: 360, height: 780 })
  const token = await signInAs(context, request, OWNER)
  const auth = { Authorization: `Bearer ${token}` }
  const before = (await (await request.get('/api/admin/seller/', { headers: auth })).json()) as Seller
  const name = `Ромашка ${Date.now()}`
  // the row may hold a fresh shop's blank form (another spec put it back): the footer names a seller
  // only with an ИНН, so a blank one gets a valid pair
  const inn = String(before.inn || '7707083893')
  const ogrn = String(before.ogrn || '1027700132195')
  try {
    await page.goto('/admin/seller')
    await expect(page.getByRole('heading', { level: 1, name: 'Реквизиты и чеки' })).toBeVisible()
    const form = page.getByRole('form', { name: 'Реквизиты и чеки' })
    // a wrong ИНН is refused by its field, in Russian, and nothing is saved
    await form.getByLabel('ИНН', { exact: true }).fill('1234567890')
    await form.getByRole('button', { name: 'Сохранить' }).click()
    await expect(form.locator('.field__error', { hasText: 'ИНН с ошибкой' })).toBeVisible()
    await form.getByLabel('ИНН', { exact: true }).fill(inn)
    await form.getByLabel('ОГРН или ОГРНИП', { exact: true }).fill(ogrn)
    await form.getByLabel('Название', { exact: true }).fill(name)
    await form.getByRole('button', { name: 'Сохранить' }).click()
    await expect(page.getByText('Реквизиты и настройки чеков сохранены')).toBeVisible()
    // nothing scrolls sideways at 360 px
    const wide = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(wide).toBeLessThanOrEqual(360)

    await page.goto('/info/contacts')
    await expect(page.getByRole('contentinfo')).toContainText(name)
    await expect(page.getByRole('contentinfo')).toContainText(`ИНН ${inn}`)
    await expect(page.getByRole('main')).toContainText(name)
  } finally {
    // other specs read the demo's requisites: put them back
    const res = await request.put('/api/admin/seller/', { headers: auth, data: before })
    expect(res.status(), await res.text()).toBe(200)
  }
}

/**
 * With requisites and receipts on (the sandbox cash register), a guest pays in the sandbox: the
 * order page shows «Чек отправлен на …» with its fiscal attributes, and the done mail carries the
 * receipt and the seller's name and ИНН.
 */
export const paidOrderShowsReceiptAndSeller = (
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
) => withSellerLock(() => receiptAndSeller(page, context, request))

async function receiptAndSeller(page: Page, context: BrowserContext, request: APIRequestContext) {
  await page.setViewportSize({ width: 360, height: 780 })
  const token = await signInAs(context, request, OWNER)
  await context.clearCookies()
  const auth = { Authorization: `Bearer ${token}` }
  const before = (await (await request.get('/api/admin/seller/', { headers: auth })).json()) as Seller
  const name = `Чеки ${Date.now()}`
  const put = await request.put('/api/admin/seller/', {
    headers: auth,
    data: {
      ...before,
      legal_form: 'ООО',
      company_name: name,
      inn: '7707083893',
      ogrn: '1027700132195',
      address: before.address || 'Москва, ул. Тестовая, 1',
      email: before.email || 'shop@example.com',
      receipts_enabled: true,
      receipt_transport: 'sandbox',
    },
  })
  expect(put.status(), await put.text()).toBe(200)
  try {
    const email = guestEmail('receipt')
    await openGameFromHome(page, /^PUBG Mobile/, 'PUBG Mobile')
    await quantity(page, '60 UC').fill('1')
    await page.getByLabel('Электронная почта').fill(email)
    await page.getByLabel(CONSENT).check()
    await submitOrder(page)
    await expect(page).toHaveURL(PAY_URL)
    const orderId = /\/orders\/([0-9a-f-]{36})\/pay/.exec(page.url())![1]!
    await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
    await confirmInSandbox(page)
    await expect(page).toHaveURL(payPath(orderId))
    await expect(page.getByTestId('order-status')).toHaveText('Выполнен', { timeout: 15_000 })
    // the sandbox cash register registers at once; the page shows it once the job ran
    await expect
      .poll(
        async () => {
          await page.reload()
          return page.getByTestId('order-receipts').textContent()
        },
        { timeout: 20_000 },
      )
      .toMatch(/ФН 9999999999999999, ФД \d+, ФП \d+/)
    const receipts = page.getByTestId('order-receipts')
    await expect(receipts).toContainText(
      `Чек отправлен на ${email} (полный расчёт) — зарегистрирован в кассе`,
    )

    const mail = await waitForMail(email, /выполнен$/)
    expect(mail.text).toContain(`Продавец: ООО ${name}, ИНН 7707083893`)
    expect(mail.text).toContain(`Чек отправлен на ${email}`)
  } finally {
    const res = await request.put('/api/admin/seller/', { headers: auth, data: before })
    expect(res.status(), await res.text()).toBe(200)
  }
}
