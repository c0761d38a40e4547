// Shared steps of the payment e2e specs: orders are created through the shop's own API (the
// running app's /api), then paid through the payment page and the sandbox checkout.
import { type APIRequestContext, expect, type Page } from '@playwright/test'

export const email = (tag: string) =>
  `pay-${tag}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

async function json<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.ok(), `${res.url()} answered ${res.status()}: ${await res.text()}`).toBe(true)
  return (await res.json()) as T
}

interface GameSummary {
  id: number
  title: string
}
interface GameDetail {
  products: Array<{ id: number; title: string }>
}

async function gameByTitle(request: APIRequestContext, title: string): Promise<number> {
  const page = await json<{ results: GameSummary[] }>(await request.get('/api/games/?limit=50'))
  const game = page.results.find((g) => g.title === title)
  expect(game, `game ${title}`).toBeTruthy()
  return game!.id
}

/** A guest PUBG Mobile order of `quantity` × the product `product` (e.g. "660 UC"); its id. */
export async function createPubgOrder(
  request: APIRequestContext,
  product = '660 UC',
  quantity = 1,
  buyer = email('pubg'),
): Promise<string> {
  const gameId = await gameByTitle(request, 'PUBG Mobile')
  const game = await json<GameDetail>(await request.get(`/api/games/${gameId}/`))
  const p = game.products.find((x) => x.title === product)
  expect(p, `product ${product}`).toBeTruthy()
  const order = await json<{ id: string }>(
    await request.post('/api/orders/pubg/', {
      data: { products: [{ product_id: p!.id, quantity }], email: buyer },
    }),
  )
  return order.id
}

/** A guest Steam top-up of `amount` roubles for a Steam account; its id. */
export async function createSteamOrder(request: APIRequestContext, amount = '1000.00'): Promise<string> {
  const game = await gameByTitle(request, 'Steam (Россия)')
  const order = await json<{ id: string }>(
    await request.post('/api/orders/steam/', {
      data: { game, amount, steam_account_id: 'gaben_e2e', email: email('steam') },
    }),
  )
  return order.id
}

/** A guest gift order (RokkyGift) of the gift titled `title`; its id. */
export async function createGiftOrder(request: APIRequestContext, title: string): Promise<string> {
  const list = await json<{ results: Array<{ id: number; title: string }> }>(
    await request.get(`/api/gifts/?limit=50&search=${encodeURIComponent(title)}`),
  )
  const gift = list.results.find((g) => g.title === title)
  expect(gift, `gift ${title}`).toBeTruthy()
  const order = await json<{ id: string }>(
    await request.post('/api/orders/rokky/', { data: { gift: gift!.id, email: email('gift') } }),
  )
  return order.id
}

export const payPath = (orderId: string) => `/orders/${orderId}/pay`

/** The sandbox checkout's names (see locales/ru/api.json). */
export const SANDBOX = { heading: 'Тестовая касса', pay: 'Оплатить', decline: 'Отклонить' }

/** The payment methods of the demo seed (Russia), by the scenario the sandbox answers with. */
export const METHOD_BY_SCENARIO = {
  redirect: 'Банковская карта',
  form: 'Карта через форму банка',
  p2p: 'Перевод с карты на карту',
  qr: 'СБП по QR-коду',
  invoice_qr: 'СБП — счёт в приложении банка',
  p2p_redirect: 'Электронный кошелёк',
  external: 'Баланс мобильного телефона',
  wait_order_state: 'USDT (TRC-20)',
} as const

export type ScenarioName = keyof typeof METHOD_BY_SCENARIO

export const statusHeading = (page: Page, status: string) =>
  page.getByRole('heading', { name: status, exact: true })

/** Picks a method on the payment page and presses pay. */
export async function choosePaymentMethod(page: Page, title: string) {
  await page.getByRole('radio', { name: title, exact: true }).check()
  await page.getByRole('button', { name: 'Перейти к оплате' }).click()
}

/**
 * Confirms the payment on the sandbox checkout page. Getting there is three server round trips
 * (the pay action, the payment's start, the checkout page), so the arrival has its own, longer wait
 * than one assertion's 5 s: a loaded CI machine once committed the page just at that limit.
 */
export async function confirmInSandbox(page: Page) {
  await page.waitForURL(/\/api\/payments\/sandbox\/checkout\//, { timeout: 20_000 })
  await expect(page.getByRole('heading', { name: SANDBOX.heading })).toBeVisible()
  await page.getByRole('button', { name: SANDBOX.pay }).click()
}
