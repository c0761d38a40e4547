// The game page sells on its first screen (issue 50): at 360×740, before any scrolling, at least
// four pack tiles are wholly on screen above the sticky bar, the bar's «Перейти к оплате» is in
// view, nothing scrolls sideways; the bar stays in reach while the form is filled and never covers
// the focused field; a pack picked from the grid still reaches the payment page. Shared by
// game-first-screen.spec.ts (JavaScript on) and game-first-screen.nojs.spec.ts (off).
import { expect, type Page, test } from '@playwright/test'
import { gameId } from './demo-catalogue'
import { guestEmail, orderForm, PAY_URL, quantity, submitOrder } from './purchase-steps'

const PHONE = { width: 360, height: 740 }

/** Where the pack tiles and the bar are, at the scroll position of the moment. */
async function firstScreen(page: Page) {
  const tiles = page.getByRole('group', { name: 'Выберите товары' }).getByRole('listitem')
  const bar = await orderForm(page).locator('.order-bar').boundingBox()
  const submit = await page.getByRole('button', { name: 'Перейти к оплате' }).boundingBox()
  const boxes = await tiles.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect()
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }
    }),
  )
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth)
  return { boxes, bar, submit, scrollWidth }
}

async function waitForForm(page: Page, js: boolean) {
  await expect(orderForm(page)).toBeVisible()
  // with JavaScript, once the form's own code runs (it marks the form live)
  if (js) await expect(orderForm(page)).toHaveAttribute('data-live', '', { timeout: 20_000 })
}

export function gameFirstScreen(js: boolean) {
  test.use({ viewport: PHONE })

  for (const kind of ['PUBGGame', 'StandoffGame', 'SupplyGame']) {
    test(`${kind}: four packs and the sticky bar on the first screen at 360×740`, async ({
      page,
      request,
    }) => {
      await page.goto(`/products/${await gameId(request, kind)}`)
      await waitForForm(page, js)
      const { boxes, bar, submit, scrollWidth } = await firstScreen(page)
      expect(scrollWidth, 'no sideways scroll').toBeLessThanOrEqual(PHONE.width)
      expect(bar, 'the bar is on the page').not.toBeNull()
      expect(submit, 'the submit is on the page').not.toBeNull()
      // the bar, with the submit, sits at the bottom of the first screen
      expect(bar!.y + bar!.height).toBeLessThanOrEqual(PHONE.height + 0.5)
      expect(submit!.y).toBeGreaterThanOrEqual(0)
      expect(submit!.y + submit!.height).toBeLessThanOrEqual(PHONE.height)
      // whole tiles, above the bar and inside the screen's width
      const whole = boxes.filter(
        (b) => b.top >= 0 && b.bottom <= bar!.y + 0.5 && b.left >= 0 && b.right <= PHONE.width,
      )
      expect(
        whole.length,
        `packs wholly on the first screen: ${JSON.stringify(boxes)}`,
      ).toBeGreaterThanOrEqual(4)
      // two tiles side by side: a grid, not a list of full-width cards
      expect(new Set(whole.map((b) => Math.round(b.top))).size).toBeLessThan(whole.length)
    })
  }

  test('Steam: the amount form with the bar on the first screen, nothing sideways', async ({
    page,
    request,
  }) => {
    await page.goto(`/products/${await gameId(request, 'Steam')}`)
    await expect(orderForm(page)).toBeVisible()
    const { bar, submit, scrollWidth } = await firstScreen(page)
    expect(scrollWidth).toBeLessThanOrEqual(PHONE.width)
    expect(bar!.y + bar!.height).toBeLessThanOrEqual(PHONE.height + 0.5)
    expect(submit!.y + submit!.height).toBeLessThanOrEqual(PHONE.height)
    await expect(orderForm(page).getByLabel('Сумма пополнения, ₽')).toBeVisible()
  })

  test('PUBG: pick 325 UC from the grid, the bar stays in reach and off the focused field, pay', async ({
    page,
    request,
  }) => {
    await page.goto(`/products/${await gameId(request, 'PUBGGame')}`)
    await waitForForm(page, js)
    if (js) {
      await page.getByRole('button', { name: 'Увеличить количество: 325 UC' }).click()
      // the bar names the pick
      await expect(page.getByTestId('order-pick')).toHaveText('325 UC × 1')
    } else {
      await quantity(page, '325 UC').fill('1')
    }
    await expect(quantity(page, '325 UC')).toHaveValue('1')
    // the email is below the first screen: focusing it scrolls it clear of the sticky bar
    const emailField = page.getByLabel('Электронная почта')
    await emailField.focus()
    await emailField.fill(guestEmail('grid'))
    const field = await emailField.boundingBox()
    const bar = await orderForm(page).locator('.order-bar').boundingBox()
    expect(field!.y + field!.height, 'the focused field is above the bar').toBeLessThanOrEqual(bar!.y)
    // the submit is still on screen while the form is scrolled
    const submit = await page.getByRole('button', { name: 'Перейти к оплате' }).boundingBox()
    expect(submit!.y).toBeGreaterThanOrEqual(0)
    expect(submit!.y + submit!.height).toBeLessThanOrEqual(PHONE.height)
    await page.getByLabel('Я даю согласие на обработку персональных данных').check()
    await submitOrder(page)
    await expect(page).toHaveURL(PAY_URL)
  })
}
