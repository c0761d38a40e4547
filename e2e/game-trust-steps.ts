// The game page where the buyer decides (issue 50), shared by game-trust.spec.ts (JavaScript on)
// and game-trust.nojs.spec.ts (off), at 360×740: the trust lines under the header on the first
// screen; a pack with few codes left says how many; a refusal about one pack lands on that pack;
// the owner's support hours (set at /admin/shop) beside the support contact there and in the footer.
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import { withShopLock } from './seller-lock'
import { gameId } from './demo-catalogue'
import { guestEmail, orderForm, quantity, submitOrder } from './purchase-steps'

export const PHONE = { width: 360, height: 740 }

export function trustList(page: Page) {
  return page.getByRole('list', { name: 'Выдача, возврат, поддержка и оплата' })
}

export async function trustLinesOnFirstScreen(page: Page, request: APIRequestContext) {
  await page.goto(`/products/${await gameId(request, 'PUBGGame')}`)
  const trust = trustList(page)
  await expect(trust).toContainText('Выдача сразу после оплаты')
  await expect(trust).toContainText('Не выдали — вернём деньги.')
  await expect(trust.getByRole('link', { name: 'Правила возврата' })).toHaveAttribute('href', '/info/refunds')
  await expect(trust).toContainText(/Поддержка: \S+/)
  await expect(trust).toContainText('Оплата: карты СБП')
  // under the header and wholly above the sticky bar of the first screen
  const box = (await trust.boundingBox())!
  const header = (await page.locator('.game-page__header').boundingBox())!
  const bar = (await orderForm(page).locator('.order-bar').boundingBox())!
  expect(box.y).toBeGreaterThanOrEqual(header.y + header.height)
  expect(box.y + box.height).toBeLessThanOrEqual(bar.y)
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
  // the refund promise leads to the rules, which are never empty
  await trust.getByRole('link', { name: 'Правила возврата' }).click()
  await expect(page).toHaveURL(/\/info\/refunds$/)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
}

async function ownerToken(request: APIRequestContext): Promise<string> {
  const res = await request.post('/api/auth/jwt/create/', { data: OWNER })
  expect(res.status(), await res.text()).toBe(200)
  return ((await res.json()) as { access: string }).access
}

/** A new PUBG game: «60 UC» with 8 codes (listed first), then «77 UC» with only 2. */
export async function fewLeftGame(request: APIRequestContext): Promise<number> {
  const headers = { authorization: `Bearer ${await ownerToken(request)}` }
  const game = await request.post('/api/admin/games/', {
    headers,
    data: {
      kind: 'PUBGGame',
      title: `Мало кодов ${Math.floor(Math.random() * 1e6)}`,
      is_active: true,
      // listed last: the catalogue's own pages (e2e/catalogue*.spec.ts) keep their games in place
      sort_order: 1000,
    },
  })
  expect(game.status(), await game.text()).toBe(200)
  const id = ((await game.json()) as { id: number }).id
  for (const [title, uc, codes] of [
    ['60 UC', 60, 8],
    ['77 UC', 77, 2],
  ] as const) {
    const product = await request.post(`/api/admin/games/${id}/products/`, {
      headers,
      data: { title, price: '99.00', amount_uc: uc, min_quantity: 1, max_quantity: 5 },
    })
    expect(product.status(), await product.text()).toBe(200)
    const productId = ((await product.json()) as { id: number }).id
    const tag = Math.random().toString(36).slice(2, 8).toUpperCase()
    const text = Array.from({ length: codes }, (_, i) => `FEW-${tag}-${i}`).join('\n')
    const res = await request.post(`/api/admin/stock/products/${productId}/codes/`, {
      headers,
      data: { text },
    })
    expect(res.status(), await res.text()).toBe(200)
  }
  return id
}

function tile(page: Page, title: string) {
  return page.getByRole('group', { name: 'Выберите товары' }).getByRole('listitem').filter({ hasText: title })
}

export async function fewLeftAndRefusalOnItsPack(page: Page, request: APIRequestContext, js: boolean) {
  const id = await fewLeftGame(request)
  await page.goto(`/products/${id}`)
  await expect(tile(page, '77 UC').getByTestId('stock-left')).toHaveText('Осталось 2 штуки')
  // 8 left is not «few»: nothing is said about it
  await expect(tile(page, '60 UC').getByTestId('stock-left')).toHaveCount(0)
  if (js) {
    // «+» stops at what is left
    await expect(orderForm(page)).toHaveAttribute('data-live', '', { timeout: 20_000 })
    const plus = page.getByRole('button', { name: 'Увеличить количество: 77 UC' })
    await plus.click()
    await plus.click()
    await expect(quantity(page, '77 UC')).toHaveValue('2')
    await expect(plus).toBeDisabled()
  }
  // more than is left, typed, with another pack chosen first in the grid
  await quantity(page, '60 UC').fill('1')
  await quantity(page, '77 UC').fill('3')
  await orderForm(page).getByLabel('Электронная почта').fill(guestEmail('few'))
  await orderForm(page).getByLabel('Я даю согласие на обработку персональных данных').check()
  await submitOrder(page)
  // the refusal is told at the pack it is about, and the focus is there, not on «60 UC»
  await expect(tile(page, '77 UC')).toContainText('«77 UC»: столько нет в наличии (доступно: 2)')
  await expect(quantity(page, '77 UC')).toBeFocused()
  await expect(quantity(page, '77 UC')).toHaveAttribute('aria-invalid', 'true')
  await expect(tile(page, '60 UC')).not.toContainText('нет в наличии')
}

/**
 * The owner writes the support hours at /admin/shop (a line break is refused in Russian); the game
 * page's trust line and the footer show them beside the contact. Put back afterwards, under the
 * shop settings' lock shared with the other workers.
 */
export async function supportHoursInTheTrustLine(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
) {
  const token = await signInAs(context, request, OWNER)
  const auth = { authorization: `Bearer ${token}` }
  const game = `/products/${await gameId(request, 'PUBGGame')}`
  await withShopLock(async () => {
    const before = (await (await request.get('/api/admin/shop/', { headers: auth })).json()) as Record<
      string,
      unknown
    >
    try {
      const hours = `ежедневно с 10 до 22 МСК ${Math.floor(Math.random() * 1e4)}`
      await page.goto('/admin/shop')
      const settings = page.getByRole('form', { name: 'Магазин: название и контакты' })
      const field = settings.getByLabel('Часы работы поддержки')
      await field.fill('я'.repeat(81))
      await settings.getByRole('button', { name: 'Сохранить' }).click()
      await expect(page.getByText('часы работы поддержки — не длиннее 80 символов').first()).toBeVisible()
      await settings.getByLabel('Часы работы поддержки').fill(hours)
      await settings.getByRole('button', { name: 'Сохранить' }).click()
      await expect(page.getByText('Настройки магазина сохранены')).toBeVisible()

      // the storefront's pages are kept a moment (CATALOGUE_CACHE_SECONDS): the next load shows them
      await expect(async () => {
        await page.goto(game)
        await expect(trustList(page)).toContainText(hours, { timeout: 1000 })
      }).toPass({ timeout: 15_000 })
      const trust = trustList(page)
      await expect(trust.getByRole('listitem').filter({ hasText: 'Поддержка:' })).toContainText(
        new RegExp(`^Поддержка: \\S+, ${hours}$`),
      )
      // still on the first screen, within the phone's width
      const box = (await trust.boundingBox())!
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height)
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
      await expect(page.getByRole('contentinfo')).toContainText(hours)
    } finally {
      const put = await request.put('/api/admin/shop/', {
        headers: auth,
        data: { ...before, support_hours: '' },
      })
      expect(put.status(), await put.text()).toBe(200)
    }
  })
}

export function gameTrust(js: boolean) {
  test.use({ viewport: PHONE })

  test('the trust lines sit under the header, on the first screen, and lead to the refund rules', async ({
    page,
    request,
  }) => {
    await trustLinesOnFirstScreen(page, request)
  })

  test('the owner’s support hours show beside the support contact, under the header and in the footer', async ({
    page,
    context,
    request,
  }) => {
    await supportHoursInTheTrustLine(page, context, request)
  })

  test('a pack with few codes says how many are left; a refusal about it lands on its tile', async ({
    page,
    request,
  }) => {
    await fewLeftAndRefusalOnItsPack(page, request, js)
  })
}
