// The balance after a gift purchase (issue 12), shared by the JavaScript-on and -off specs: a
// signed-in shopper buys a gift with cashback, pays in the sandbox, and the profile shows the
// credited balance and its «Кешбэк» entry in «История баланса».
import { type BrowserContext, expect, type Page } from '@playwright/test'
import { formatMoney } from '../app/lib/money'
import { type ApiGift, apiGifts } from './gifts-shared'

/** Signs up through the API (an unknown email creates the account); the shop keeps the token in a cookie. */
async function signIn(page: Page, context: BrowserContext, baseURL: string) {
  const email = `cashback-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`
  const res = await page.request.post('/api/auth/jwt/create/', {
    data: { email, password: 'Very-secret-pass-2026' },
  })
  expect(res.ok()).toBe(true)
  const { access } = (await res.json()) as { access: string }
  await context.addCookies([{ name: 'access', value: access, url: baseURL, httpOnly: true, sameSite: 'Lax' }])
  return access
}

/** `pick` chooses among the gifts in stock that pay cashback (each spec its own, so they never race). */
export async function buyGiftAndSeeCashback(
  page: Page,
  context: BrowserContext,
  baseURL: string,
  pick: (gifts: Array<ApiGift & { cashback: number }>) => ApiGift & { cashback: number },
) {
  const token = await signIn(page, context, baseURL)
  const candidates = ((await apiGifts(page.request, '')) as Array<ApiGift & { cashback: number }>).filter(
    (g) => g.in_stock && g.cashback > 0,
  )
  expect(candidates.length).toBeGreaterThan(1)
  const gift = pick(candidates)

  await page.goto('/profile')
  await expect(page.getByTestId('profile-balance')).toHaveText(formatMoney(0))

  await page.goto(`/gifts/detalis/${gift.id}`)
  await page.getByRole('button', { name: /^Купить за/ }).click()
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}\/pay$/)
  const orderId = new URL(page.url()).pathname.split('/')[2]!
  // the card method (a redirect scenario) leads to the sandbox checkout and back
  await page.getByRole('radio', { name: /^Банковская карта(?! \(ЮKassa\))/ }).check()
  await page.getByRole('button', { name: 'Перейти к оплате' }).click()
  await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout\//)
  await page.getByRole('button', { name: 'Оплатить' }).click()
  await expect(page).toHaveURL(`/orders/${orderId}/pay`)
  await expect(page.getByRole('heading', { name: 'Код подарка' })).toBeVisible()

  const order = (await (
    await page.request.get(`/api/orders/${orderId}/`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { status: string; total_to_pay: string; number: number }
  expect(order.status).toBe('done')
  const [rub = '0', kop = '0'] = order.total_to_pay.split('.')
  const paid = Number(rub) * 100 + Number(kop)
  const cashback = Math.floor((paid * gift.cashback) / 100)
  expect(cashback).toBeGreaterThan(0)

  await page.goto('/profile')
  await expect(page.getByTestId('profile-balance')).toHaveText(formatMoney(cashback))
  await page.getByRole('link', { name: 'История баланса' }).click()
  await expect(page).toHaveURL('/profile/balance')
  await expect(page.getByRole('heading', { level: 2, name: 'История баланса' })).toBeVisible()
  const entry = page.getByRole('listitem').filter({ hasText: 'Кешбэк' })
  await expect(entry).toHaveCount(1)
  await expect(entry).toContainText(`+${formatMoney(cashback)}`)
  // the order's short number people read (decision 135), linking to the UUID's page
  await expect(entry.getByRole('link', { name: `Заказ № ${order.number}` })).toHaveAttribute(
    'href',
    `/orders/${orderId}/pay`,
  )
}
