// A guest buys 325 UC on a phone in at most five taps on the shop's own pages (issue 50), shared by
// purchase-taps.spec.ts (JavaScript on) and purchase-taps.nojs.spec.ts (off). The phone is
// 360×740 with the CPU slowed 4×; the buyer arrives on the game's page by its link (an ad, a
// search, a friend's message) and every click, tick or field typed into counts as one tap. The
// taps on the payment provider's side (opening the bank app, confirming there; here the sandbox
// checkout) are the provider's and counted apart. The buyer pays by the method the pay page checked
// (the cheapest, see app/components/payment/preferred-method.ts): in the e2e shop the seed's
// «СБП по QR-коду», whose QR opens the sandbox checkout. On each of the shop's pages the lowest thing the
// buyer must reach lies within one screen of scrolling, and the code ends on the success page's
// first screen.
import { expect, type Locator, type Page, test } from '@playwright/test'
import { FAKE_YOOKASSA_ORIGIN } from '../playwright.config'
import { gameId } from './demo-catalogue'
import { SANDBOX } from './payment-steps'
import { guestEmail, orderForm, PAY_URL, quantity } from './purchase-steps'

const PHONE = { width: 360, height: 740 }
const SANDBOX_CHECKOUT = /\/api\/payments\/sandbox\/checkout\//
const YOOKASSA_CHECKOUT = new RegExp(`^${FAKE_YOOKASSA_ORIGIN.replace(/\./g, '\\.')}/checkout/payments/`)
const CONSENT = 'Я даю согласие на обработку персональных данных'

/** The buyer's taps and how far down each of the shop's pages they had to reach. */
class Taps {
  shop = 0
  provider = 0
  /** The lowest point reached on each shop page (by path), in CSS px from the page's top. */
  readonly reach = new Map<string, number>()
  constructor(private readonly page: Page) {}

  private async reached(target: Locator) {
    await expect(target).toBeVisible()
    const bottom = await target.evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY)
    const path = new URL(this.page.url()).pathname
    this.reach.set(path, Math.max(this.reach.get(path) ?? 0, bottom))
  }
  async tap(target: Locator) {
    await this.reached(target)
    this.shop++
    await target.click()
  }
  async tick(target: Locator) {
    await this.reached(target)
    this.shop++
    await target.check()
  }
  async type(target: Locator, text: string) {
    await this.reached(target)
    this.shop++
    await target.fill(text)
  }
  async read(target: Locator) {
    await this.reached(target)
  }
}

/** What the pay button led to: a provider's page, or a QR on the pay page itself. */
async function arrival(page: Page): Promise<'sandbox' | 'yookassa' | 'qr'> {
  const sandbox = page.waitForURL(SANDBOX_CHECKOUT, { timeout: 30_000 }).then(() => 'sandbox' as const)
  const yookassa = page.waitForURL(YOOKASSA_CHECKOUT, { timeout: 30_000 }).then(() => 'yookassa' as const)
  const qr = page
    .getByRole('img', { name: /QR/ })
    .first()
    .waitFor({ state: 'visible', timeout: 30_000 })
    .then(() => 'qr' as const)
  const first = await Promise.race([sandbox, yookassa, qr])
  for (const p of [sandbox, yookassa, qr]) p.catch(() => {})
  return first
}

/** YooKassa's payer pays (the fake's bank app or card page) and YooKassa notifies the shop. */
async function yookassaPays(page: Page, orderId: string) {
  const data = (await (await page.request.get(`/api/orders/payment_data/${orderId}/`)).json()) as {
    payment_id?: string
  }
  expect(data.payment_id, 'the payment YooKassa was asked for').toBeTruthy()
  const paid = await page.request.post(`${FAKE_YOOKASSA_ORIGIN}/_test/succeed/${data.payment_id}`)
  expect(paid.ok(), await paid.text()).toBe(true)
  expect(((await paid.json()) as { notified: number }).notified, 'YooKassa notified the shop').toBe(200)
}

/** How long a buyer spends in the bank app: longer than the no-JavaScript pay page's reload interval. */
const IN_BANK_APP_MS = 12_000

/**
 * The provider's side of the payment, counted in the provider's taps, until the buyer is back on
 * the pay page: a redirect method's sandbox checkout confirms and sends the buyer back; YooKassa's
 * card page takes the card and returns the buyer (the fake's page only names itself: the return is
 * the provider's). A QR is paid in the bank app while the pay page stays open in its tab: the
 * sandbox's QR opens the sandbox checkout (here in another tab, the bank app's stand-in), YooKassa's
 * SBP link opens NSPK's bank chooser (the fake's payer pays); the buyer comes back to the tab they
 * left and taps nothing: with JavaScript the page follows the payment by itself (status polling,
 * no reload: a marker set on the window survives), without it the page reloads itself every 10 s
 * while the QR waits (the marker is gone, the url counts the reloads). The YooKassa methods other
 * specs add on the same server are never the cheapest (yookassa-sbp-steps).
 */
async function payAtProvider(page: Page, taps: Taps, payUrl: string, javaScript: boolean) {
  const orderId = new URL(payUrl).pathname.split('/')[2]!
  const where = await arrival(page)
  if (where === 'qr') {
    await page.evaluate(() => {
      ;(window as unknown as { stillHere?: boolean }).stillHere = true
    })
    const data = (await (await page.request.get(`/api/orders/payment_data/${orderId}/`)).json()) as {
      url?: string
    }
    // the buyer is in the bank app for a while, the pay page left open in its tab
    const inBankApp = Date.now()
    if (data.url && SANDBOX_CHECKOUT.test(data.url)) {
      // the sandbox's QR: its address is the sandbox checkout, opened by the bank app
      const bankApp = await page.context().newPage()
      taps.provider++
      await bankApp.goto(data.url)
      await expect(bankApp.getByRole('heading', { name: SANDBOX.heading })).toBeVisible()
      await bankApp.waitForTimeout(Math.max(0, IN_BANK_APP_MS - (Date.now() - inBankApp)))
      taps.provider++
      await bankApp.getByRole('button', { name: SANDBOX.pay }).click()
      await bankApp.waitForURL((url) => !SANDBOX_CHECKOUT.test(url.href), { timeout: 30_000 })
      await bankApp.close()
    } else {
      // YooKassa's QR: on a phone the link opens the bank app (NSPK's bank chooser)
      const bank = page.getByRole('link', { name: 'Открыть приложение банка' })
      await expect(bank).toBeVisible()
      await expect(bank).toHaveAttribute('href', /^https:\/\/qr\.nspk\.ru\//)
      taps.provider++
      taps.provider++
      await page.waitForTimeout(Math.max(0, IN_BANK_APP_MS - (Date.now() - inBankApp)))
      await yookassaPays(page, orderId)
    }
    // back on the pay page: it shows the paid order by itself, no tap and no reload by the buyer
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^(Заказ оплачен|Готово)$/, {
      timeout: 30_000,
    })
    const stillHere = await page.evaluate(
      () => (window as unknown as { stillHere?: boolean }).stillHere === true,
    )
    if (javaScript)
      expect(stillHere, 'with JavaScript the page followed the payment without reloading').toBe(true)
    else {
      expect(stillHere, 'without JavaScript the page reloaded itself').toBe(false)
      expect(new URL(page.url()).searchParams.get('waited'), 'the url counts the reloads').toMatch(/^[1-9]/)
    }
    return
  }
  if (where === 'sandbox') {
    await expect(page.getByRole('heading', { name: SANDBOX.heading })).toBeVisible()
    taps.provider++
    await page.getByRole('button', { name: SANDBOX.pay }).click()
    await page.waitForURL(payUrl, { timeout: 30_000 })
    return
  }
  // YooKassa's card page
  await expect(page.getByRole('heading', { name: 'Оплата картой' })).toBeVisible()
  taps.provider++
  await yookassaPays(page, orderId)
  await page.goto(payUrl)
}

export function purchaseTaps(javaScript: boolean) {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true })

  test('a guest buys 325 UC in at most 5 taps, one screen of scrolling per page, the code on the first screen', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000)
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    const taps = new Taps(page)

    await page.goto(`/products/${await gameId(request, 'PUBGGame')}`)
    await expect(orderForm(page)).toBeVisible()
    const pack = quantity(page, '325 UC')
    if (javaScript) await taps.tap(page.getByRole('button', { name: 'Увеличить количество: 325 UC' }))
    else await taps.type(pack, '1')
    await expect(pack).toHaveValue('1')
    await taps.type(page.getByLabel('Электронная почта'), guestEmail('taps'))
    await taps.tick(page.getByLabel(CONSENT))
    await taps.tap(page.getByRole('button', { name: 'Перейти к оплате' }))

    // the pay page: the method the page checked for the buyer, the pay button in the sticky bar
    await expect(page).toHaveURL(PAY_URL, { timeout: 30_000 })
    const payUrl = page.url()
    await expect(page.getByRole('radio', { checked: true })).toHaveCount(1)
    const pay = page.getByRole('button', { name: /^Перейти к оплате/ })
    const box = await pay.boundingBox()
    expect(box, 'the pay button is on the page').not.toBeNull()
    expect(box!.y + box!.height, 'the pay button is in reach without scrolling').toBeLessThanOrEqual(
      PHONE.height,
    )
    await taps.tap(pay)

    // the provider's side, by the method the page checked (the cheapest, unless this order was
    // paid with another before): the e2e shop's own is the sandbox's SBP QR; a YooKassa method
    // the owner adds in another spec on the same server can be cheaper
    await payAtProvider(page, taps, payUrl, javaScript)

    // the success page: «Готово» and the code on its first screen (delivery is a job: reload)
    const code = page.getByRole('region', { name: 'Ваши коды' }).getByRole('listitem').first().locator('code')
    await expect(async () => {
      if (!(await code.isVisible())) await page.reload()
      await expect(code).toBeVisible({ timeout: 2_000 })
    }).toPass({ timeout: 40_000 })
    await expect(page.getByRole('heading', { level: 1, name: 'Готово' })).toBeVisible()
    await page.evaluate(() => window.scrollTo(0, 0))
    await taps.read(code)

    expect(taps.shop, 'taps on the shop’s pages').toBeLessThanOrEqual(5)
    expect(taps.provider, 'taps on the provider’s side (bank app, checkout)').toBeLessThanOrEqual(2)
    for (const [path, bottom] of taps.reach) {
      expect(bottom, `${path}: within one screen of scrolling`).toBeLessThanOrEqual(2 * PHONE.height)
    }
    // the code's page needs no scrolling at all
    expect(taps.reach.get(new URL(payUrl).pathname)).toBeLessThanOrEqual(2 * PHONE.height)
    expect(
      await code.evaluate((el) => el.getBoundingClientRect().bottom),
      'the code ends on the first screen',
    ).toBeLessThanOrEqual(PHONE.height)
  })
}
