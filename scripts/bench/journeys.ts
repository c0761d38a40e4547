// npm run bench:journeys — the buyer's journeys of issue 50 as a phone sees them: taps, waiting and
// screens scrolled per journey, in Chromium at 360×740 with the CPU slowed 4× (and slow 4G unless
// JOURNEY_NETWORK=fast), JavaScript on and off. Against a running demo shop (`npm start`; sandbox
// payments): JOURNEY_URL=http://127.0.0.1:3000 (default). Prints a table; asserts nothing.
//
// How it counts: every click, tick or field typed into is one tap. A page's scrolling is how far
// below the first screen the lowest thing the buyer had to reach (tap or read) was, in screens;
// the journey's figure is the sum over its pages. Waiting is the wall time from the first page's
// request to the result on screen, the buyer's own typing included as instant.
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright'

const BASE = process.env.JOURNEY_URL ?? 'http://127.0.0.1:3000'
const VIEW = { width: 360, height: 740 }
const SLOW_4G = { offline: false, latency: 150, downloadThroughput: 200_000, uploadThroughput: 94_000 }

interface Figures {
  journey: string
  js: boolean
  taps: number
  seconds: number
  screens: number
  note: string
}

class Journey {
  taps = 0
  /** The lowest point reached on each page (by its path), in CSS pixels from the page's top. */
  private reach = new Map<string, number>()
  private start = Date.now()
  constructor(readonly page: Page) {}

  async reached(target: Locator) {
    await target.waitFor({ state: 'visible', timeout: 60_000 })
    const bottom = await target.evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY)
    const key = new URL(this.page.url()).pathname
    this.reach.set(key, Math.max(this.reach.get(key) ?? VIEW.height, bottom))
  }
  async tap(target: Locator) {
    await this.reached(target)
    this.taps++
    await target.click()
  }
  async tick(target: Locator) {
    await this.reached(target)
    this.taps++
    await target.check()
  }
  async type(target: Locator, text: string) {
    await this.reached(target)
    this.taps++
    await target.fill(text)
  }
  /** The buyer reads `target`: it counts for scrolling, not as a tap. */
  async read(target: Locator) {
    await this.reached(target)
  }
  figures(journey: string, js: boolean, note = ''): Figures {
    let screens = 0
    for (const bottom of this.reach.values()) screens += Math.max(0, bottom - VIEW.height) / VIEW.height
    return { journey, js, taps: this.taps, seconds: (Date.now() - this.start) / 1000, screens, note }
  }
}

async function phone(browser: Browser, js: boolean): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: VIEW,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    javaScriptEnabled: js,
    locale: 'ru-RU',
  })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
  if (process.env.JOURNEY_NETWORK !== 'fast') await cdp.send('Network.emulateNetworkConditions', SLOW_4G)
  return { context, page }
}

const email = (tag: string) => `journey-${tag}-${Date.now()}@example.com`
const CONSENT = 'Я даю согласие на обработку персональных данных'

async function openGame(j: Journey, title: RegExp) {
  await j.page.goto(`${BASE}/`)
  await j.tap(j.page.getByRole('link', { name: title }).first())
  await j.page.getByRole('heading', { level: 1 }).waitFor()
}

const SANDBOX_CHECKOUT = /\/api\/payments\/sandbox\/checkout\//

/**
 * On the pay page: the method the page checked for the buyer (the cheapest), pay, confirm in the
 * sandbox. A redirect method lands on the sandbox's checkout; an SBP QR stays on the page, and the
 * buyer on this phone opens the bank app (a tap; here: the QR's address) and confirms there.
 */
async function payInSandbox(j: Journey) {
  const { page } = j
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}\/pay$/, { timeout: 60_000 })
  const payUrl = page.url()
  await j.tap(page.getByRole('button', { name: /Перейти к оплате|Оплатить/ }).first())
  // a redirect method leaves for the sandbox's checkout; a QR method shows its QR on the pay page
  await Promise.race([
    page.waitForURL(SANDBOX_CHECKOUT, { timeout: 60_000 }),
    page.getByRole('img', { name: /QR/ }).first().waitFor({ state: 'visible', timeout: 60_000 }),
  ])
  if (!SANDBOX_CHECKOUT.test(page.url())) {
    const orderId = new URL(payUrl).pathname.split('/')[2]
    const data = (await (await page.request.get(`${BASE}/api/orders/payment_data/${orderId}/`)).json()) as {
      url?: string
    }
    if (!data.url) throw new Error('the payment under way has no address to confirm it at')
    j.taps++
    await page.goto(data.url)
  }
  await j.tap(page.getByRole('button', { name: 'Оплатить' }))
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}\/pay$/, { timeout: 60_000 })
}

/** Guest buys 325 UC and sees the code. */
async function pubg325(browser: Browser, js: boolean): Promise<Figures> {
  const { context, page } = await phone(browser, js)
  const j = new Journey(page)
  await openGame(j, /^PUBG Mobile/)
  await j.type(page.getByRole('spinbutton', { name: 'Количество: 325 UC', exact: true }), '1')
  await j.type(page.getByLabel('Электронная почта'), email('pubg'))
  await j.tick(page.getByLabel(CONSENT))
  await j.tap(page.getByRole('button', { name: 'Перейти к оплате' }))
  await payInSandbox(j)
  // the code: reloaded until the delivery shows it (the sandbox pays at once; delivery is a job)
  const code = page.getByTestId('done-card').locator('.pay-codes__list li').first()
  for (let i = 0; i < 30 && !(await code.isVisible()); i++) {
    await page.waitForTimeout(1000)
    await page.reload()
  }
  await j.read(code)
  const f = j.figures('guest buys 325 UC to the code', js)
  await context.close()
  return f
}

/** Guest tops up Steam with 500 ₽: the price on the game page against the amount charged. */
async function steam500(browser: Browser, js: boolean): Promise<Figures> {
  const { context, page } = await phone(browser, js)
  const j = new Journey(page)
  await openGame(j, /^Steam \(Россия\)/)
  await j.type(page.getByLabel('Логин Steam'), 'gaben_fan')
  await j.type(page.getByLabel('Сумма пополнения, ₽'), '500')
  const shown = (
    (await page
      .locator('.totals')
      .textContent()
      .catch(() => '')) ?? ''
  ).replace(/\s+/g, ' ')
  await j.type(page.getByLabel('Электронная почта'), email('steam'))
  await j.tick(page.getByLabel(CONSENT))
  await j.tap(page.getByRole('button', { name: 'Перейти к оплате' }))
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}\/pay$/, { timeout: 60_000 })
  // the page checked the cheapest method; its button names the total once the script runs
  const charged = (
    (await page
      .getByRole('button', { name: /Перейти к оплате|Оплатить/ })
      .first()
      .textContent()) ?? ''
  )
    .replace(/\s+/g, ' ')
    .trim()
  await j.read(page.getByRole('button', { name: /Перейти к оплате|Оплатить/ }).first())
  const f = j.figures(
    'guest tops up Steam 500 ₽ to the pay button',
    js,
    `game page: «${shown.slice(-40)}»; pay button: «${charged}»`,
  )
  await context.close()
  return f
}

/** A real 1×1 PNG: the Standoff order's avatar (the API recognises images by their content). */
const AVATAR_PNG = {
  name: 'avatar.png',
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
}

/**
 * Guest buys 500 gold in Standoff 2, typing a wrong account id first (the demo's player check
 * knows 100000001, not 100000000), then the right one, to the pay button. With JavaScript the
 * check answers under the field as it is typed; without, the submit is refused with the message,
 * the file is chosen again (a browser keeps no file over a page), and a confirmation step follows.
 */
async function standoff500(browser: Browser, js: boolean): Promise<Figures> {
  const { context, page } = await phone(browser, js)
  const j = new Journey(page)
  await openGame(j, /^Standoff 2/)
  const id = page.getByLabel('ID аккаунта Standoff 2')
  const avatar = page.getByLabel('Скриншот аватара в игре')
  if (js) await j.tap(page.getByRole('button', { name: 'Увеличить количество: 500 голды' }))
  else await j.type(page.getByRole('spinbutton', { name: 'Количество: 500 голды', exact: true }), '1')
  await j.type(id, '100000000')
  if (js) {
    await j.read(page.getByText('Игрок с ID 100000000 не найден').first())
    await j.type(id, '100000001')
    await j.read(page.getByText('Игрок: Тестовый игрок').first())
  }
  await j.reached(avatar)
  j.taps++
  await avatar.setInputFiles(AVATAR_PNG)
  await j.type(page.getByLabel('Электронная почта'), email('standoff'))
  await j.tick(page.getByLabel(CONSENT))
  await j.tap(page.getByRole('button', { name: 'Перейти к оплате' }))
  if (!js) {
    await j.read(page.getByText('Игрок с ID 100000000 не найден').first())
    await j.type(id, '100000001')
    await j.reached(avatar)
    j.taps++
    await avatar.setInputFiles(AVATAR_PNG)
    await j.tap(page.getByRole('button', { name: 'Перейти к оплате' }))
    await j.tap(page.getByRole('button', { name: 'Да, всё верно — к оплате' }))
  }
  await page.waitForURL(/\/orders\/[0-9a-f-]{36}\/pay$/, { timeout: 60_000 })
  await j.read(page.getByRole('button', { name: /Перейти к оплате|Оплатить/ }).first())
  const f = j.figures('guest buys Standoff 500 gold, wrong id then right, to the pay button', js)
  await context.close()
  return f
}

/** Signs up through the API (an unknown email makes the account); the access token. */
async function signUp(tag: string): Promise<string> {
  const res = await fetch(`${BASE}/api/auth/jwt/create/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: email(tag), password: 'Journey-pass-2026' }),
  })
  if (!res.ok) throw new Error(`sign-up answered ${res.status}`)
  return ((await res.json()) as { access: string }).access
}

/** Before the journey: the buyer's earlier order (1 × 325 UC), paid by bank card in the sandbox. */
async function paidEarlierOrder(token: string): Promise<string> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const games = (await (await fetch(`${BASE}/api/games/?limit=100`)).json()) as {
    results: Array<{ id: number; title: string; resourcetype: string }>
  }
  const pubg = games.results.find((g) => g.resourcetype === 'PUBGGame' && g.title === 'PUBG Mobile')
  if (!pubg) throw new Error('no PUBG Mobile in the demo catalogue')
  const game = (await (await fetch(`${BASE}/api/games/${pubg.id}/`)).json()) as {
    products: Array<{ id: number; title: string }>
  }
  const product = game.products.find((p) => p.title === '325 UC')
  if (!product) throw new Error('no 325 UC pack')
  const order = await fetch(`${BASE}/api/orders/pubg/`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ products: [{ product_id: product.id, quantity: 1 }] }),
  })
  if (order.status !== 201) throw new Error(`the earlier order answered ${order.status}`)
  const { id } = (await order.json()) as { id: string }
  const pay = await fetch(`${BASE}/api/payments/sandbox-card/`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ order_id: id, currency: 'RUB', email: null, phone: null }),
  })
  if (!pay.ok) throw new Error(`paying the earlier order answered ${pay.status}`)
  const checkout = ((await pay.json()) as { sandbox_checkout_url: string }).sandbox_checkout_url
  const html = await (await fetch(checkout)).text()
  const form = /<form method="post" action="([^"]*\/confirm\/)">(.*?)<\/form>/s.exec(html)
  if (!form) throw new Error('no confirm form on the sandbox checkout')
  const fields = new URLSearchParams()
  for (const m of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    fields.set(m[1]!, m[2]!)
  await fetch(new URL(form[1]!, checkout), { method: 'POST', body: fields, redirect: 'manual' })
  return id
}

/**
 * A signed-in buyer repeats their last order (paid by bank card, not the cheapest method) from the
 * order history: «Повторить заказ», the confirm form, the pay page, the sandbox, paid.
 */
async function repeatOrder(browser: Browser, js: boolean): Promise<Figures> {
  const token = await signUp('repeat')
  const earlier = await paidEarlierOrder(token)
  const { context, page } = await phone(browser, js)
  await context.addCookies([{ name: 'access', value: token, url: BASE, httpOnly: true, sameSite: 'Lax' }])
  const j = new Journey(page)
  await page.goto(`${BASE}/profile`)
  await j.tap(page.getByRole('link', { name: 'Повторить заказ' }).first())
  await page.getByRole('heading', { name: 'Повторить заказ' }).waitFor()
  await j.tap(page.getByRole('button', { name: 'Подтвердить и оплатить' }))
  await page.waitForURL((url) => /^\/orders\/[0-9a-f-]{36}\/pay$/.test(url.pathname), { timeout: 60_000 })
  if (page.url().includes(earlier)) throw new Error('the repeat did not make a new order')
  const checked = await page
    .locator('input[name="method"]:checked')
    .evaluate((el) => (el as HTMLInputElement).value)
    .catch(() => 'none')
  const landed = await page.evaluate(() => Math.round(window.scrollY))
  await j.tap(page.getByTestId('pay-button'))
  await page.waitForURL(SANDBOX_CHECKOUT, { timeout: 60_000 })
  await j.tap(page.getByRole('button', { name: 'Оплатить' }))
  await page.waitForURL((url) => /^\/orders\/[0-9a-f-]{36}\/pay$/.test(url.pathname), { timeout: 60_000 })
  const f = j.figures(
    'returning buyer repeats an order, paid',
    js,
    `method checked: ${checked} (last used: sandbox-card); pay page opened scrolled ${landed} px to the methods`,
  )
  await context.close()
  return f
}

async function main() {
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium' })
  const rows: Figures[] = []
  try {
    for (const js of [true, false])
      for (const run of [pubg325, steam500, standoff500, repeatOrder]) {
        try {
          rows.push(await run(browser, js))
        } catch (e) {
          rows.push({
            journey: run.name,
            js,
            taps: Number.NaN,
            seconds: Number.NaN,
            screens: Number.NaN,
            note: `failed: ${(e as Error).message.split('\n')[0]}`,
          })
        }
      }
  } finally {
    await browser.close()
  }
  console.log('| journey | JavaScript | taps | waiting, s | screens scrolled | note |')
  console.log('| --- | --- | --- | --- | --- | --- |')
  for (const r of rows)
    console.log(
      `| ${r.journey} | ${r.js ? 'on' : 'off'} | ${r.taps} | ${r.seconds.toFixed(1)} | ${r.screens.toFixed(1)} | ${r.note} |`,
    )
}

await main()
