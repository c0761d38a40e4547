// «Чеки» end to end (issue 47): with receipts on (the sandbox cash register) a guest's order is paid
// in the sandbox; the owner, on a phone, finds its receipt at /admin/receipts by the order's short
// number with the filters (a GET form), reads it as a receipt — seller and ИНН, the line in words,
// the total in roubles, ФН/ФД/ФП — opens the order and sees the same receipt on its card. A search
// that is not an order number is answered with a Russian message, not an error page.
import AxeBuilder from '@axe-core/playwright'
import { type APIRequestContext, type BrowserContext, expect, type Page, type Route } from '@playwright/test'
import { createPubgOrder, payWithSandbox, pubgProduct, uniqueEmail } from './account-helpers'
import { OWNER, orderNumberOf, signInAs } from './admin-helpers'
import { type Seller, withSellerChanged } from './seller-lock'

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa']

/** No axe violations on the page (a receipt's table, headings and link included). */
async function noAxeViolations(page: Page) {
  const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()
  expect(violations.map((v) => `${page.url()}: ${v.id} ${v.nodes[0]?.html}`)).toEqual([])
}

type Receipt = { total: string; items: Array<{ sum: string }> }

/** A wire amount ("1101.60") as the back-office prints it («1 101,60 ₽»), after a label. */
const roubles = (wire: string, label = '') => {
  const [whole, cents] = wire.split('.')
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '[\\s\u202f\u00a0]')
  return new RegExp(`${label}[\\s\u00a0]*${grouped},${cents}[\\s\u00a0]₽`)
}

/** Pays a guest order with receipts on; returns the order's id and short number, and its receipt. */
async function paidOrderWithReceipt(request: APIRequestContext, token: string) {
  const auth = { Authorization: `Bearer ${token}` }
  const receiptsOn = (before: Seller): Seller => ({
    ...before,
    legal_form: 'ООО',
    company_name: 'Чеки для бухгалтера',
    inn: '7707083893',
    ogrn: '1027700132195',
    address: before.address || 'Москва, ул. Тестовая, 1',
    email: before.email || 'shop@example.com',
    tax_system: 'usn_income',
    receipts_enabled: true,
    receipt_transport: 'sandbox',
  })
  return withSellerChanged(request, auth, receiptsOn, async () => {
    const { product } = await pubgProduct(request)
    const orderId = await createPubgOrder(request, null, product.id, 1, uniqueEmail('receipt'))
    await payWithSandbox(request, null, orderId)
    const number = await orderNumberOf(request, orderId)
    // the sandbox cash register registers it at once; the settling may finish a moment later
    let receipt: Receipt | undefined
    await expect
      .poll(
        async () => {
          const res = await request.get(`/api/admin/receipts/?q=${number}&status=registered`, {
            headers: auth,
          })
          receipt = ((await res.json()) as { results: Receipt[] }).results[0]
          return receipt !== undefined
        },
        { timeout: 20_000 },
      )
      .toBe(true)
    return { orderId, number, receipt: receipt! }
  })
}

export async function ownerReadsReceiptByOrderNumber(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
  // axe runs in the page: only where scripts run
  opts: { axe: boolean },
) {
  await page.setViewportSize({ width: 360, height: 800 })
  const token = await signInAs(context, request, OWNER)
  const { orderId, number, receipt } = await paidOrderWithReceipt(request, token)

  await page.goto('/admin/receipts')
  await expect(page.getByRole('heading', { level: 1, name: 'Кассовые чеки' })).toBeVisible()
  const filters = page.getByRole('search', { name: 'Поиск чеков' })
  await filters.getByLabel('Номер заказа').fill(`№ ${number}`)
  await filters.getByLabel('Статус').selectOption({ label: 'зарегистрирован' })
  await filters.getByLabel('Вид чека').selectOption({ label: 'Приход, полный расчёт' })
  await filters.getByRole('button', { name: 'Найти' }).click()
  await expect(page).toHaveURL(/[?&]kind=payment/)
  await expect(page.getByRole('status').filter({ hasText: 'Найдено' })).toHaveText('Найдено чеков: 1')

  const card = page.getByTestId('admin-receipt')
  await expect(card).toHaveCount(1)
  await expect(card.getByRole('heading', { name: /Приход, полный расчёт/ })).toBeVisible()
  await expect(card).toContainText('зарегистрирован')
  await expect(card).toContainText('ООО Чеки для бухгалтера')
  await expect(card).toContainText('7707083893')
  await expect(card).toContainText('УСН «доходы»')
  await expect(card).toContainText('товар')
  await expect(card).toContainText('полный расчёт')
  await expect(card).toContainText(roubles(receipt.total, 'Итого'))
  await expect(card).toContainText(roubles(receipt.items[0]!.sum))
  await expect(card).toContainText(/ФН\s*9999999999999999/)
  await expect(card).toContainText(/ФД\s*\d+/)
  await expect(card).toContainText(/ФП\s*\d+/)
  await expect(card).toContainText(/Зарегистрирован\s*\d{2}\.\d{2}\.\d{4} \d{2}:\d{2} МСК/)
  // kopecks and raw names never show
  await expect(card).not.toContainText('full_payment')
  await expect(card).not.toContainText(/\d\.\d{2}(?![\d.])/)
  // nothing sideways on a phone
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  if (opts.axe) await noAxeViolations(page)

  // the order card shows the same receipt
  await card.getByRole('link', { name: `№ ${number}` }).click()
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}$`))
  const onCard = page.getByTestId('order-receipts')
  await expect(onCard.getByRole('heading', { name: 'Кассовые чеки' })).toBeVisible()
  await expect(onCard.getByTestId('admin-receipt')).toHaveCount(1)
  await expect(onCard).toContainText(/ФН\s*9999999999999999/)
  await expect(onCard).toContainText(roubles(receipt.total, 'Итого'))
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360)
  if (opts.axe) await noAxeViolations(page)

  // a search that is not an order: the reason in Russian, the form kept
  await page.goto('/admin/receipts?q=buyer%40example.com')
  await expect(page.getByRole('alert').filter({ hasText: 'Чек ищут' })).toHaveText(
    'Чек ищут по номеру заказа («№ 10234») или его полному идентификатору',
  )
  await expect(page.getByLabel('Номер заказа')).toHaveValue('buyer@example.com')

  // an accountant at a desktop: the same receipt, its order card, nothing sideways at 1280 px
  await page.setViewportSize({ width: 1280, height: 800 })
  await page.goto(`/admin/receipts?q=${encodeURIComponent(`№ ${number}`)}`)
  await expect(page.getByTestId('admin-receipt')).toHaveCount(1)
  await expect(page.getByTestId('admin-receipt')).toContainText(roubles(receipt.total, 'Итого'))
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
  await page.goto(`/admin/orders/${orderId}`)
  await expect(page.getByTestId('order-receipts').getByTestId('admin-receipt')).toHaveCount(1)
  await expect(page.getByRole('region', { name: 'Платежи' })).not.toContainText('sandbox-card')
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280)
}

/**
 * The order card's receipts come with the server's HTML and their code after the page is
 * interactive (deferred-receipt-card.tsx). A note added before that code is in revalidates the
 * card: the receipt the server rendered stays on screen meanwhile, and after.
 */
export async function receiptStaysWhileItsCodeLoads(
  page: Page,
  context: BrowserContext,
  request: APIRequestContext,
) {
  await page.setViewportSize({ width: 360, height: 800 })
  const token = await signInAs(context, request, OWNER)
  const { orderId } = await paidOrderWithReceipt(request, token)
  const held: Route[] = []
  let holding = true
  await page.route(/\/assets\/receipt-card-[^/]*\.js$/, (route) => {
    if (holding) held.push(route)
    else void route.continue()
  })
  await page.goto(`/admin/orders/${orderId}`)
  const receipt = page.getByTestId('order-receipts').getByTestId('admin-receipt')
  await expect(receipt).toContainText(/ФН\s*9999999999999999/)
  // the page's code runs (React listens on the document); the receipt's is held
  await page.waitForFunction(() => Object.keys(document).some((k) => k.startsWith('_reactListening')))
  await expect.poll(() => held.length, { timeout: 20_000 }).toBeGreaterThan(0)
  const text = `Чек проверен ${Date.now()}`
  const note = page.getByRole('form', { name: 'Добавить заметку' })
  await note.getByLabel('Заметка').fill(text)
  await note.getByRole('button', { name: 'Добавить заметку' }).click()
  await expect(page.getByRole('region', { name: 'История заказа' })).toContainText(text)
  await expect(receipt).toHaveCount(1)
  await expect(receipt).toContainText(/ФН\s*9999999999999999/)
  holding = false
  for (const r of held.splice(0)) await r.continue()
  await page.waitForLoadState('networkidle')
  await expect(receipt).toHaveCount(1)
  await expect(receipt).toContainText(/ФН\s*9999999999999999/)
}
