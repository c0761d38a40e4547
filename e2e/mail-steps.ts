// Mail in the e2e runs: the shop has no SMTP_URL there, so every mail is an .eml file in the data
// folder of the e2e server (scripts/e2e-server.mjs). These steps wait for the newest mail to an
// address and read it.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { type APIRequestContext, expect, type Page } from '@playwright/test'
import { type ReadMail, readMail } from '../tests/helpers/mime'
import { choosePaymentMethod, confirmInSandbox, METHOD_BY_SCENARIO, payPath } from './payment-steps'
import { openGameFromHome, PAY_URL, quantity, submitOrder } from './purchase-steps'
import { gameId } from './demo-catalogue'
import { orderNumberOf } from './admin-helpers'

const port = process.env.E2E_PORT ?? '3200'
export const MAIL_DIR = fileURLToPath(new URL(`../.cache/e2e-data-${port}/mail`, import.meta.url))

function mailsTo(address: string, subject: RegExp): Array<ReadMail & { mtime: number }> {
  let names: string[] = []
  try {
    names = readdirSync(MAIL_DIR).filter((n) => n.endsWith('.eml'))
  } catch {
    return []
  }
  return names
    .map((n) => {
      const file = path.join(MAIL_DIR, n)
      return { ...readMail(readFileSync(file, 'utf8')), mtime: statSync(file).mtimeMs }
    })
    .filter((m) => m.to.toLowerCase().includes(address.toLowerCase()) && subject.test(m.subject))
    .sort((a, b) => b.mtime - a.mtime)
}

/** Waits for a mail to `address` whose subject matches, and returns the newest. */
export async function waitForMail(address: string, subject: RegExp, timeout = 20_000): Promise<ReadMail> {
  await expect
    .poll(() => mailsTo(address, subject).length, { timeout, message: `a mail "${subject}" to ${address}` })
    .toBeGreaterThan(0)
  return mailsTo(address, subject)[0]!
}

/** How many mails to `address` match (to prove one was sent, not two). */
export const countMails = (address: string, subject: RegExp) => mailsTo(address, subject).length

/** The first link of the mail's text that starts with the shop's origin and matches `re`. */
export function linkIn(mail: ReadMail, re: RegExp): string {
  const link = mail.text.match(/https?:\/\/[^\s)]+/g)?.find((u) => re.test(u))
  expect(link, `a link ${re} in the mail`).toBeTruthy()
  return link!
}

const UC_CODE = /UC-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/

/** The codes the payment page shows for a done order. */
async function codesOnPage(page: Page): Promise<string[]> {
  const region = page.getByRole('region', { name: 'Ваши коды' })
  await expect(region.locator('code').first()).toHaveText(UC_CODE)
  return region.locator('code').allTextContents()
}

/**
 * A guest buys 60 UC through the order form, pays in the sandbox, and gets exactly one mail whose
 * order link — opened in a fresh browser, the shop tab long closed — shows the same code.
 */
export async function guestBuysAndReadsTheMail(page: Page, email: string, javaScriptEnabled: boolean) {
  await openGameFromHome(page, /^PUBG Mobile/, 'PUBG Mobile')
  await quantity(page, '60 UC').fill('1')
  await page.getByLabel('Электронная почта').fill(email)
  await page.getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL)
  const orderId = /\/orders\/([0-9a-f-]{36})\/pay/.exec(page.url())![1]!
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
  await confirmInSandbox(page)
  await expect(page).toHaveURL(payPath(orderId))
  await expect(page.getByTestId('order-status')).toHaveText('Выполнен', { timeout: 15_000 })
  const [code] = await codesOnPage(page)

  const mail = await waitForMail(email, /выполнен$/)
  expect(mail.subject).toBe(`Заказ № ${await orderNumberOf(page.request, orderId)} выполнен`)
  expect(mail.text).toContain(code!)
  expect(mail.html).toContain(code!)
  expect(mail.text).toContain('Как активировать UC-коды')
  const link = linkIn(mail, /\/orders\/[0-9a-f-]{36}\/pay$/)
  expect(new URL(link).pathname).toBe(payPath(orderId))

  const fresh = await page.context().browser()!.newContext({ javaScriptEnabled })
  try {
    const reader = await fresh.newPage()
    await reader.goto(link)
    await expect(reader.getByTestId('order-status')).toHaveText('Выполнен')
    expect(await codesOnPage(reader)).toContain(code)
  } finally {
    await fresh.close()
  }
  // one mail for the order, not two
  expect(countMails(email, /выполнен$/)).toBe(1)
  return { orderId, code: code! }
}

/**
 * «Найти заказ» from the footer: the email in, the same answer on screen, the mail with its link,
 * and the list behind it with the order's status and code.
 */
export async function guestFindsOrdersByMail(
  page: Page,
  email: string,
  order: { orderId: string; code: string },
) {
  await page.goto('/')
  await page.getByRole('contentinfo').getByRole('link', { name: 'Найти заказ' }).click()
  await expect(page).toHaveURL(/\/orders\/find$/)
  await expect(page.getByRole('heading', { level: 1, name: 'Найти заказ' })).toBeVisible()
  await page.getByLabel('Электронная почта').fill(email)
  await page.getByRole('button', { name: 'Прислать ссылку' }).click()
  const status = page.getByRole('status').filter({ hasText: 'Проверьте почту' })
  await expect(status).toContainText('Если на этот адрес оформлялись заказы')

  const mail = await waitForMail(email, /^Ваши заказы/)
  const link = linkIn(mail, /\/orders\/lookup\//)
  await page.goto(link)
  await expect(page.getByRole('heading', { level: 1, name: 'Ваши заказы' })).toBeVisible()
  await expect(page.getByText(`Заказы, оформленные на ${email}`)).toBeVisible()
  const card = page
    .getByRole('listitem')
    .filter({ hasText: `№ ${await orderNumberOf(page.request, order.orderId)}` })
  await expect(card.getByText('Выполнен', { exact: true })).toBeVisible()
  await expect(card.locator('code')).toHaveText(order.code)
  await card.getByRole('link', { name: 'Открыть заказ' }).click()
  await expect(page).toHaveURL(payPath(order.orderId))

  // an email without orders gets the very same answer on screen
  await page.goto('/orders/find')
  await page.getByLabel('Электронная почта').fill(`nobody-${Date.now()}@example.com`)
  await page.getByRole('button', { name: 'Прислать ссылку' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Проверьте почту' })).toContainText(
    'Если на этот адрес оформлялись заказы',
  )

  // a link that was altered opens nothing
  await page.goto(`${link.slice(0, -4)}AAAA`)
  await expect(page.getByRole('heading', { level: 1, name: 'Ссылка не работает' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Запросить новую ссылку' })).toHaveAttribute(
    'href',
    '/orders/find',
  )
}

/**
 * A working look-up link, as a guest gets it: an order placed with a new email through the API,
 * «Найти заказ» asked for that email, the link read from the mail.
 */
export async function lookupLink(request: APIRequestContext): Promise<string> {
  const email = `lookup-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const pubg = await gameId(request, 'PUBGGame')
  const game = (await (await request.get(`/api/games/${pubg}/`)).json()) as {
    products: Array<{ id: number }>
  }
  const order = await request.post('/api/orders/pubg/', {
    data: { products: [{ product_id: game.products[0]!.id, quantity: 1 }], email },
  })
  expect(order.status()).toBe(201)
  expect((await request.post('/api/orders/lookup/', { data: { email } })).status()).toBe(202)
  const mail = await waitForMail(email, /^Ваши заказы/)
  return new URL(linkIn(mail, /\/orders\/lookup\//)).pathname
}
