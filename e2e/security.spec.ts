// Cross-site form posts are refused by the running shop (server/csrf.ts), same-origin ones work,
// and the session cookies the browser gets carry HttpOnly, SameSite=Lax and (off localhost) Secure.
import { type APIRequestContext, type Browser, expect, test } from '@playwright/test'
import { baseURL } from '../playwright.config'
import { gameId } from './demo-catalogue'

const EVIL = 'http://evil.example'
const password = 'csrf-test-password'

async function signUp(request: APIRequestContext, tag: string) {
  const email = `csrf-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const res = await request.post('/api/auth/jwt/create/', { data: { email, password } })
  expect(res.status()).toBe(200)
  const { access } = (await res.json()) as { access: string }
  return { email, access }
}

async function orderCount(request: APIRequestContext, access: string): Promise<number> {
  const res = await request.get('/api/orders/?page=1&page_size=50', {
    headers: { authorization: `Bearer ${access}` },
  })
  expect(res.status()).toBe(200)
  return ((await res.json()) as { count: number }).count
}

/** The PUBG game page's order form as the browser would post it (JavaScript off: the plain form). */
async function pubgOrderForm(browser: Browser, request: APIRequestContext, email: string) {
  const game = { id: await gameId(request, 'PUBGGame') }
  const context = await browser.newContext({ javaScriptEnabled: false })
  try {
    const page = await context.newPage()
    await page.goto(`${baseURL}/products/${game!.id}`)
    const form = page.getByRole('form', { name: 'Оформление заказа' })
    await form.getByRole('spinbutton').first().fill('1')
    await form.getByLabel('Электронная почта').fill(email)
    await form.getByLabel('Я даю согласие на обработку персональных данных').check()
    return await form.evaluate((f: HTMLFormElement) => ({
      action: f.action,
      fields: [...new FormData(f).entries()].filter(([, v]) => typeof v === 'string') as Array<
        [string, string]
      >,
    }))
  } finally {
    await context.close()
  }
}

test('a cross-site post of the order form is refused (403, no order); the shop’s own post makes the order', async ({
  browser,
  request,
}) => {
  const user = await signUp(request, 'order')
  const { action, fields } = await pubgOrderForm(browser, request, user.email)
  const form = Object.fromEntries(fields)
  const cookie = `access=${user.access}`

  const forged = await request.post(action, { form, headers: { origin: EVIL, cookie }, maxRedirects: 0 })
  expect(forged.status()).toBe(403)
  expect(await forged.text()).toContain('другого сайта')
  expect(await orderCount(request, user.access)).toBe(0)

  // no Origin at all but the browser's own word that the post is cross-site
  const marked = await request.post(action, {
    form,
    headers: { 'sec-fetch-site': 'cross-site', cookie },
    maxRedirects: 0,
  })
  expect(marked.status()).toBe(403)
  expect(await orderCount(request, user.access)).toBe(0)

  const own = await request.post(action, { form, headers: { origin: baseURL, cookie }, maxRedirects: 0 })
  expect(own.status(), await own.text()).toBeGreaterThanOrEqual(300)
  expect(own.status()).toBeLessThan(400)
  expect(own.headers().location).toMatch(/\/orders\/[0-9a-f-]{36}\/pay$/)
  expect(await orderCount(request, user.access)).toBe(1)
})

test('a cross-site sign-in post is refused and sets no cookie; the same post from the shop signs in', async ({
  request,
}) => {
  const { email } = await signUp(request, 'signin')
  const form = { email, password, returnTo: '/' }
  const forged = await request.post('/auth', { form, headers: { origin: EVIL }, maxRedirects: 0 })
  expect(forged.status()).toBe(403)
  expect(forged.headers()['set-cookie']).toBeUndefined()

  const own = await request.post('/auth', { form, headers: { origin: baseURL }, maxRedirects: 0 })
  expect(own.status()).toBeGreaterThanOrEqual(300)
  expect(own.status()).toBeLessThan(400)
  const set = own.headersArray().filter((h) => h.name.toLowerCase() === 'set-cookie')
  const access = set.find((h) => h.value.startsWith('access='))?.value ?? ''
  const refresh = set.find((h) => h.value.startsWith('refresh='))?.value ?? ''
  for (const c of [access, refresh]) {
    expect(c).toMatch(/; HttpOnly/i)
    expect(c).toMatch(/; SameSite=Lax/i)
    expect(c).not.toMatch(/; Secure/i) // plain http on localhost: browsers would drop a Secure cookie
  }
})

test('off localhost the session cookies are Secure too', async ({ request }) => {
  const { email } = await signUp(request, 'secure')
  const host = 'shop.example'
  const res = await request.post('/auth', {
    form: { email, password, returnTo: '/' },
    headers: { host, origin: `https://${host}` },
    maxRedirects: 0,
  })
  expect(res.status()).toBeLessThan(400)
  const set = res
    .headersArray()
    .filter((h) => h.name.toLowerCase() === 'set-cookie' && /^(access|refresh)=/.test(h.value))
  expect(set).toHaveLength(2)
  for (const h of set) expect(h.value).toMatch(/; Secure/i)
})

test('signing in through the page leaves HttpOnly, SameSite=Lax token cookies the page cannot read', async ({
  page,
  context,
  request,
}) => {
  const { email } = await signUp(request, 'browser')
  await page.goto('/auth')
  await page.getByLabel('Электронная почта').fill(email)
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await page.getByLabel('Пароль').fill(password)
  await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect
    .poll(
      async () => (await context.cookies()).filter((c) => c.name === 'access' || c.name === 'refresh').length,
    )
    .toBe(2)
  for (const c of (await context.cookies()).filter((c) => c.name === 'access' || c.name === 'refresh')) {
    expect(c).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' })
  }
  // the sign-in redirects away from /auth: read the cookies in the page it lands on, not mid-navigation
  await page.waitForURL((url) => !url.pathname.startsWith('/auth'))
  await page.waitForLoadState('load')
  expect(await page.evaluate(() => document.cookie)).not.toMatch(/(^|; )(access|refresh)=/)
})

test('guessing a password through the sign-in form ends in 429, also for the right one', async ({
  request,
}) => {
  const { email } = await signUp(request, 'brute')
  const statuses: number[] = []
  for (let i = 0; i < 12; i++) {
    const r = await request.post('/auth', {
      form: { email, password: `wrong-guess-${i}`, returnTo: '/' },
      headers: { origin: baseURL },
      maxRedirects: 0,
    })
    statuses.push(r.status())
    if (r.status() === 429) {
      expect(Number(r.headers()['retry-after'])).toBeGreaterThan(0)
      break
    }
  }
  expect(statuses[0]).toBe(400) // the form shown again with «wrong password»
  expect(statuses.at(-1)).toBe(429)
  // once limited, not even the right password gets in (no cookie)
  const right = await request.post('/auth', {
    form: { email, password, returnTo: '/' },
    headers: { origin: baseURL },
    maxRedirects: 0,
  })
  expect(right.status()).toBe(429)
  expect(
    right.headersArray().some((h) => h.name.toLowerCase() === 'set-cookie' && h.value.startsWith('access=')),
  ).toBe(false)
})
