// A shopper on a slow phone types before the page's JavaScript has started. The app's scripts are
// held back (and the CPU slowed 6× through the Chrome DevTools Protocol) while the quantity, the
// email or the Steam amount is typed into the server's HTML; then the scripts run. What was typed
// stays on screen, counts in the totals, and the order goes through — also when a stored cart of
// the same game would otherwise come back. Run several times: the race it guards is timing.
import { type BrowserContext, expect, type Page, type Route, test } from '@playwright/test'
import { authDialog, createPubgOrder, PASSWORD, pubgProduct, uniqueEmail } from './account-helpers'
import { gameId } from './screens'
import { PAY_URL, orderForm, quantity, submitOrder } from './purchase-steps'

const PHONE = { width: 360, height: 740 }
test.use({ viewport: PHONE })
// a 6× slower CPU on a shared 2-core machine: the page, the order and the payment page take long
test.describe.configure({ timeout: 90_000 })

/** Opens `path` with the app's scripts held back; returns a function that lets them run. */
async function openBeforeScripts(page: Page, context: BrowserContext, path: string) {
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 })
  const held: Route[] = []
  let holding = true
  await page.route(/\/assets\/.*\.js$/, (route) => {
    if (holding) held.push(route)
    else void route.continue()
  })
  await page.goto(path, { waitUntil: 'domcontentloaded' })
  return async () => {
    holding = false
    for (const r of held.splice(0)) await r.continue()
    await page.waitForLoadState('networkidle')
  }
}

for (let run = 1; run <= 3; run++) {
  test(`a quantity and an email typed before the scripts start are kept (run ${run})`, async ({
    page,
    context,
    request,
  }) => {
    const id = await gameId(request, 'PUBGGame')
    // a cart stored by an earlier visit: 2 × 60 UC
    await page.goto(`/products/${id}`)
    // the form's own code runs (the steppers work earlier, by the page's inline script)
    await expect(orderForm(page)).toHaveAttribute('data-live', '', { timeout: 20_000 })
    await quantity(page, '60 UC').fill('2')
    await expect(totals(page)).toContainText('178,00')

    const release = await openBeforeScripts(page, context, `/products/${id}`)
    await quantity(page, '60 UC').fill('0')
    await quantity(page, '325 UC').fill('3')
    const email = `early-${run}-${Date.now()}@example.com`
    await orderForm(page).getByLabel('Электронная почта').fill(email)
    await orderForm(page).getByLabel('Я даю согласие на обработку персональных данных').check()
    await release()
    // hydrated: the form marks itself live once its code runs
    await expect(orderForm(page)).toHaveAttribute('data-live', '', { timeout: 20_000 })

    await expect(quantity(page, '325 UC')).toHaveValue('3')
    await expect(quantity(page, '60 UC')).toHaveValue('0')
    await expect(orderForm(page).getByLabel('Электронная почта')).toHaveValue(email)
    // 3 × 404,10 ₽, counted by the app's code (the server's HTML said 0)
    await expect(totals(page)).toContainText('1\u202f212,30')
    await submitOrder(page)
    // a 6× slower CPU: creating the order and opening the payment page take a while
    await expect(page).toHaveURL(PAY_URL, { timeout: 20_000 })
    await expect(page.getByRole('rowheader', { name: '325 UC' })).toBeVisible({ timeout: 20_000 })
    await expect(page.getByRole('row', { name: /325 UC/ })).toContainText('3 шт.')
  })
}

test('«+» tapped after the page’s scripts start and before the form’s code is in counts once', async ({
  page,
  context,
  request,
}) => {
  const id = await gameId(request, 'PUBGGame')
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 })
  // only the order form's chunk is held: the rest of the page hydrates, the form's part waits
  const held: Route[] = []
  let holding = true
  await page.route(/\/assets\/order-form-[^/]*\.js$/, (route) => {
    if (holding) held.push(route)
    else void route.continue()
  })
  await page.goto(`/products/${id}`, { waitUntil: 'domcontentloaded' })
  // React listens on the document once it hydrates; a click in the form's dehydrated part is
  // stopped there (react-dom's selective hydration), so the early steppers' script must see it first
  await page.waitForFunction(() => Object.keys(document).some((k) => k.startsWith('_reactListening')))
  await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0)
  const plus = page.getByRole('button', { name: 'Увеличить количество: 325 UC' })
  await plus.click()
  await plus.click()
  await expect(quantity(page, '325 UC')).toHaveValue('2')
  await expect(orderForm(page)).not.toHaveAttribute('data-live')
  holding = false
  for (const r of held.splice(0)) await r.continue()
  // a tap while the form's code arrives and hydrates the form: stepped by the script or by the
  // form, never by both and never by neither
  await plus.click()
  await expect(orderForm(page)).toHaveAttribute('data-live', '', { timeout: 20_000 })
  await expect(quantity(page, '325 UC')).toHaveValue('3')
  await expect(page.getByTestId('order-pick')).toHaveText('325 UC × 3')
  await expect(totals(page)).toContainText('1\u202f212,30')
  await plus.click()
  await expect(quantity(page, '325 UC')).toHaveValue('4')
  await expect(page.getByTestId('order-pick')).toHaveText('325 UC × 4')
})

/** Where the FAQ's heading is on the page (not the screen), in CSS pixels. */
const faqTop = (page: Page) =>
  page
    .getByRole('heading', { name: 'Частые вопросы' })
    .evaluate((el) => el.getBoundingClientRect().top + window.scrollY)

test('a number typed before the scripts start lets «−» step it down at once', async ({
  page,
  context,
  request,
}) => {
  const id = await gameId(request, 'PUBGGame')
  const release = await openBeforeScripts(page, context, `/products/${id}`)
  const minus = page.getByRole('button', { name: 'Уменьшить количество: 325 UC' })
  await expect(minus).toBeDisabled()
  await quantity(page, '325 UC').fill('3')
  await expect(minus).toBeEnabled()
  await minus.click()
  await expect(quantity(page, '325 UC')).toHaveValue('2')
  await expect(orderForm(page)).not.toHaveAttribute('data-live')
  await release()
  await expect(orderForm(page)).toHaveAttribute('data-live', '', { timeout: 20_000 })
  await expect(page.getByTestId('order-pick')).toHaveText('325 UC × 2')
})

test('«+» and «−» tapped before the scripts start count, and are taken over when they run', async ({
  page,
  context,
  request,
}) => {
  const id = await gameId(request, 'PUBGGame')
  const release = await openBeforeScripts(page, context, `/products/${id}`)
  const plus = page.getByRole('button', { name: 'Увеличить количество: 325 UC' })
  await plus.click()
  await plus.click()
  await plus.click()
  await page.getByRole('button', { name: 'Уменьшить количество: 325 UC' }).click()
  await expect(quantity(page, '325 UC')).toHaveValue('2')
  // still before the app's code: only the early steppers' script has run
  await expect(orderForm(page)).not.toHaveAttribute('data-live')
  await release()
  await expect(orderForm(page)).toHaveAttribute('data-live', '', { timeout: 20_000 })
  await expect(page.getByTestId('order-pick')).toHaveText('325 UC × 2')
  await expect(totals(page)).toContainText('808,20')
  await expect(quantity(page, '325 UC')).toHaveValue('2')
  // the taps are not counted twice once the form's own code handles them
  await plus.click()
  await expect(quantity(page, '325 UC')).toHaveValue('3')
})

test('nothing below the form moves when the scripts start', async ({ page, context, request }) => {
  const id = await gameId(request, 'PUBGGame')
  const release = await openBeforeScripts(page, context, `/products/${id}`)
  const before = await faqTop(page)
  await release()
  await expect(orderForm(page)).toHaveAttribute('data-live', '', { timeout: 20_000 })
  await expect(page.getByTestId('order-pick')).toHaveText('Пакет не выбран')
  expect(await faqTop(page), 'the FAQ stays where it was painted').toBe(before)
})

test('opened from the home page, the game page comes with its form: nothing pops in below', async ({
  page,
}) => {
  await page.goto('/')
  await page.getByRole('searchbox', { name: 'Поиск игры' }).fill('PUBG')
  await page.getByRole('button', { name: 'Найти' }).click()
  await expect(page).toHaveURL(/\?search=/)
  // the app runs (React listens on the document): the game's link opens in the app, not as a new
  // document (a search sent before the scripts started reloads the page)
  await page.waitForFunction(() => Object.keys(document).some((k) => k.startsWith('_reactListening')))
  // watch the page change: when the game page first shows, is its form already there?
  await page.evaluate(() => {
    const w = window as { formWithPage?: boolean }
    new MutationObserver((_, observer) => {
      const article = document.querySelector('article.game-page')
      if (!article) return
      w.formWithPage = article.querySelector('form.order-form') !== null
      observer.disconnect()
    }).observe(document.body, { childList: true, subtree: true })
  })
  await page
    .getByRole('link', { name: /PUBG Mobile/ })
    .first()
    .click()
  await expect(page).toHaveURL(/\/products\/\d+$/)
  await expect(orderForm(page)).toBeVisible()
  expect(await page.evaluate(() => (window as { formWithPage?: boolean }).formWithPage)).toBe(true)
})

test('a Steam amount typed before the scripts start is kept and counted', async ({
  page,
  context,
  request,
}) => {
  const id = await gameId(request, 'Steam')
  const release = await openBeforeScripts(page, context, `/products/${id}`)
  await orderForm(page).getByLabel('Логин Steam').fill('early_bird')
  await orderForm(page).getByLabel('Сумма пополнения, ₽').fill('500')
  await orderForm(page).getByLabel('Электронная почта').fill(`early-steam-${Date.now()}@example.com`)
  await orderForm(page).getByLabel('Я даю согласие на обработку персональных данных').check()
  await release()
  // the totals are the app's code: 500,00 appears only once it runs and takes what was typed
  await expect(totals(page)).toContainText('500,00', { timeout: 20_000 })
  await expect(orderForm(page).getByLabel('Сумма пополнения, ₽')).toHaveValue('500')
  await expect(orderForm(page).getByLabel('Логин Steam')).toHaveValue('early_bird')
  await submitOrder(page)
  await expect(page).toHaveURL(PAY_URL, { timeout: 20_000 })
})

test('a player id typed before the scripts start is checked once they run', async ({
  page,
  context,
  request,
}) => {
  const id = await gameId(request, 'StandoffGame')
  const release = await openBeforeScripts(page, context, `/products/${id}`)
  await orderForm(page).getByLabel('ID аккаунта Standoff 2').fill('100000001')
  await release()
  // the nickname comes from the live check, which only the app's code asks
  await expect(orderForm(page).getByRole('status').filter({ hasText: 'Игрок: Тестовый игрок' })).toBeVisible({
    timeout: 20_000,
  })
})

test('the sign-in popup keeps the field being typed in when the scripts start', async ({
  page,
  context,
  request,
}) => {
  // an account whose password ends in what is typed after the scripts have started
  const email = uniqueEmail('early-signin')
  const signUp = await request.post('/api/auth/jwt/create/', { data: { email, password: `${PASSWORD}!x` } })
  expect(signUp.status(), await signUp.text()).toBe(200)

  const release = await openBeforeScripts(page, context, '/?auth=1')
  const dialog = authDialog(page)
  await dialog.getByLabel('Электронная почта').fill(email)
  await dialog.getByLabel('Я даю согласие на обработку персональных данных').check()
  await dialog.getByLabel('Пароль').fill(PASSWORD)
  await release()
  await page.waitForFunction(() => {
    const router = (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter
    return router?.state.initialized === true
  })
  // the popup's opening effect has run: it must not have moved focus to the email field
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
  await expect(dialog.getByLabel('Пароль')).toBeFocused()
  await page.keyboard.type('!x')
  await expect(dialog.getByLabel('Электронная почта')).toHaveValue(email)
  // the race is over: sign in at full speed, with exactly what was typed
  await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: 1 })
  await dialog.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(dialog).toHaveCount(0, { timeout: 20_000 })
  // signed in with what was typed: the profile is this account's
  await page.goto('/profile')
  await expect(page.getByText(email).first()).toBeVisible()
})

test('a payment method chosen before the scripts start is the one the pay button names', async ({
  page,
  context,
  request,
}) => {
  const { product } = await pubgProduct(request)
  const orderId = await createPubgOrder(request, null, product.id, 1, uniqueEmail('early-method'))
  const release = await openBeforeScripts(page, context, `/orders/${orderId}/pay`)
  // the page checked the cheapest method; the buyer taps the card before the scripts run
  const card = page.getByRole('radio', { name: 'Банковская карта', exact: true })
  await expect(card).not.toBeChecked()
  await card.check()
  await release()
  const bar = page.locator('.pay-form__bar')
  await expect(bar).toContainText('Способ оплаты: Банковская карта', { timeout: 20_000 })
  // the card's own total, as written under it
  const details = await page.locator('#method-sandbox-card-details').textContent()
  const total = /К оплате\s+([\d\s\u00a0]+,\d{2}\s₽)/.exec(details ?? '')?.[1]
  expect(total, details ?? '').toBeTruthy()
  await expect(page.getByRole('button', { name: 'Перейти к оплате' })).toContainText(total!)
})

/** The live totals under the form (subtotal, discount, to pay). */
const totals = (page: Page) => orderForm(page).locator('dl.totals')
