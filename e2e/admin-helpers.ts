// Helpers of the back-office e2e specs: signing in as the demo's owner or support member (the
// HttpOnly cookies the shop itself sets on sign-in), and the screens to walk through.
import type { APIRequestContext, BrowserContext } from '@playwright/test'
import { expect } from '@playwright/test'
import { baseURL } from '../playwright.config'

export const OWNER = { email: 'owner@igromarket.demo', password: 'demo-owner-2026' }
export const SUPPORT = { email: 'support@igromarket.demo', password: 'demo-support-2026' }

export async function signInAs(
  context: BrowserContext,
  request: APIRequestContext,
  who: { email: string; password: string },
) {
  const res = await request.post('/api/auth/jwt/create/', { data: who })
  expect(res.status(), await res.text()).toBe(200)
  const { access, refresh } = (await res.json()) as { access: string; refresh: string }
  await context.addCookies([
    { name: 'access', value: access, url: baseURL, httpOnly: true, sameSite: 'Lax' },
    { name: 'refresh', value: refresh, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
  return access
}

/** A new shopper account, signed in. */
export async function signInShopper(context: BrowserContext, request: APIRequestContext) {
  const email = `shopper-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  return signInAs(context, request, { email, password: 'shopper-password' })
}

/** The owner's screens (each with its h1), for the role, 404 and axe checks. */
export const OWNER_SCREENS: Array<{ path: string; heading: string }> = [
  { path: '/admin', heading: 'Обзор' },
  { path: '/admin/orders', heading: 'Заказы' },
  { path: '/admin/games', heading: 'Игры' },
  { path: '/admin/gifts', heading: 'Подарки' },
  { path: '/admin/articles', heading: 'Статьи' },
  { path: '/admin/stock', heading: 'Коды' },
  { path: '/admin/promo', heading: 'Промокоды' },
  { path: '/admin/payments', heading: 'Оплата' },
  { path: '/admin/seller', heading: 'Реквизиты и чеки' },
  { path: '/admin/receipts', heading: 'Кассовые чеки' },
  { path: '/admin/audit', heading: 'Журнал изменений' },
  { path: '/admin/kinds', heading: 'Настройки видов' },
  { path: '/admin/antifraud', heading: 'Антифрод' },
  { path: '/admin/blocks', heading: 'Блокировки' },
  { path: '/admin/reconciliation', heading: 'Сверка' },
]

/** Screens of support and the owner alike (each with its h1), for the phone and axe checks. */
export const STAFF_SCREENS: Array<{ path: string; heading: string }> = [
  { path: '/admin/delivery', heading: 'Выдача заказов' },
  { path: '/admin/delivery/review', heading: 'Проверка' },
  { path: '/admin/data-requests', heading: 'Запросы о персональных данных' },
  { path: '/admin/telegram', heading: 'Telegram' },
]

/** A guest order's short number (decision 135), as its answers give it next to the UUID. */
export async function orderNumberOf(request: APIRequestContext, orderId: string): Promise<number> {
  const res = await request.get(`/api/orders/${orderId}/`)
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { number: number }).number
}
