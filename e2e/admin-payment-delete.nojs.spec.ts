// Without JavaScript, at 360 px (issue 32): the owner uploads a method's icon (an SVG is refused in
// Russian), deletes a group with its method, and is refused deleting YooKassa's own method (the
// refusal, in the form, offers switching it off). Every step is a plain form post.
import { expect, test } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'

const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

test('owner uploads an icon, deletes a group, is refused deleting YooKassa’s own method', async ({
  page,
  context,
  request,
}) => {
  await page.setViewportSize({ width: 360, height: 800 })
  const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`
  const groupName = `Удаляемая ${tag}`
  await signInAs(context, request, OWNER)
  await page.goto('/admin/payments')
  const russia = () =>
    page.locator('section.card').filter({
      has: page.getByRole('heading', { level: 2, name: 'Россия', exact: true }),
    })
  // a group with one method
  await russia()
    .locator('summary', { hasText: /^Добавить группу/ })
    .click()
  const addGroup = russia().getByRole('form', { name: /^Добавить группу/ })
  await addGroup.getByLabel('Название', { exact: true }).fill(groupName)
  await addGroup.getByRole('button', { name: 'Добавить' }).click()
  const group = page.locator('section.admin-section:not(.card)').filter({
    has: page.getByRole('heading', { level: 3, name: groupName, exact: true }),
  })
  await expect(group).toHaveCount(1)
  await group.locator('summary', { hasText: /^Добавить способ в группу/ }).click()
  const addMethod = group.getByRole('form', { name: /^Добавить способ в группу/ })
  await addMethod.getByLabel('Название для покупателя').fill(`Карта ${tag}`)
  await addMethod.getByLabel('Адрес способа').fill(`del_${tag}`)
  await addMethod.getByLabel('Платёжная система').selectOption('yookassa')
  await addMethod.getByLabel('Вид оплаты').selectOption('bank_card')
  await addMethod.getByRole('button', { name: 'Добавить' }).click()
  await expect(page.getByText('Способ оплаты добавлен')).toBeVisible()

  // its icon: an SVG is refused in Russian, a PNG is taken
  const card = page.getByTestId(`method-del_${tag}`)
  await card.locator('summary', { hasText: /^Загрузить значок/ }).click()
  const iconForm = () =>
    page.getByTestId(`method-del_${tag}`).getByRole('form', { name: /^Загрузить значок/ })
  await iconForm()
    .getByLabel('Файл значка')
    .setInputFiles({
      name: 'x.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg onload="alert(1)"/>'),
    })
  await iconForm().getByRole('button', { name: 'Загрузить' }).click()
  await expect(iconForm().getByRole('alert')).toContainText('SVG не принимаем')
  await iconForm()
    .getByLabel('Файл значка')
    .setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: PNG_1PX })
  await iconForm().getByRole('button', { name: 'Загрузить' }).click()
  await expect(page.getByText('Значок загружен')).toBeVisible()
  await card.locator('summary', { hasText: /^Загрузить значок/ }).click()
  await expect(card.locator('img.admin-method-icon')).toHaveAttribute('src', /^\/media\/[0-9a-f]{32}\.png$/)

  // the group goes, with its method
  await group.locator('summary', { hasText: `Удалить группу «${groupName}»` }).click()
  await group
    .getByRole('form', { name: `Удалить группу «${groupName}»` })
    .getByRole('button', { name: 'Удалить навсегда' })
    .click()
  await expect(page.getByText('Группа удалена')).toBeVisible()
  await expect(page.getByRole('heading', { level: 3, name: groupName, exact: true })).toHaveCount(0)
  await expect(page.getByTestId(`method-del_${tag}`)).toHaveCount(0)

  // YooKassa's own card method stays: the refusal in the form says to switch it off
  const own = page.getByTestId('method-yookassa_card')
  await own.locator('summary', { hasText: /^Удалить способ/ }).click()
  await own
    .getByRole('form', { name: /^Удалить способ/ })
    .getByRole('button', { name: 'Удалить навсегда' })
    .click()
  const refused = page.getByTestId('method-yookassa_card').getByRole('form', { name: /^Удалить способ/ })
  await expect(refused.getByRole('alert')).toContainText('выключите его')
  // the default country has no delete form at all
  await expect(page.getByRole('form', { name: 'Удалить страну «Россия»' })).toHaveCount(0)
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
  expect(overflow).toBe(false)
})
