// Steps of the auto-refund and receipt-moment specs (issue 45; JS on and off, 360 px):
//  - a buyer's Steam top-up of the demo's manual Steam game is paid with receipts on (the sandbox
//    cash register): the history shows «предоплата 100 %»; support sees at the desk how long before
//    the money goes back by itself, takes the order, and marks it delivered; the history then shows
//    both receipts, the advance and the «полный расчёт» that offsets it;
//  - a guest's order whose refund deadline the e2e server brings near (@refund-soon.test, the seam
//    in api/src/services/delivery/handover.ts) is taken by support and, at its deadline, escalated
//    to the owner instead of refunded: the owner's mail, the overview's «нужен человек», the desk's
//    filter; the owner presses «Выдано».
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { payWithSandbox } from './account-helpers'
import { OWNER, signInAs } from './admin-helpers'
import { waitForMail } from './mail-steps'
import { type Seller, withSellerChanged } from './seller-lock'

export const PHONE = { width: 360, height: 780 }
/** The demo's Steam game a person delivers (30 min promised, the shop's 24 h auto-refund). */
export const MANUAL_STEAM = 'Steam (Казахстан)'
/** Kept in step with E2E_REFUND_SOON_DOMAIN in api/src/services/delivery/handover.ts. */
const REFUND_SOON = '@refund-soon.test'

const unique = () => `${Date.now()}-${Math.floor(Math.random() * 1e6)}`

async function ok<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.ok(), `${res.url()} answered ${res.status()}: ${await res.text()}`).toBe(true)
  return (await res.json()) as T
}

const bearer = (token: string | null): Record<string, string> =>
  token ? { authorization: `Bearer ${token}` } : {}

async function manualSteamGame(request: APIRequestContext): Promise<number> {
  const games = await ok<{ results: Array<{ id: number; title: string }> }>(
    await request.get('/api/games/?limit=100'),
  )
  const game = games.results.find((g) => g.title === MANUAL_STEAM)
  expect(game, `the demo's manual Steam game «${MANUAL_STEAM}»`).toBeTruthy()
  return game!.id
}

type OrderAnswer = {
  number: number
  status: string
  receipts?: Array<{ payment_method?: string; status: string }>
}

const orderOf = async (request: APIRequestContext, id: string, token: string | null) =>
  ok<OrderAnswer>(await request.get(`/api/orders/${id}/`, { headers: bearer(token) }))

/** A paid Steam top-up of the manual game, by the signed-in buyer (`token`) or a guest (`email`). */
async function paidManualSteamOrder(request: APIRequestContext, token: string | null, email?: string) {
  const created = await ok<{ id: string }>(
    await request.post('/api/orders/steam/', {
      headers: bearer(token),
      data: {
        game: await manualSteamGame(request),
        amount: '1000.00',
        steam_account_id: 'gaben_e2e',
        ...(email ? { email } : {}),
      },
    }),
  )
  await payWithSandbox(request, token, created.id)
  return created.id
}

/**
 * The buyer pays with the shop's receipts on (the sandbox cash register), under the seller lock:
 * receipts are switched on, the order paid, its advance receipt seen, and the settings put back.
 */
async function payWithReceiptsOn(request: APIRequestContext, buyerToken: string): Promise<string> {
  const owner = await request.post('/api/auth/jwt/create/', { data: OWNER })
  const auth = { authorization: `Bearer ${((await owner.json()) as { access: string }).access}` }
  const receiptsOn = (before: Seller): Seller => ({
    ...before,
    legal_form: before.legal_form || 'ООО',
    company_name: before.company_name || 'Чеки',
    inn: before.inn || '7707083893',
    ogrn: before.ogrn || '1027700132195',
    address: before.address || 'Москва, ул. Тестовая, 1',
    email: before.email || 'shop@example.com',
    receipts_enabled: true,
    receipt_transport: 'sandbox',
  })
  return withSellerChanged(request, auth, receiptsOn, async () => {
    const id = await paidManualSteamOrder(request, buyerToken)
    // the advance is written with the payment; wait for it before the settings go back
    await expect
      .poll(async () => (await orderOf(request, id, buyerToken)).receipts?.length ?? 0, { timeout: 15_000 })
      .toBeGreaterThan(0)
    return id
  })
}

/** The desk card of the order numbered `n` (its heading «<game> · № n»). */
const deskCard = (page: Page, n: number) => page.getByRole('listitem', { name: new RegExp(`· № ${n}$`) })

/** The buyer's history card of their one order, and its receipts. */
const historyReceipts = (page: Page) =>
  page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: MANUAL_STEAM }) })
    .getByTestId('order-receipts')

/**
 * A new buyer (signed in in `buyer`) pays a manual Steam top-up with receipts on; the history shows
 * the one receipt of the payment, «предоплата 100 %». Returns the order's id, number and the email.
 */
export async function buyerPaysManualSteam(buyer: BrowserContext, request: APIRequestContext) {
  const email = `refund-buyer-${unique()}@example.com`
  const token = await signInAs(buyer, request, { email, password: 'buyer-password-45' })
  const id = await payWithReceiptsOn(request, token)
  const { number } = await orderOf(request, id, token)

  const page = await buyer.newPage()
  await page.goto('/profile')
  await expect(page.getByRole('heading', { name: 'История заказов' })).toBeVisible()
  const receipts = historyReceipts(page)
  await expect(receipts).toContainText(
    `Чек отправлен на ${email} (предоплата 100 %) — зарегистрирован в кассе`,
  )
  // nothing is delivered yet: no «полный расчёт»
  await expect(receipts).not.toContainText('полный расчёт')
  await expect(receipts.getByText(/ФН 9999999999999999, ФД \d+, ФП \d+/)).toHaveCount(1)
  await page.close()
  return { id, number, email, token }
}

/**
 * Support at the desk: the untaken order says when the money goes back by itself (the shop's 24 h),
 * taking it says it never will, and «Выдано» delivers it.
 */
export async function supportSeesClockTakesAndDelivers(page: Page, n: number) {
  await page.goto('/admin/delivery')
  await expect(page.getByRole('heading', { level: 1, name: 'Выдача заказов' })).toBeVisible()
  await expect(page.getByText(/Взятый заказ сам никогда не возвращается/)).toBeVisible()
  const card = deskCard(page, n)
  await expect(card).toContainText(MANUAL_STEAM)
  await expect(card).toContainText('gaben_e2e')
  await expect(card).toContainText('Никто не взял')
  await expect(card).toContainText(/Никто не взял — вернём деньги через 23 ч \d+ мин/)

  await card.getByRole('button', { name: 'Взять в работу' }).click()
  await expect(page.getByText('Заказ взят в работу').first()).toBeVisible()
  const taken = deskCard(page, n)
  await expect(taken).toContainText(
    /Взят — деньги сами не вернутся; срок автовозврата через 23 ч \d+ мин, потом решает владелец/,
  )
  await expect(taken).not.toContainText('вернём деньги через')

  await taken.getByRole('button', { name: 'Выдано', exact: true }).click()
  await expect(deskCard(page, n)).toHaveCount(0, { timeout: 15_000 })
}

/** The buyer's history shows both receipts of the delivered order: the advance, then the settlement. */
export async function historyShowsBothReceipts(buyer: BrowserContext, email: string) {
  const page = await buyer.newPage()
  // the settlement is registered by a job after «Выдано»
  await expect
    .poll(
      async () => {
        await page.goto('/profile')
        return (await historyReceipts(page).textContent()) ?? ''
      },
      // the receipt job retries with a back-off: on a loaded machine the fake register's answer
      // can take a few rounds
      { timeout: 90_000, intervals: [1_000, 2_000, 5_000] },
    )
    .toContain('(полный расчёт) — зарегистрирован в кассе')
  const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: MANUAL_STEAM }) })
  await expect(card).toContainText('Выполнен')
  const lines = historyReceipts(page).locator('p')
  await expect(lines).toHaveCount(2)
  await expect(lines.nth(0)).toContainText(
    `Чек отправлен на ${email} (предоплата 100 %) — зарегистрирован в кассе`,
  )
  await expect(lines.nth(1)).toContainText(
    `Чек отправлен на ${email} (полный расчёт) — зарегистрирован в кассе`,
  )
  for (const i of [0, 1]) await expect(lines.nth(i)).toContainText(/ФН 9999999999999999, ФД \d+, ФП \d+/)
  // nothing scrolls sideways at 360 px
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
  await page.close()
}

/**
 * A guest's manual Steam order, due for an automatic refund a minute after payment (the e2e seam);
 * support sees the clock and takes it before the deadline. Returns its id and number.
 */
export async function supportTakesOrderDueSoon(page: Page, request: APIRequestContext) {
  const email = `escalated-${unique()}${REFUND_SOON}`
  const id = await paidManualSteamOrder(request, null, email)
  const { number } = await orderOf(request, id, null)
  await page.goto('/admin/delivery')
  const card = deskCard(page, number)
  await expect(card).toContainText(/Никто не взял — вернём деньги через [01] мин/)
  await card.getByRole('button', { name: 'Взять в работу' }).click()
  await expect(page.getByText('Заказ взят в работу').first()).toBeVisible()
  await expect(deskCard(page, number)).toContainText('Взят — деньги сами не вернутся')
  return { id, number }
}

/**
 * At the deadline the taken order goes to the owner, not back to the buyer: the owner's mail, the
 * overview's «нужен человек» leading to the desk's filter, the card saying why; «Выдано» settles it.
 */
export async function ownerFindsEscalatedAndDelivers(
  page: Page,
  request: APIRequestContext,
  id: string,
  n: number,
) {
  const mail = await waitForMail(
    OWNER.email,
    new RegExp(`^Заказ № ${n} взят, но не выдан в срок — нужен владелец$`),
    150_000,
  )
  expect(mail.text).toContain('/admin/delivery?filter=escalated')
  // not refunded: still waiting for a person
  expect((await orderOf(request, id, null)).status).not.toBe('failed')

  await page.goto('/admin')
  const row = page
    .getByRole('region', { name: 'Заказы, которым нужен человек' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: `№ ${n}`, exact: true }) })
  await expect(row).toContainText('нужен человек: взят, но не выдан в срок')
  await row.getByRole('link', { name: 'нужен человек: взят, но не выдан в срок' }).click()
  await expect(page).toHaveURL(/\/admin\/delivery\?filter=escalated$/)
  await expect(
    page.getByRole('navigation', { name: 'Какие заказы показать' }).locator('[aria-current="page"]'),
  ).toHaveText(/^Нужен человек \(\d+\)$/)
  const card = deskCard(page, n)
  await expect(card).toContainText(
    'Нужен человек: заказ взят, но срок автовозврата прошёл. Деньги сами не вернутся',
  )
  await expect(card).toContainText('Взял: support@igromarket.demo')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)

  await card.getByRole('button', { name: 'Выдано', exact: true }).click()
  await expect(page.getByText('Заказ отмечен выданным').first()).toBeVisible()
  await expect(deskCard(page, n)).toHaveCount(0, { timeout: 15_000 })
  expect((await orderOf(request, id, null)).status).toBe('done')
}
