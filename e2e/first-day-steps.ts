// An owner's first day on a PRODUCTION shop (issue 37), shared by the JS and no-JS specs and walking
// docs/operations.md «First day of a real shop» step by step. The shop is not the suite's demo
// server: each spec starts its own compiled shop (tests/helpers/shop-process.ts) on a fresh
// embedded database with no demo seed, NODE_ENV=production, PUBLIC_URL, JWT_SECRET and
// ADMIN_EMAILS — and no SMTP_URL, so mail goes to .eml files in its data folder and the overview
// says so. Once the owner has fixed everything else the shop is restarted with SMTP_URL (a local
// SMTP server, tests/helpers/smtp.ts), as docs/operations.md tells the owner to.
//
//   sign up with the ADMIN_EMAILS address → /admin says «confirm» → the mailed link → the overview
//   with every setup warning → shop name, tagline and an uploaded logo → requisites and receipts →
//   the legal documents published from their templates → a payment method → SMTP → no warning
//   left; the storefront and the next mail carry the name; a game whose HTML description is shown
//   formatted; a code line of the wrong amount refused in the import report; the first sale, found
//   by its short number when the buyer calls, refunded.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Browser, expect, type Page } from '@playwright/test'
import { type ReadMail, readMail } from '../tests/helpers/mime'
import { freePort, type ShopProcess, startShopProcess } from '../tests/helpers/shop-process'
import { startTestSmtp, type TestSmtp } from '../tests/helpers/smtp'
import { type FakeYookassa, startFakeYookassa } from '../tests/fakes/yookassa'
import { ownerAddsGameWithProduct } from './admin-catalogue-steps'
import { ownerPublishesLegalDocuments } from './legal-templates-steps'
import { ownerUploadsShopLogo } from './shop-branding-steps'

const PASSWORD = 'Quiet-Harbour-2026'
const SHOP_NAME = 'Лавка Пикселя'
/** The owner's own words under the name: this shop's Steam orders are not instant. */
const TAGLINE = 'Пополнение игр и подарочные карты, Steam — в течение часа'
const UC_MISMATCH = 'количество UC не совпадает с товаром'

interface FirstDayShop {
  shop: ShopProcess
  smtp: TestSmtp
  yookassa: FakeYookassa
  origin: string
  owner: string
  env: Record<string, string>
}

/** A production shop from nothing: no seed, no SMTP_URL, the owner's address in ADMIN_EMAILS. */
async function startProductionShop(): Promise<FirstDayShop> {
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  const owner = `owner-${Date.now()}@first-day.example`
  const yookassa = await startFakeYookassa({ port: await freePort(), shopUrl: origin })
  const env = {
    PORT: String(port),
    PUBLIC_URL: origin,
    JWT_SECRET: 'first-day-secret-first-day-secret-2026',
    ADMIN_EMAILS: owner,
    // the payment system's keys are server settings (docs/operations.md «Taking payments»); its API
    // is the local fake (tests/fakes/yookassa.ts), whose notifications come from the loopback
    YOOKASSA_SHOP_ID: '501234',
    YOOKASSA_SECRET_KEY: 'test_yk_secret_key',
    YOOKASSA_API_URL: yookassa.url,
    YOOKASSA_NOTIFY_FROM: '127.0.0.1/32, ::1',
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'first-day-'))
  const [shop, smtp] = await Promise.all([
    startShopProcess({ dataDir, env, readyTimeoutMs: 240_000 }),
    startTestSmtp(),
  ])
  return { shop, smtp, yookassa, origin, owner, env }
}

/** Mails the shop wrote to files (no SMTP_URL) to `to` whose subject matches, newest first. */
function fileMails(shop: ShopProcess, to: string, subject: RegExp): ReadMail[] {
  const dir = path.join(shop.dataDir, 'mail')
  let names: string[] = []
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.eml'))
  } catch {
    return []
  }
  return names
    .map((n) => ({ file: path.join(dir, n) }))
    .map(({ file }) => ({ ...readMail(readFileSync(file, 'utf8')), mtime: statSync(file).mtimeMs }))
    .filter((m) => m.to.toLowerCase().includes(to.toLowerCase()) && subject.test(m.subject))
    .sort((a, b) => b.mtime - a.mtime)
}

const linkIn = (mail: ReadMail, re: RegExp) => {
  const link = mail.text.match(/https?:\/\/[^\s)]+/g)?.find((u) => re.test(u))
  expect(link, `a link ${re} in the mail`).toBeTruthy()
  return new URL(link!)
}

/** The overview's setup warnings, as the owner reads them. */
function warnings(page: Page) {
  const main = page.getByRole('main')
  const box = main.getByRole('alert', { name: 'Что ещё не настроено' })
  return {
    mail: main.getByText('Почта не настроена: покупатели не получают писем'),
    // the same cause as an open staff alert (mailed once to the owners)
    mailAlert: main.getByRole('link', { name: /^Почта не настроена \(нет SMTP_URL\)/ }),
    noPayments: page.getByTestId('no-payments-warning'),
    setup: box,
    unnamed: box.getByRole('link', { name: /^Название магазина не задано/ }),
    noMethod: box.getByRole('link', { name: /^Нет ни одного включённого способа оплаты/ }),
    requisites: box.getByText(/^Не заполнены реквизиты продавца/),
    receiptsOff: box.getByText(/^Чеки выключены/),
  }
}

async function openOverview(page: Page) {
  await page.goto('/admin')
  await expect(page.getByRole('heading', { level: 1, name: 'Обзор' })).toBeVisible()
  return warnings(page)
}

/** Steps 3: sign up with the ADMIN_EMAILS address, told to confirm, confirm from the mail. */
async function ownerSignsUpAndConfirms(page: Page, day: FirstDayShop) {
  await page.goto('/auth')
  await page.getByLabel('Электронная почта').fill(day.owner)
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await page.getByLabel('Пароль', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page).toHaveURL(`${day.origin}/`)
  // the back-office explains itself instead of a 404 until the email is confirmed
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/auth\/owner-pending$/)
  await expect(
    page.getByRole('heading', { level: 1, name: 'Подтвердите почту, чтобы управлять магазином' }),
  ).toBeVisible()
  // (a new mail would replace the sign-up's link: tests/api cover the resend; here the first one)
  await expect(page.getByRole('button', { name: 'Отправить письмо ещё раз' })).toBeVisible()
  // the sign-up mailed the link; mail goes to files on this shop (no SMTP_URL yet)
  await expect
    .poll(() => fileMails(day.shop, day.owner, /Подтвердите почту/).length, { timeout: 30_000 })
    .toBeGreaterThan(0)
  const mail = fileMails(day.shop, day.owner, /Подтвердите почту/)[0]!
  const link = linkIn(mail, /\/auth\/confirm\?token=/)
  expect(link.origin).toBe(day.origin)
  await page.goto(`${link.pathname}${link.search}`)
  await page.getByRole('button', { name: 'Подтвердить почту' }).click()
  await expect(page).toHaveURL(/\/profile\/security$/)
}

/** Step 4: /admin/shop — the name and the support contacts, then the logo uploaded as a file. */
async function ownerNamesTheShop(page: Page): Promise<string> {
  await page.goto('/admin/shop')
  const form = page.getByRole('form', { name: 'Магазин: название и контакты' })
  await form.getByLabel('Название магазина').fill(SHOP_NAME)
  await form.getByLabel('Подпись под названием').fill(TAGLINE)
  await form.getByLabel('Почта поддержки').fill('help@first-day.example')
  await form.getByLabel('Телефон поддержки').fill('+7 900 123-45-67')
  await form.getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.getByText('Настройки магазина сохранены')).toBeVisible()
  // the upload asks for a saved name, so it comes second
  return ownerUploadsShopLogo(page)
}

/** The storefront carries the name: header, title, og:site_name, footer; the logo in the header. */
async function storefrontShowsTheShop(page: Page, logoSrc: string) {
  await page.goto('/')
  await expect(page).toHaveTitle(new RegExp(`\\| ${SHOP_NAME}$`))
  const logo = page.getByRole('banner').getByRole('link', { name: SHOP_NAME, exact: true })
  await expect(logo.locator('img')).toHaveAttribute('src', logoSrc)
  await expect(page.getByRole('contentinfo')).toContainText(TAGLINE)
  await expect(page.locator('meta[property="og:site_name"]')).toHaveAttribute('content', SHOP_NAME)
  await expect(page.getByRole('contentinfo')).toContainText(SHOP_NAME)
  await expect(page.getByText('ИгроМаркет')).toHaveCount(0)
  await page.goto('/info')
  await expect(page.locator('meta[property="og:site_name"]')).toHaveAttribute('content', SHOP_NAME)
  await expect(page).toHaveTitle(`Информация для покупателей — ${SHOP_NAME}`)
}

/** Step 5: /admin/seller — requisites, and receipts sent with the payment. */
async function ownerFillsRequisites(page: Page) {
  await page.goto('/admin/seller')
  const form = page.getByRole('form', { name: 'Реквизиты и чеки' })
  await form.getByLabel('Форма (ООО, ИП, АО…)').fill('ООО')
  await form.getByLabel('Название', { exact: true }).fill('Пиксель')
  await form.getByLabel('ИНН', { exact: true }).fill('7707083893')
  await form.getByLabel('ОГРН или ОГРНИП').fill('1027700132195')
  await form.getByLabel('Юридический адрес').fill('г. Москва, ул. Примерная, д. 1')
  await form.getByLabel('Почта поддержки').fill('help@first-day.example')
  await form.getByLabel('Отправлять кассовые чеки').check()
  await form.getByLabel('Как отправлять чеки').selectOption('with_payment')
  await form.getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.getByText('Реквизиты и настройки чеков сохранены')).toBeVisible()
  // the requisites on the contacts page (a 404 until they exist), under the shop's name
  await page.goto('/info/contacts')
  await expect(page.getByRole('main')).toContainText('ООО Пиксель')
  await expect(page.getByRole('contentinfo')).toContainText('ИНН 7707083893')
  await expect(page).toHaveTitle(`Контакты и реквизиты — ${SHOP_NAME}`)
  await expect(page.locator('meta[property="og:site_name"]')).toHaveAttribute('content', SHOP_NAME)
}

/**
 * Step 6: /admin/payments — with YooKassa's keys set at start the shop made its methods (Russia ›
 * «Карты и СБП»: card, SBP, SberPay, T-Pay), all off; the owner switches SBP on.
 */
async function ownerSwitchesPaymentOn(page: Page) {
  await page.goto('/admin/payments')
  const group = page.getByRole('region', { name: 'Карты и СБП' })
  for (const method of ['Банковская карта', 'СБП', 'SberPay', 'T-Pay'])
    await expect(group.getByRole('form', { name: `Включить: ${method}` })).toBeVisible()
  await group.getByRole('form', { name: 'Включить: СБП' }).getByRole('button', { name: 'Включить' }).click()
  await expect(page.getByText('Способ оплаты включён')).toBeVisible()
  await expect(
    page.getByRole('region', { name: 'Карты и СБП' }).getByRole('form', { name: 'Выключить: СБП' }),
  ).toBeVisible()
}

/**
 * Step 7: /admin/articles marks the legal documents not published yet and the buyer is told so;
 * the owner publishes each from its template, which carries the requisites just saved.
 */
async function ownerPublishesLegalPages(page: Page) {
  await page.goto('/admin/articles')
  for (const slug of ['privacy-policy', 'user-agreement'])
    await expect(page.locator(`li[data-linked="${slug}"]`)).toContainText('нет — показывается заглушка')
  await expect(page.getByRole('heading', { name: 'Страница не найдена' })).toHaveCount(0)
  await ownerPublishesLegalDocuments(page, ['ООО Пиксель', 'ИНН 7707083893', 'ОГРН 1027700132195'])
}

/** Step 8: /admin/stock — a code line of another UC amount is refused in the report, in Russian. */
async function ownerImportsCodes(page: Page) {
  await page.goto('/admin/stock')
  await page.locator('a[href^="/admin/stock/products/"]', { hasText: '325 UC' }).first().click()
  const form = page.getByRole('form', { name: 'Загрузить коды' })
  const tag = Math.random().toString(36).slice(2, 8).toUpperCase()
  await form
    .getByLabel('Коды, по одному в строке')
    .fill([`PUBG325-${tag}-OK,325`, `PUBG325-WRONGUC${tag},60`].join('\n'))
  await form.getByRole('button', { name: 'Загрузить' }).click()
  const report = page.getByRole('status').filter({ hasText: 'Отчёт о загрузке' })
  await expect(report).toContainText('Загружено кодов: 1')
  await expect(report).toContainText('Не загружено строк: 1')
  await expect(report.getByRole('row').filter({ hasText: UC_MISMATCH })).toContainText('2')
}

/**
 * The first sale and a refund (issue 32): a guest buys the owner's 325 UC code and pays by SBP (the
 * QR and the bank link at 360 px); YooKassa's payer pays and YooKassa notifies; the code is shown.
 * The owner refunds the done order with a reason: YooKassa receives the amount charged, once, and
 * the buyer's refund mail (over SMTP now) says that amount.
 */
async function firstSaleAndRefund(
  browser: Browser,
  owner: Page,
  day: FirstDayShop,
  javaScriptEnabled: boolean,
) {
  const buyerContext = await browser.newContext({
    baseURL: day.origin,
    locale: 'ru-RU',
    javaScriptEnabled,
    viewport: { width: 360, height: 780 },
  })
  try {
    const request = buyerContext.request
    const games = (await (await request.get('/api/games/?limit=50')).json()) as {
      results: Array<{ id: number; resourcetype: string }>
    }
    const game = games.results.find((g) => g.resourcetype === 'PUBGGame')
    expect(game, 'the owner’s PUBG game is on sale').toBeTruthy()
    const detail = (await (await request.get(`/api/games/${game!.id}/`)).json()) as {
      products: Array<{ id: number; title: string }>
    }
    const product = detail.products.find((p) => p.title === '325 UC')
    expect(product).toBeTruthy()
    const buyer = `buyer-${Date.now()}@first-day.example`
    const created = await request.post('/api/orders/pubg/', {
      data: {
        products: [{ product_id: product!.id, quantity: 1 }],
        email: buyer,
        personal_data_consent: true,
      },
    })
    expect(created.status(), await created.text()).toBe(201)
    const {
      id: orderId,
      total,
      number,
    } = (await created.json()) as { id: string; total: string; number: number }

    const page = await buyerContext.newPage()
    await page.goto(`/orders/${orderId}/pay`)
    // the number the buyer reads out to support
    await expect(page.getByText(`Заказ № ${number}`, { exact: true })).toBeVisible()
    await page.getByRole('radio', { name: 'СБП', exact: true }).check()
    await page.getByRole('button', { name: 'Перейти к оплате' }).click()
    await expect(page.getByRole('img', { name: /QR/ })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('link', { name: 'Открыть приложение банка' })).toBeVisible()

    const data = (await (await request.get(`/api/orders/payment_data/${orderId}/`)).json()) as {
      payment_id: string
      type: string
      amount: string
    }
    expect(data.type).toBe('invoice_qr')
    const paid = day.yookassa.paymentOf(data.payment_id)
    expect(paid, 'the shop asked YooKassa for this payment').toBeTruthy()
    expect(paid!.amount).toEqual({ value: data.amount, currency: 'RUB' })
    day.yookassa.succeed(paid!.id)
    expect(await day.yookassa.notify(day.origin, 'payment.succeeded', paid!)).toBe(200)

    await page.goto(`/orders/${orderId}/pay`)
    await expect(page.getByTestId('order-status')).toHaveText('Выполнен', { timeout: 20_000 })
    await expect(page.getByRole('main')).toContainText(/PUBG325-[A-Z0-9]+-OK/)

    // the buyer calls with the number; the owner finds the order by it and puts it right: the
    // refund returns what the buyer was charged
    await owner.goto('/admin/orders')
    const search = owner.getByRole('search', { name: 'Поиск заказов' })
    await search.getByLabel('Номер заказа или почта').fill(`№ ${number}`)
    await search.getByRole('button', { name: 'Найти' }).click()
    await expect(owner.getByRole('status').filter({ hasText: 'Найдено: 1' })).toBeVisible()
    await owner.getByRole('link', { name: `Заказ № ${number}` }).click()
    await expect(owner).toHaveURL(new RegExp(`/admin/orders/${orderId}$`))
    const form = owner.getByRole('form', { name: 'Вернуть деньги' })
    await form.getByLabel('Причина для покупателя').fill('Код не подошёл')
    await form.getByRole('button', { name: 'Вернуть деньги' }).click()
    await expect(owner.getByText('Возврат оформлен').first()).toBeVisible()
    await expect
      .poll(
        () =>
          [...day.yookassa.refunds.values()].filter((r) => r.payment_id === paid!.id).map((r) => r.amount),
        { timeout: 60_000 },
      )
      .toEqual([{ value: data.amount, currency: 'RUB' }])
    expect(Number(data.amount)).toBeGreaterThanOrEqual(Number(total))
    const [whole, cents] = data.amount.split('.')
    await expect
      .poll(
        () =>
          day.smtp.received.filter((m) => m.to.toLowerCase().includes(buyer) && /Возврат/.test(m.subject))
            .length,
        { timeout: 60_000 },
      )
      .toBe(1)
    const mail = day.smtp.received.find(
      (m) => m.to.toLowerCase().includes(buyer) && /Возврат/.test(m.subject),
    )!
    expect(mail.text).toMatch(new RegExp(`${whole},${cents}`))
  } finally {
    await buyerContext.close()
  }
}

/** The day's results at 1280 px: the published documents, the uploaded logo, no sideways scroll. */
async function theDayOnADesktop(page: Page, logoSrc: string) {
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto('/admin/articles')
  for (const slug of ['privacy-policy', 'consent', 'user-agreement', 'refunds'])
    await expect(page.locator(`li[data-linked="${slug}"]`)).toHaveAttribute('data-present', 'true')
  await page.goto('/info/refunds')
  await expect(page.getByRole('main')).toContainText('ООО Пиксель')
  await expect(
    page.getByRole('banner').getByRole('link', { name: SHOP_NAME, exact: true }).locator('img'),
  ).toHaveAttribute('src', logoSrc)
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
}

/** The whole first day; `browser` opens a context on the production shop (JS on or off). */
export async function ownersFirstDay(browser: Browser, javaScriptEnabled: boolean) {
  const day = await startProductionShop()
  let shop = day.shop
  const context = await browser.newContext({
    baseURL: day.origin,
    locale: 'ru-RU',
    javaScriptEnabled,
    viewport: { width: 360, height: 780 },
  })
  try {
    const page = await context.newPage()
    // nothing of the demo: no catalogue, the neutral name, no demo strip
    await page.goto('/')
    await expect(page).toHaveTitle(/\| Магазин$/)
    await expect(page.getByText('ИгроМаркет')).toHaveCount(0)

    await ownerSignsUpAndConfirms(page, day)
    let w = await openOverview(page)
    for (const shown of Object.values(w)) await expect(shown).toBeVisible()

    const logoSrc = await ownerNamesTheShop(page)
    w = await openOverview(page)
    await expect(w.unnamed).toHaveCount(0)
    await expect(w.requisites).toBeVisible()
    await storefrontShowsTheShop(page, logoSrc)

    await ownerFillsRequisites(page)
    w = await openOverview(page)
    await expect(w.requisites).toHaveCount(0)
    await expect(w.receiptsOff).toHaveCount(0)
    await expect(w.noMethod).toBeVisible()
    await expect(w.noPayments).toBeVisible()

    await ownerPublishesLegalPages(page)

    await ownerSwitchesPaymentOn(page)
    w = await openOverview(page)
    await expect(w.noMethod).toHaveCount(0)
    await expect(w.noPayments).toHaveCount(0)
    await expect(w.setup).toHaveCount(0)
    await expect(w.mail).toBeVisible()
    // the back-office is usable on a phone: nothing scrolls sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)

    // step 2 for mail: SMTP_URL and MAIL_FROM set, the shop restarted; the session survives
    await shop.stop('SIGTERM')
    shop = await startShopProcess({
      dataDir: shop.dataDir,
      env: { ...day.env, SMTP_URL: day.smtp.url, MAIL_FROM: `${SHOP_NAME} <shop@first-day.example>` },
      readyTimeoutMs: 240_000,
    })
    w = await openOverview(page)
    await expect(w.mail).toHaveCount(0)
    // the open alert closes at the next check of the causes (every 120 s: ALERTS_EVERY_SECONDS)
    await expect(async () => {
      await openOverview(page)
      await expect(warnings(page).mailAlert).toHaveCount(0, { timeout: 1000 })
    }).toPass({ timeout: 150_000, intervals: [5_000] })
    await expect(page.getByText('Письма уходят через SMTP')).toBeVisible()

    // the next mail carries the shop's name (a password reset asked from the sign-in page)
    await page.goto('/auth/forgot')
    await page.getByLabel('Электронная почта').fill(day.owner)
    await page.getByRole('button', { name: 'Отправить ссылку' }).click()
    await expect(page.getByRole('main').getByRole('status')).toContainText('Если аккаунт с этой почтой есть')
    const [mail] = await day.smtp.waitFor(1, 60_000)
    expect(mail!.subject).toMatch(/Сброс пароля/)
    expect(mail!.text).toContain(SHOP_NAME)
    expect(mail!.html).toContain(SHOP_NAME)
    expect(`${mail!.text}${mail!.html}`).not.toContain('ИгроМаркет')

    // step 8: a game whose HTML description the storefront shows formatted, then its codes
    await openOverview(page)
    await ownerAddsGameWithProduct(page)
    await expect(page.locator('meta[property="og:site_name"]')).toHaveAttribute('content', SHOP_NAME)
    await ownerImportsCodes(page)

    await firstSaleAndRefund(browser, page, day, javaScriptEnabled)
    await theDayOnADesktop(page, logoSrc)
  } finally {
    await context.close()
    await shop.stop('SIGKILL')
    await day.smtp.stop()
    await day.yookassa.close()
    rmSync(shop.dataDir, { recursive: true, force: true })
  }
}
