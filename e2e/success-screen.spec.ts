// The success screen and a declined payment at 360×740 with JavaScript on (issue 50), and a paid
// order's picks leaving the cart the game page keeps in the browser.
import { expect, test } from '@playwright/test'
import { pubgProduct } from './account-helpers'
import { choosePaymentMethod, confirmInSandbox, METHOD_BY_SCENARIO, payPath } from './payment-steps'
import { declinedPaymentSaysSoAtTheTop, PHONE, successScreenShowsTheCode } from './success-screen-steps'

test('a done order leads with «Готово», its number and the code with its copy button on the first screen', async ({
  page,
}) => {
  await successScreenShowsTheCode(page, true)
})

test('a declined payment says at the top that no money was taken; the retry pays', async ({ page }) => {
  await declinedPaymentSaysSoAtTheTop(page, true)
})

test('a paid order clears its packs from the stored cart, keeping the packs it did not buy', async ({
  page,
}) => {
  await page.setViewportSize(PHONE)
  const { game, product } = await pubgProduct(page.request)
  const other = game.products.find((p) => p.id !== product.id)!
  const res = await page.request.post('/api/orders/pubg/', {
    data: { products: [{ product_id: product.id, quantity: 1 }], email: `cart-${Date.now()}@example.com` },
  })
  expect(res.ok(), await res.text()).toBe(true)
  const { id } = (await res.json()) as { id: string }
  await page.goto(payPath(id))
  // what the game page left in the browser: this pack (bought now) and another (not bought)
  const stored = { [game.id]: { [product.id]: 1, [other.id]: 2 } }
  await page.evaluate((cart) => localStorage.setItem('cart', JSON.stringify(cart)), stored)
  const readCart = () => page.evaluate(() => JSON.parse(localStorage.getItem('cart') ?? '{}'))
  await page.reload()
  // not paid yet: the picks stay
  expect(await readCart()).toEqual(stored)
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
  await confirmInSandbox(page)
  await expect(page.getByRole('heading', { level: 1, name: 'Готово' })).toBeVisible({ timeout: 15_000 })
  await expect.poll(readCart).toEqual({ [game.id]: { [other.id]: 2 } })
})
