// The back-office with JavaScript: who gets in (owner, support) and who gets the unknown-address
// 404 (guests, shoppers); orders: search, the timeline, notes, cancel; axe on every screen.
import AxeBuilder from '@axe-core/playwright'
import { expect, type Page, test } from '@playwright/test'
import {
  OWNER,
  OWNER_SCREENS,
  orderNumberOf,
  STAFF_SCREENS,
  SUPPORT,
  signInAs,
  signInShopper,
} from './admin-helpers'
import { createPubgOrder } from './payment-steps'

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa']

async function expectUnknownPage(page: Page, path: string) {
  const res = await page.goto(path)
  expect(res?.status()).toBe(404)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Страница не найдена')
  await expect(page.getByText(`Page not found: ${path}`)).toBeVisible()
  await expect(page.getByText('Управление магазином')).toHaveCount(0)
}

test('guests and shoppers get the same 404 as an unknown address', async ({ page, context, request }) => {
  for (const path of ['/admin', '/admin/orders', '/admin/games']) await expectUnknownPage(page, path)
  // an address that matches nothing looks the same
  await expectUnknownPage(page, '/admin/no-such-screen')
  await signInShopper(context, request)
  for (const path of ['/admin', '/admin/orders']) await expectUnknownPage(page, path)
})

test('the owner searches orders, opens one, adds a note and cancels it; the timeline shows both', async ({
  page,
  context,
  request,
}) => {
  const orderId = await createPubgOrder(request)
  await signInAs(context, request, OWNER)
  await page.goto('/admin')
  await expect(page.getByRole('heading', { level: 1, name: 'Обзор' })).toBeVisible()
  // how many orders wait for a person, linking to the delivery desk (issue 31)
  await expect(page.getByRole('link', { name: /^Ждут выдачи: \d+$/ })).toHaveAttribute(
    'href',
    '/admin/delivery',
  )
  const nav = page.getByRole('navigation', { name: 'Разделы управления' })
  await nav.getByRole('link', { name: 'Заказы' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Заказы' })).toBeVisible()
  await page.getByLabel('Номер заказа или почта').fill(orderId)
  await page.getByRole('button', { name: 'Найти' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Найдено' })).toHaveText('Найдено: 1')
  const title = `Заказ № ${await orderNumberOf(request, orderId)}`
  await page.getByRole('link', { name: title }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)

  // an empty note is refused with the API's message, then a real one lands on the timeline
  await page.getByRole('button', { name: 'Добавить заметку' }).click()
  await expect(page.getByRole('form', { name: 'Добавить заметку' }).getByRole('alert')).toBeVisible()
  await page.getByLabel('Заметка').fill('Покупатель написал в чат')
  await page.getByRole('button', { name: 'Добавить заметку' }).click()
  const timeline = page.getByRole('list').filter({ hasText: 'Заказ создан' })
  await expect(timeline).toContainText('Покупатель написал в чат')

  await page.getByRole('button', { name: 'Отменить неоплаченный заказ' }).click()
  await expect(timeline).toContainText('Действие сотрудника')
  await expect(page.getByText('Причина ошибки')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Отменить неоплаченный заказ' })).toHaveCount(0)

  // a bad date range is a message on the page, not an error screen
  await page.goto('/admin/orders?from=2026-05-02&to=2026-05-01')
  await expect(page.getByRole('alert').filter({ hasText: /дат/ })).toBeVisible()
})

test('support sees the orders, the delivery desk and the data requests only: owner screens answer 403, no cancel button', async ({
  page,
  context,
  request,
}) => {
  const orderId = await createPubgOrder(request)
  await signInAs(context, request, SUPPORT)
  await page.goto('/admin')
  await expect(page).toHaveURL(/\/admin\/orders$/)
  const nav = page.getByRole('navigation', { name: 'Разделы управления' })
  // the orders, the delivery desk (issue 31), the personal data requests (issue 33) and their own
  // Telegram link (issue 49), nothing of the owner's
  await expect(nav.getByRole('link')).toHaveCount(4)
  await expect(nav.getByRole('link', { name: 'Telegram' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Выдача' })).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Запросы о данных' })).toBeVisible()
  // every owner screen but the overview (support is sent to the orders) and the orders themselves
  for (const { path } of OWNER_SCREENS.filter((s) => s.path !== '/admin' && s.path !== '/admin/orders')) {
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(403)
    await expect(page.getByText('Этот раздел доступен только владельцу магазина.')).toBeVisible()
  }
  await page.goto(`/admin/orders/${orderId}`)
  await expect(page.getByRole('button', { name: 'Отправить письмо ещё раз' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Отменить неоплаченный заказ' })).toHaveCount(0)
  await page.getByLabel('Заметка').fill('Заметка поддержки')
  await page.getByRole('button', { name: 'Добавить заметку' }).click()
  await expect(page.getByRole('list').filter({ hasText: 'Заказ создан' })).toContainText('Заметка поддержки')
})

for (const width of [360, 1280]) {
  test(`every owner screen passes axe at ${width} px and does not scroll sideways`, async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(240_000)
    const orderId = await createPubgOrder(request)
    await signInAs(context, request, OWNER)
    const first = async (url: string) =>
      ((await (await request.get(url)).json()) as { results: Array<{ id: number; title: string }> })
        .results[0]!
    const game = await first('/api/games/?limit=1')
    const gift = await first('/api/gifts/?limit=1')
    const screens = [
      ...OWNER_SCREENS,
      ...STAFF_SCREENS,
      { path: `/admin/orders/${orderId}`, heading: `Заказ № ${await orderNumberOf(request, orderId)}` },
      { path: `/admin/games/${game.id}`, heading: game.title },
      { path: `/admin/gifts/${gift.id}`, heading: gift.title },
    ]
    await page.setViewportSize({ width, height: 800 })
    for (const s of screens) {
      await page.goto(s.path)
      await expect(page.getByRole('heading', { level: 1, name: s.heading })).toBeVisible()
      const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze()
      expect(violations.map((v) => `${s.path} @${width}: ${v.id} ${v.nodes[0]?.html}`)).toEqual([])
      // phone first: nothing wider than the screen
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow, `${s.path} @${width} scrolls sideways`).toBeLessThanOrEqual(0)
    }
  })
}
