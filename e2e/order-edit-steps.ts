// Changing an unpaid order from its payment page («Изменить заказ»), shared by the JavaScript on
// (order-edit.spec.ts) and off (order-edit.nojs.spec.ts) specs: on a 360 px phone the shopper
// changes the quantities (the summary and the totals follow), the email, a Steam amount and login;
// refusals show at their field and keep what was typed. The order is read back through the API.
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { createPubgOrder, createSteamOrder, email, payPath } from './payment-steps'

const PHONE = { width: 360, height: 740 }

interface OrderWire {
  products: Array<{ title: string; quantity: number }>
  email: string | null
  amount?: string
  steam_account_id?: string
  total_without_promocode: string
}

async function orderOf(request: APIRequestContext, id: string): Promise<OrderWire> {
  const res = await request.get(`/api/orders/${id}/`)
  expect(res.ok()).toBe(true)
  return (await res.json()) as OrderWire
}

/**
 * Opens «Изменить заказ» (a native disclosure: works without JavaScript too). With JavaScript it
 * stays open after a save; without, the page is new and it is closed again.
 */
async function openEditor(page: Page) {
  const editor = page.getByRole('region', { name: 'Изменить заказ' })
  if (!(await editor.getByRole('button', { name: 'Сохранить получателя' }).isVisible())) {
    await editor.getByText('Изменить заказ', { exact: true }).click()
  }
  await expect(editor.getByRole('button', { name: 'Сохранить получателя' })).toBeVisible()
  return editor
}

const summary = (page: Page) => page.getByRole('region', { name: 'Состав заказа' })

/** "2222.10" → "2 222,10 ₽" as app/lib/money.ts writes it. */
const rub = (wire: string) => {
  const [whole, cents] = wire.split('.')
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')},${cents}\u00a0₽`
}

export function orderEditSteps() {
  test.use({ viewport: PHONE })

  test('changes the quantities and the email of an unpaid PUBG order', async ({ page, request }) => {
    const id = await createPubgOrder(request, '660 UC', 1)
    await page.goto(payPath(id))
    const editor = await openEditor(page)
    await editor.getByRole('spinbutton', { name: 'Количество в заказе: 660 UC' }).fill('2')
    await editor.getByRole('spinbutton', { name: 'Количество в заказе: 60 UC' }).fill('1')
    await editor.getByRole('button', { name: 'Сохранить товары' }).click()
    await expect(page.getByText('Заказ изменён, итог пересчитан')).toBeVisible()

    await expect(summary(page).getByRole('row', { name: /660 UC/ })).toContainText('2 шт.')
    await expect(summary(page).getByRole('row', { name: /^60 UC/ })).toContainText('1 шт.')
    const changed = await orderOf(request, id)
    expect(changed.products.map((p) => `${p.title}×${p.quantity}`).sort()).toEqual(['60 UC×1', '660 UC×2'])
    await expect(page.getByTestId('total-without-promo')).toHaveText(rub(changed.total_without_promocode))

    const newEmail = email('edit')
    const again = await openEditor(page)
    await again.getByLabel('Почта для получения заказа').fill(newEmail)
    await again.getByRole('button', { name: 'Сохранить получателя' }).click()
    // (its toast may wait behind the first one: one toast shows at a time)
    await expect(summary(page)).toContainText(newEmail)
    expect((await orderOf(request, id)).email).toBe(newEmail)
  })

  test('refusals show in the editor and change nothing', async ({ page, request }) => {
    const id = await createPubgOrder(request, '660 UC', 1)
    await page.goto(payPath(id))
    let editor = await openEditor(page)
    await editor.getByRole('spinbutton', { name: 'Количество в заказе: 660 UC' }).fill('0')
    await editor.getByRole('button', { name: 'Сохранить товары' }).click()
    // the editor stays open with the reason, and what was typed stays
    editor = page.getByRole('region', { name: 'Изменить заказ' })
    await expect(editor.getByRole('alert')).toHaveText('Выберите хотя бы один товар')
    await expect(editor.getByRole('spinbutton', { name: 'Количество в заказе: 660 UC' })).toHaveValue('0')

    await editor.getByLabel('Почта для получения заказа').fill('not-an-email')
    await editor.getByRole('button', { name: 'Сохранить получателя' }).click()
    const emailField = page
      .getByRole('region', { name: 'Изменить заказ' })
      .getByLabel('Почта для получения заказа')
    await expect(emailField).toHaveAttribute('aria-invalid', 'true')
    await expect(emailField).toHaveValue('not-an-email')
    await expect(emailField).toHaveAccessibleDescription(/[а-я]/i)

    const order = await orderOf(request, id)
    expect(order.products.map((p) => `${p.title}×${p.quantity}`)).toEqual(['660 UC×1'])
    expect(order.email).toMatch(/^pay-pubg-/)
  })

  test('changes the amount and the login of an unpaid Steam top-up', async ({ page, request }) => {
    const id = await createSteamOrder(request, '1000.00')
    await page.goto(payPath(id))
    const editor = await openEditor(page)
    await editor.getByLabel('Сумма пополнения, ₽').fill('250,50')
    await editor.getByRole('button', { name: 'Сохранить сумму' }).click()
    await expect(page.getByText('Заказ изменён, итог пересчитан')).toBeVisible()
    await expect(summary(page)).toContainText('250,50\u00a0₽')
    const changed = await orderOf(request, id)
    expect(changed.amount).toBe('250.50')
    await expect(page.getByTestId('total-without-promo')).toHaveText(rub(changed.total_without_promocode))

    const again = await openEditor(page)
    await again.getByLabel('Steam-аккаунт').fill('new_login_e2e')
    await again.getByRole('button', { name: 'Сохранить получателя' }).click()
    await expect(summary(page)).toContainText('new_login_e2e')
    expect((await orderOf(request, id)).steam_account_id).toBe('new_login_e2e')
  })
}
