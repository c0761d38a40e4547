// Steps of the antifraud review specs (issue 34; JS on and off, 360 px): a first-time email buys
// PUBG codes above the 3,000 ₽ threshold, the order is paid but held (the pay page says it is being
// checked and shows no code); the owner approves it at /admin/delivery/review and the buyer's page
// then shows the code, or rejects it and the buyer's page shows the refund.
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { OWNER, orderNumberOf, signInAs } from './admin-helpers'
import { createPubgOrder, payWithSandbox, pubgProduct } from './account-helpers'
import { payPath } from './payment-steps'

const PHONE = { width: 360, height: 780 }

/** A first-time guest's paid PUBG order above the first-order threshold (3,000 ₽); its id. */
async function heldOrder(request: APIRequestContext): Promise<string> {
  const { game } = await pubgProduct(request)
  // the dearest pack, so that at most 10 of them (the per-line maximum) pass 3,000 ₽
  const [product] = (game.products as unknown as Array<{ id: number; is_active: boolean; price: string }>)
    .filter((p) => p.is_active)
    .sort((a, b) => Number(b.price) - Number(a.price))
  const quantity = Math.floor(3000 / Number(product!.price)) + 1
  expect(quantity).toBeLessThanOrEqual(10)
  const email = `first-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const id = await createPubgOrder(request, null, product!.id, quantity, email)
  await payWithSandbox(request, null, id)
  return id
}

/** The buyer's pay page while the order is held: «на проверке», no code. */
async function buyerSeesHeld(page: Page, id: string) {
  await page.goto(payPath(id))
  await expect(page.getByText(/Заказ на проверке — обычно до 30 минут/)).toBeVisible()
  await expect(page.getByRole('region', { name: 'Ваши коды' })).toHaveCount(0)
  await expect(page.getByText(/UC-/)).toHaveCount(0)
}

/** The owner decides at the desk's «Проверка» tab. */
async function ownerDecides(page: Page, id: string, decision: 'approve' | 'reject') {
  await page.goto('/admin/delivery/review')
  await expect(page.getByRole('heading', { level: 1, name: 'Проверка' })).toBeVisible()
  const name = `№ ${await orderNumberOf(page.request, id)}`
  const card = page.getByRole('listitem', { name })
  await expect(card).toContainText('первый заказ почты дороже порога')
  if (decision === 'approve') {
    await card.getByRole('button', { name: 'Одобрить' }).click()
    await expect(page.getByText('Заказ одобрен').first()).toBeVisible({ timeout: 15_000 })
  } else {
    await card.getByText('Отклонить', { exact: true }).first().click()
    await card.getByLabel('Причина (видят только сотрудники)').fill('Карта похожа на украденную')
    await card.getByRole('button', { name: 'Отклонить' }).click()
    await expect(page.getByText('Заказ отклонён, деньги возвращаются').first()).toBeVisible({
      timeout: 15_000,
    })
  }
  await expect(page.getByRole('listitem', { name })).toHaveCount(0)
}

/** After approval the buyer's page shows the code. */
async function buyerSeesCode(page: Page, id: string) {
  await expect(async () => {
    await page.goto(payPath(id))
    await expect(page.getByRole('region', { name: 'Ваши коды' }).locator('code').first()).toHaveText(/^UC-/, {
      timeout: 2_000,
    })
  }).toPass({ timeout: 20_000 })
  await expect(page.getByText(/Заказ на проверке/)).toHaveCount(0)
}

/** After rejection the buyer's page shows the refund and no code. */
async function buyerSeesRefund(page: Page, id: string) {
  await expect(async () => {
    await page.goto(payPath(id))
    await expect(page.getByTestId('order-refund')).toBeVisible({ timeout: 2_000 })
  }).toPass({ timeout: 20_000 })
  await expect(page.getByRole('region', { name: 'Ваши коды' })).toHaveCount(0)
}

/** «Антифрод»: a wrong threshold gets a Russian error by its field; the form saves as it was. */
async function ownerEditsAntifraud(page: Page) {
  await page.goto('/admin/antifraud')
  await expect(page.getByRole('heading', { level: 1, name: 'Антифрод' })).toBeVisible()
  const threshold = page.getByLabel('Порог первого заказа, ₽', { exact: true })
  await expect(threshold).toHaveValue('3000')
  await threshold.fill('три тысячи')
  await page.getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.getByText(/введите сумму в рублях/).first()).toBeVisible()
  await expect(page.getByLabel('Порог первого заказа, ₽', { exact: true })).toHaveValue('три тысячи')
  await page.getByLabel('Порог первого заказа, ₽', { exact: true }).fill('3000')
  await page.getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.getByText('Настройки антифрода сохранены').first()).toBeVisible()
}

/** Блокировки: a bad email is refused in Russian; a good one is listed, then unblocked. */
async function ownerBlocksAndUnblocks(page: Page) {
  const email = `blocked-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  await page.goto('/admin/blocks')
  await expect(page.getByRole('heading', { level: 1, name: 'Блокировки' })).toBeVisible()
  await page.getByLabel('Значение').fill('не почта')
  await page.getByRole('button', { name: 'Заблокировать' }).click()
  await expect(page.getByText(/Введите адрес почты/).first()).toBeVisible()
  await page.getByLabel('Значение').fill(email)
  await page.getByRole('button', { name: 'Заблокировать' }).click()
  await expect(page.getByText('Добавлено в список блокировок').first()).toBeVisible()
  const row = page.getByRole('listitem', { name: `Почта: ${email}` })
  await row.getByRole('button', { name: 'Разблокировать' }).click()
  await expect(page.getByRole('listitem', { name: `Почта: ${email}` })).toHaveCount(0, { timeout: 15_000 })
}

/** The specs' tests, with JavaScript on or off (the buyer's and the owner's pages alike). */
export function antifraudReviewTests(javaScriptEnabled: boolean) {
  test.use({ viewport: PHONE, javaScriptEnabled })

  test('held for review: approved shows the code, rejected shows the refund', async ({
    page,
    context,
    browser,
    request,
  }) => {
    test.setTimeout(120_000)
    const guest = await browser.newContext({ viewport: PHONE, javaScriptEnabled })
    const buyer = await guest.newPage()
    const approved = await heldOrder(request)
    const rejected = await heldOrder(request)
    await buyerSeesHeld(buyer, approved)
    await buyerSeesHeld(buyer, rejected)

    await signInAs(context, request, OWNER)
    await ownerDecides(page, approved, 'approve')
    await buyerSeesCode(buyer, approved)
    await ownerDecides(page, rejected, 'reject')
    await buyerSeesRefund(buyer, rejected)
    await guest.close()
  })

  test('the owner edits «Антифрод» and the block list, with Russian form errors', async ({
    page,
    context,
    request,
  }) => {
    await signInAs(context, request, OWNER)
    await ownerEditsAntifraud(page)
    await ownerBlocksAndUnblocks(page)
  })
}
