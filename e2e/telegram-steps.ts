// Steps of the Telegram specs (issue 49; JS on and off, 360 px): a support member links Telegram
// from /admin/telegram; a buyer follows an order with «Следить в Telegram» from its pay page. The
// browser is never let out to t.me: the deep link is caught, and the test plays the person pressing
// Start by giving the fake Bot API that update (the shop polls for updates here).
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { FAKE_TELEGRAM_ORIGIN } from '../playwright.config'
import { createPubgOrder, pubgProduct } from './account-helpers'

export const PHONE = { width: 360, height: 780 }

/**
 * Catches the deep link the shop sends the browser to; the returned wait resolves with its start
 * parameter, or fails at once with the page's error when the shop refused (say, too many links).
 */
export async function catchDeepLink(context: BrowserContext, page: Page): Promise<() => Promise<string>> {
  let resolve: (start: string) => void = () => {}
  const caught = new Promise<string>((r) => {
    resolve = r
  })
  await context.route('https://t.me/**', (route) => {
    const url = new URL(route.request().url())
    resolve(url.searchParams.get('start') ?? '')
    return route.fulfill({ contentType: 'text/html', body: '<title>Telegram</title><h1>Telegram</h1>' })
  })
  const refusal = page.getByRole('alert').filter({ hasText: /\S/ }).first()
  const refused = refusal.waitFor({ timeout: 60_000 }).then(async () => {
    throw new Error(`the shop refused the link: ${await refusal.textContent()}`)
  })
  return () => Promise.race([caught, refused])
}

/** The person presses Start in the bot's chat with the link's parameter (`/start <code>`). */
export async function pressStart(request: APIRequestContext, tgUserId: number, start: string) {
  // the fake numbers the update as Telegram would (growing update_ids: getUpdates' offset relies on it)
  const r = await request.post(`${FAKE_TELEGRAM_ORIGIN}/_test/push`, {
    data: {
      message: {
        message_id: Math.floor(Math.random() * 1e9),
        date: Math.floor(Date.now() / 1000),
        chat: { id: tgUserId, type: 'private' },
        from: { id: tgUserId, is_bot: false, first_name: 'Тест', last_name: 'Телеграм' },
        text: `/start ${start}`,
      },
    },
  })
  expect(r.ok()).toBe(true)
}

/** Waits for the bot to write something matching `text` in the chat. */
export async function botSays(request: APIRequestContext, chatId: number, text: RegExp) {
  await expect
    .poll(
      async () => {
        const r = await request.get(`${FAKE_TELEGRAM_ORIGIN}/_test/messages?chat=${chatId}`)
        const list = (await r.json()) as Array<{ text: string }>
        return list.map((m) => m.text).join('\n')
      },
      { timeout: 45_000, intervals: [500, 1000] },
    )
    .toMatch(text)
}

export const randomChat = () => 700_000_000 + Math.floor(Math.random() * 1e8)

export async function supportLinksTelegram(page: Page, context: BrowserContext, request: APIRequestContext) {
  const link = await catchDeepLink(context, page)
  await page.goto('/admin/telegram')
  await expect(page.getByRole('heading', { name: 'Telegram', level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Привязать Telegram' }).click()
  const start = await link()
  expect(start).toMatch(/^s[A-Za-z0-9_-]{24}$/)
  const tg = randomChat()
  await pressStart(request, tg, start)
  await botSays(
    request,
    tg,
    /Готово: Telegram привязан к вашему доступу в магазине \(support@igromarket\.demo\)/,
  )
  await page.goto('/admin/telegram')
  await expect(
    page.getByRole('status').filter({ hasText: 'Ваш Telegram привязан: Тест Телеграм' }),
  ).toBeVisible()
}

export async function buyerFollowsOrder(page: Page, context: BrowserContext, request: APIRequestContext) {
  const { product } = await pubgProduct(request)
  const orderId = await createPubgOrder(request, null, product.id, 1, `tg-${Date.now()}@example.com`)
  const link = await catchDeepLink(context, page)
  await page.goto(`/orders/${orderId}/pay`)
  const box = page.getByRole('region', { name: 'Следить в Telegram' })
  await expect(box).toContainText('Коды бот не присылает')
  await box.getByRole('button', { name: 'Следить в Telegram' }).click()
  const start = await link()
  expect(start).toMatch(/^o[A-Za-z0-9_-]{24}$/)
  const chat = randomChat()
  await pressStart(request, chat, start)
  await botSays(request, chat, /Теперь я сообщу, как идёт заказ № \d+/)
}
