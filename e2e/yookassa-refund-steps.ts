// A card payment through YooKassa with the method's fee, then the owner's refund (issue 32), end to
// end against the local fake (tests/fakes/yookassa-server.ts): the pay page says what will be and
// what was charged with the fee, the refund YooKassa receives is that charged amount, and the
// buyer's refund mail says it.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { FAKE_YOOKASSA_ORIGIN } from '../playwright.config'
import { OWNER, signInAs } from './admin-helpers'
import { waitForMail } from './mail-steps'
import { choosePaymentMethod, createPubgOrder, email, payPath } from './payment-steps'

const uniq = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`

/** «1234.56» as the page and the mails write it: «1 234,56 ₽» (any kind of space). */
function rub(wire: string): RegExp {
  const [whole, cents] = wire.split('.')
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '[\\s\\u202f\\u00a0]?')
  return new RegExp(`${grouped},${cents}[\\s\\u00a0]?₽`)
}

type Charged = { amount: string; fee: string; paid: boolean }

async function chargedOf(request: APIRequestContext, orderId: string): Promise<Charged> {
  const res = await request.get(`/api/orders/status/${orderId}/`)
  expect(res.ok(), await res.text()).toBe(true)
  const { charged } = (await res.json()) as { charged?: Charged }
  expect(charged, 'the order status says what is charged').toBeTruthy()
  return charged!
}

/** The owner adds a YooKassa card method with a 3 % fee to Russia's first group; its title. */
export async function ownerAddsCardWithFee(page: Page, context: BrowserContext, request: APIRequestContext) {
  const tag = uniq()
  const title = `Карта ЮKassa ${tag}`
  await signInAs(context, request, OWNER)
  await page.goto('/admin/payments')
  const russia = page.locator('section.card').filter({
    has: page.getByRole('heading', { level: 2, name: 'Россия', exact: true }),
  })
  const add = russia
    .locator('details')
    .filter({ has: page.locator('summary', { hasText: /^Добавить способ в группу/ }) })
    .first()
  await add.locator('summary').click()
  const form = add.getByRole('form')
  await form.getByLabel('Название для покупателя').fill(title)
  await form.getByLabel('Адрес способа').fill(`yk_card_${tag}`)
  await form.getByLabel('Платёжная система').selectOption('yookassa')
  await form.getByLabel('Вид оплаты').selectOption('bank_card')
  await form.getByLabel('Комиссия, %').fill('3')
  await form.getByLabel('Включён').check()
  await form.getByRole('button', { name: 'Добавить' }).click()
  await expect(page.getByText('Способ оплаты добавлен')).toBeVisible()
  await expect(page.getByTestId(`method-yk_card_${tag}`)).toContainText('включён')
  return title
}

/**
 * A guest orders, chooses the card method (off to YooKassa's card page), comes back and reads the
 * amount with the fee; the fake's payer pays and YooKassa notifies; the page says what was paid.
 */
export async function buyerPaysByCard(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
  title: string,
) {
  await context.clearCookies()
  const buyer = email('ykrefund')
  const orderId = await createPubgOrder(request, '60 UC', 1, buyer)

  await page.goto(payPath(orderId))
  await choosePaymentMethod(page, title)
  await page.waitForURL(/\/checkout\/payments\//, { timeout: 20_000 })

  const toPay = await chargedOf(request, orderId)
  expect(toPay.paid).toBe(false)
  expect(Number(toPay.fee)).toBeGreaterThan(0)
  await page.goto(payPath(orderId))
  const note = page.getByTestId('charged')
  await expect(note).toContainText(rub(toPay.amount))
  await expect(note).toContainText('в том числе комиссия способа оплаты')
  await expect(note).toContainText(rub(toPay.fee))
  await expect(note).toContainText(/^К оплате/)

  const data = await request.get(`/api/orders/payment_data/${orderId}/`)
  const { payment_id: paymentId, amount } = (await data.json()) as { payment_id: string; amount: string }
  expect(amount).toBe(toPay.amount)
  const paid = await request.post(`${FAKE_YOOKASSA_ORIGIN}/_test/succeed/${paymentId}`)
  expect(paid.ok(), await paid.text()).toBe(true)
  expect(((await paid.json()) as { notified: number }).notified).toBe(200)

  await page.reload()
  await expect(page.getByTestId('order-status')).toHaveText('Выполнен', { timeout: 20_000 })
  await expect(note).toContainText(/^Оплачено/)
  await expect(note).toContainText(rub(toPay.amount))
  await expect(note).toContainText(rub(toPay.fee))
  return { orderId, paymentId, buyer, charged: toPay.amount }
}

/** The owner refunds the done order; YooKassa gets the charged amount; the mail says it. */
export async function ownerRefundsCharged(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
  paid: { orderId: string; paymentId: string; buyer: string; charged: string },
) {
  await signInAs(context, request, OWNER)
  await page.goto(`/admin/orders/${paid.orderId}`)
  const form = page.getByRole('form', { name: 'Вернуть деньги' })
  await form.getByLabel('Причина для покупателя').fill('Код не подошёл (проверка возврата)')
  await form.getByRole('button', { name: 'Вернуть деньги' }).click()
  await expect(page.getByText('Возврат оформлен').first()).toBeVisible()

  // the refund job asks YooKassa once, for what the buyer was charged, fee included
  await expect
    .poll(
      async () => {
        const r = await request.get(`${FAKE_YOOKASSA_ORIGIN}/_test/refunds/${paid.paymentId}`)
        return ((await r.json()) as Array<{ amount: { value: string; currency: string } }>).map(
          (x) => x.amount,
        )
      },
      { timeout: 20_000, message: 'YooKassa received the refund' },
    )
    .toEqual([{ value: paid.charged, currency: 'RUB' }])

  const mail = await waitForMail(paid.buyer, /Возврат по заказу/, 30_000)
  expect(mail.text).toMatch(rub(paid.charged))
}
