// axe (WCAG 2.0 A/AA and 2.1 AA) finds no violation on any screen of the shop, both as the
// browser renders it with JavaScript and as the server sends it: for the latter the app's client
// bundles are blocked (axe itself needs JavaScript, so javaScriptEnabled:false cannot be used).
import AxeBuilder from '@axe-core/playwright'
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test'
import { baseURL } from '../playwright.config'
import { createPubgOrder } from './payment-steps'

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa']

type Games = { results: Array<{ id: number; resourcetype: string; title: string }> }

async function gameId(request: APIRequestContext, kind: string): Promise<number> {
  const games = (await (await request.get('/api/games/?limit=100')).json()) as Games
  const game = games.results.find((g) => g.resourcetype === kind)
  expect(game, `a ${kind} in the demo catalogue`).toBeTruthy()
  return game!.id
}

async function giftId(request: APIRequestContext): Promise<number> {
  const gifts = (await (await request.get('/api/gifts/?limit=1')).json()) as {
    results: Array<{ id: number }>
  }
  return gifts.results[0]!.id
}

/** Signs a new account in for this browser context (the HttpOnly cookie the shop itself sets). */
async function signIn(context: BrowserContext, request: APIRequestContext) {
  const email = `a11y-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const res = await request.post('/api/auth/jwt/create/', { data: { email, password: 'a11y-password' } })
  const { access, refresh } = (await res.json()) as { access: string; refresh: string }
  await context.addCookies([
    { name: 'access', value: access, url: baseURL, httpOnly: true, sameSite: 'Lax' },
    { name: 'refresh', value: refresh, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
}

/** The highest page number the pager of `path` links to. */
async function lastPage(page: Page, path: string, prefix: string): Promise<string> {
  await page.goto(path)
  const hrefs = await page.locator('a[href]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))
  const re = new RegExp(`^${prefix}(\\d+)/?(\\?.*)?$`)
  const pages = hrefs.map((h) => Number(re.exec(h)?.[1] ?? 0)).filter((n) => n > 1)
  expect(pages.length, `${path} links to a page 2 or later`).toBeGreaterThan(0)
  return `${prefix}${Math.max(...pages)}`
}

interface Screen {
  name: string
  path: (ctx: { request: APIRequestContext; page: Page; context: BrowserContext }) => Promise<string>
  status?: number
  /** Brings the screen into the state to audit (e.g. a form showing its errors). */
  act?: (page: Page) => Promise<void>
}

const SCREENS: Screen[] = [
  { name: 'home', path: async () => '/' },
  { name: 'home, last page', path: async ({ page }) => lastPage(page, '/', '/') },
  { name: 'PUBG game page', path: async ({ request }) => `/products/${await gameId(request, 'PUBGGame')}` },
  {
    name: 'Standoff game page',
    path: async ({ request }) => `/products/${await gameId(request, 'StandoffGame')}`,
  },
  { name: 'Steam game page', path: async ({ request }) => `/products/${await gameId(request, 'Steam')}` },
  {
    name: 'supply game page',
    path: async ({ request }) => `/products/${await gameId(request, 'SupplyGame')}`,
  },
  { name: 'gifts', path: async () => '/gifts' },
  { name: 'gifts, last page', path: async ({ page }) => lastPage(page, '/gifts', '/gifts/') },
  { name: 'gift details', path: async ({ request }) => `/gifts/detalis/${await giftId(request)}` },
  { name: 'info', path: async () => '/info' },
  { name: 'contacts', path: async () => '/info/contacts' },
  { name: 'privacy policy', path: async () => '/info/privacy-policy' },
  { name: 'text block', path: async () => '/info/TextBlock' },
  { name: 'user agreement', path: async () => '/info/user-agreement' },
  { name: 'payment page', path: async ({ request }) => `/orders/${await createPubgOrder(request)}/pay` },
  { name: 'auth popup', path: async () => '/?auth=1' },
  { name: 'sign-in page', path: async () => '/auth' },
  {
    name: 'profile (signed in)',
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
    name: 'last orders popup (signed in)',
    path: async ({ context, request }) => {
      await signIn(context, request)
      return '/profile?last-orders=1'
    },
  },
  { name: '404 screen', path: async () => '/no/such/page', status: 404 },
  {
    name: 'order form showing its errors',
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
      await page.getByRole('button', { name: /^Войти/ }).click()
      await expect(page.getByText(/почт/i).first()).toBeVisible()
    },
  },
]

function report(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']) {
  return violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes
      .slice(0, 5)
      .map((n) => `${n.target.join(' ')} :: ${n.failureSummary?.split('\n')[1] ?? ''}`),
  }))
}

for (const mode of ['with JavaScript', 'server-rendered (bundles blocked)'] as const) {
  test.describe(mode, () => {
    for (const screen of SCREENS) {
      test(`${screen.name}: no axe violations`, async ({ page, context, request }) => {
        const path = await screen.path({ page, context, request })
        if (mode !== 'with JavaScript') {
          // the app's client code: entry module, route chunks and their imports
          await page.route('**/assets/**/*.js', (r) => r.abort())
          await page.route('**/*.{js,mjs}', (r) =>
            new URL(r.request().url()).origin === baseURL ? r.abort() : r.continue(),
          )
        }
        const res = await page.goto(path)
        expect(res?.status()).toBe(screen.status ?? 200)
        await expect(page.locator('h1').first()).toBeVisible()
        if (mode === 'with JavaScript') await page.waitForLoadState('networkidle')
        await screen.act?.(page)
        const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze()
        expect(report(violations), `${path} (${mode})`).toEqual([])
      })
    }
  })
}
