// Every screen of the shop, as the e2e suite visits it (axe, phone layout, screenshots): how to
// reach it (signing in or creating an order on the way) and how to bring it to the state to check.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { baseURL } from '../playwright.config'
import { demoGift, gameId } from './demo-catalogue'
import { lookupLink } from './mail-steps'
import { createPubgOrder } from './payment-steps'

export { gameId }

async function giftId(request: APIRequestContext): Promise<number> {
  return (await demoGift(request)).id
}

/** Signs a new account in for this browser context (the HttpOnly cookie the shop itself sets). */
export async function signIn(context: BrowserContext, request: APIRequestContext) {
  const email = `a11y-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const res = await request.post('/api/auth/jwt/create/', { data: { email, password: 'a11y-password' } })
  const { access, refresh } = (await res.json()) as { access: string; refresh: string }
  await context.addCookies([
    { name: 'access', value: access, url: baseURL, httpOnly: true, sameSite: 'Lax' },
    { name: 'refresh', value: refresh, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
}

/** The highest page number the pager of `path` links to. */
/**
 * The last page `path` links to, read from the server's HTML through the API client: a live page
 * left on `path` would keep running the app (its lazy chunks, a reload when one fails) and race
 * the navigation the test makes next.
 */
async function lastPage(request: APIRequestContext, path: string, prefix: string): Promise<string> {
  const res = await request.get(path)
  expect(res.status(), `${path} answers`).toBe(200)
  const hrefs = [...(await res.text()).matchAll(/href="([^"]*)"/g)].map((m) =>
    (m[1] ?? '').replaceAll('&amp;', '&'),
  )
  const re = new RegExp(`^${prefix}(\\d+)/?(\\?.*)?$`)
  const pages = hrefs.map((h) => Number(re.exec(h)?.[1] ?? 0)).filter((n) => n > 1)
  expect(pages.length, `${path} links to a page 2 or later`).toBeGreaterThan(0)
  return `${prefix}${Math.max(...pages)}`
}

export interface Screen {
  name: string
  path: (ctx: { request: APIRequestContext; page: Page; context: BrowserContext }) => Promise<string>
  status?: number
  /** Brings the screen into the state to audit (e.g. a form showing its errors). */
  act?: (page: Page) => Promise<void>
  /** One of the main screens: `npm run screens` photographs it into docs/screens/. */
  main?: true
}

export const SCREENS: Screen[] = [
  { name: 'home', path: async () => '/', main: true },
  { name: 'home, last page', path: async ({ request }) => lastPage(request, '/', '/') },
  {
    name: 'PUBG game page',
    path: async ({ request }) => `/products/${await gameId(request, 'PUBGGame')}`,
    main: true,
  },
  {
    name: 'Standoff game page',
    main: true,
    path: async ({ request }) => `/products/${await gameId(request, 'StandoffGame')}`,
  },
  {
    name: 'Steam game page',
    path: async ({ request }) => `/products/${await gameId(request, 'Steam')}`,
    main: true,
  },
  {
    name: 'supply game page',
    main: true,
    path: async ({ request }) => `/products/${await gameId(request, 'SupplyGame')}`,
  },
  { name: 'gifts', path: async () => '/gifts', main: true },
  { name: 'gifts, last page', path: async ({ request }) => lastPage(request, '/gifts', '/gifts/') },
  {
    name: 'gift details',
    path: async ({ request }) => `/gifts/detalis/${await giftId(request)}`,
    main: true,
  },
  { name: 'info', path: async () => '/info' },
  { name: 'contacts', path: async () => '/info/contacts' },
  { name: 'privacy policy', path: async () => '/info/privacy-policy' },
  { name: 'text block', path: async () => '/info/TextBlock' },
  { name: 'user agreement', path: async () => '/info/user-agreement' },
  // the footer's «Данные на этом устройстве» (issue 50)
  { name: 'data on this device', path: async () => '/buyer/forget' },
  {
    name: 'payment page',
    path: async ({ request }) => `/orders/${await createPubgOrder(request)}/pay`,
    main: true,
  },
  {
    name: 'payment page, editing the order',
    path: async ({ request }) => `/orders/${await createPubgOrder(request)}/pay`,
    act: async (page) => {
      await page.getByText('Изменить заказ', { exact: true }).click()
      await expect(page.getByRole('button', { name: 'Сохранить товары' })).toBeVisible()
    },
    main: true,
  },
  { name: 'auth popup', path: async () => '/?auth=1', main: true },
  { name: 'sign-in page', path: async () => '/auth' },
  {
    name: 'profile (signed in)',
    main: true,
    path: async ({ context, request }) => {
      await signIn(context, request)
      return '/profile'
    },
  },
  {
    name: 'profile settings (signed in)',
    path: async ({ context, request }) => {
      await signIn(context, request)
      return '/profile/settings'
    },
  },
  {
    name: 'balance history (signed in)',
    path: async ({ context, request }) => {
      await signIn(context, request)
      return '/profile/balance'
    },
  },
  {
    name: 'account security (signed in)',
    path: async ({ context, request }) => {
      await signIn(context, request)
      return '/profile/security'
    },
  },
  { name: 'forgotten password', path: async () => '/auth/forgot' },
  { name: 'new password, link without a token', path: async () => '/auth/reset' },
  { name: 'email confirmation', path: async () => `/auth/confirm?token=${'x'.repeat(40)}` },
  {
    name: 'last orders popup (signed in)',
    path: async ({ context, request }) => {
      await signIn(context, request)
      return '/profile?last-orders=1'
    },
  },
  { name: '404 screen', path: async () => '/no/such/page', status: 404, main: true },
  { name: 'find order', path: async () => '/orders/find', main: true },
  {
    name: 'find order, mail sent',
    path: async () => '/orders/find',
    act: async (page) => {
      await page.getByLabel('Электронная почта').fill(`a11y-${Date.now()}@example.com`)
      await page.getByRole('button', { name: 'Прислать ссылку' }).click()
      await expect(page.getByRole('status').filter({ hasText: 'Проверьте почту' })).toBeVisible()
    },
  },
  { name: 'order look-up list', path: async ({ request }) => lookupLink(request) },
  { name: 'order look-up, dead link', path: async () => `/orders/lookup/${'x'.repeat(40)}`, status: 400 },
  {
    name: 'order form showing its errors',
    main: true,
    path: async ({ request }) => `/products/${await gameId(request, 'StandoffGame')}`,
    act: async (page) => {
      await page.getByRole('button', { name: 'Перейти к оплате' }).click()
      await expect(
        page.getByRole('form', { name: 'Оформление заказа' }).getByRole('alert').first(),
      ).toBeVisible()
    },
  },
  {
    name: 'sign-in form showing its errors',
    path: async () => '/auth',
    act: async (page) => {
      await page.getByLabel('Электронная почта').fill('not-an-email')
      await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
      await expect(page.getByText(/почт/i).first()).toBeVisible()
    },
  },
]
