// A payment the shop cannot accept (decision 037): the shopper pays in the sandbox after the order
// was cancelled. The money is refused and given back, the order stays as it was, and the pay page
// says so — with JavaScript on and off (the note is rendered by the server, no code of its own).
import { type APIRequestContext, expect, type Page, test } from '@playwright/test'
import { OWNER } from './admin-helpers'
import {
  choosePaymentMethod,
  confirmInSandbox,
  createPubgOrder,
  METHOD_BY_SCENARIO,
  payPath,
  statusHeading,
} from './payment-steps'

/** The owner cancels the order through the back-office API while the shopper is at the checkout. */
async function cancelAsOwner(request: APIRequestContext, orderId: string) {
  const signIn = await request.post('/api/auth/jwt/create/', { data: OWNER })
  expect(signIn.status(), await signIn.text()).toBe(200)
  const { access } = (await signIn.json()) as { access: string }
  const res = await request.post(`/api/admin/orders/${orderId}/cancel/`, {
    headers: { authorization: `Bearer ${access}` },
  })
  expect(res.status(), await res.text()).toBe(200)
}

/** Starts a sandbox payment, has the order cancelled, then pays: back on the pay page. */
async function payACancelledOrder(page: Page, request: APIRequestContext) {
  const id = await createPubgOrder(request, '660 UC', 1)
  await page.goto(payPath(id))
  await choosePaymentMethod(page, METHOD_BY_SCENARIO.redirect)
  await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout\//)
  await cancelAsOwner(request, id)
  await confirmInSandbox(page)
  await expect(page).toHaveURL(payPath(id))
  return id
}

async function expectRefusedNote(page: Page) {
  const note = page.getByRole('alert').filter({ hasText: 'Платёж не засчитан' })
  await expect(note).toHaveCount(1)
  // the amount the sandbox took (the order's 899,00 ₽ plus the card method's fee)
  await expect(note).toContainText(/^Платёж не засчитан — возвращаем деньги: \d[\d\s]*,\d{2}\s₽\./)
  // the sandbox's refund job may already have run: "will be returned" or "returned"
  await expect(note).toContainText(/Деньги (вернутся|возвращены) тем же способом, которым вы платили/)
  // the order keeps its own state: cancelled, not paid
  await expect(page.getByTestId('order-status')).toHaveText('Ошибка')
  await expect(statusHeading(page, 'Ошибка')).toBeVisible()
  await expect(page.getByText('Причина:')).toBeVisible()
  await expect(page.getByRole('region', { name: 'Ваши коды' })).toHaveCount(0)
}

test('with JavaScript: the pay page shows «Платёж не засчитан — возвращаем деньги»', async ({
  page,
  request,
}) => {
  const id = await payACancelledOrder(page, request)
  await expectRefusedNote(page)
  // the status answer carries the returned payment; the order's own fields are unchanged
  const status = await (await request.get(`/api/orders/status/${id}/`)).json()
  expect(status).toMatchObject({
    status: 'failed',
    payment_status: 'failed',
    returned_payments: [
      { amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: 'RUB', method: 'provider' },
    ],
  })
  // a reload (a replayed visit) shows one note, not two
  await page.reload()
  await expectRefusedNote(page)
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the same note, rendered by the server', async ({ page, request }) => {
    await payACancelledOrder(page, request)
    await expectRefusedNote(page)
  })
})
