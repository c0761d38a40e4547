// The back-office without JavaScript: every form posts and redirects back with the result.
import { expect, test } from '@playwright/test'
import { OWNER, orderNumberOf, SUPPORT, signInAs } from './admin-helpers'
import { createPubgOrder } from './payment-steps'

test('without JavaScript: the owner finds an order, notes it and cancels it', async ({
  page,
  context,
  request,
}) => {
  const orderId = await createPubgOrder(request)
  await signInAs(context, request, OWNER)
  await page.goto('/admin/orders')
  await page.getByLabel('Номер заказа или почта').fill(orderId)
  await page.getByLabel('Статус').selectOption('created')
  await page.getByRole('button', { name: 'Найти' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Найдено' })).toHaveText('Найдено: 1')
  await page.getByRole('link', { name: `Заказ № ${await orderNumberOf(request, orderId)}` }).click()
  await page.getByRole('button', { name: 'Добавить заметку' }).click()
  await expect(page.getByRole('form', { name: 'Добавить заметку' }).getByRole('alert')).toBeVisible()
  await page.getByLabel('Заметка').fill('Без скриптов')
  await page.getByRole('button', { name: 'Добавить заметку' }).click()
  await expect(page.getByRole('region', { name: 'Уведомления' })).toContainText('Заметка добавлена')
  await expect(page.getByRole('list').filter({ hasText: 'Заказ создан' })).toContainText('Без скриптов')
  await page.getByRole('button', { name: 'Отменить неоплаченный заказ' }).click()
  await expect(page.getByRole('region', { name: 'Уведомления' })).toContainText('Заказ отменён')
  await expect(page.getByText('Причина ошибки')).toBeVisible()
})

test('without JavaScript: support resends nothing for an unpaid order and is told why', async ({
  page,
  context,
  request,
}) => {
  const orderId = await createPubgOrder(request)
  await signInAs(context, request, SUPPORT)
  await page.goto(`/admin/orders/${orderId}`)
  await page.getByRole('button', { name: 'Отправить письмо ещё раз' }).click()
  await expect(page.getByRole('form', { name: 'Отправить письмо ещё раз' }).getByRole('alert')).toBeVisible()
  expect(await page.getByRole('button', { name: 'Отменить неоплаченный заказ' }).count()).toBe(0)
})
