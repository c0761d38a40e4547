// The back-office catalogue with JavaScript: games, products, FAQ, gifts and articles change, and
// the storefront shows the change.
import { expect, test } from '@playwright/test'
import { ownerAddsGameWithProduct } from './admin-catalogue-steps'
import { OWNER, signInAs } from './admin-helpers'

test('the owner adds a game with a product and a FAQ item; the storefront shows them', async ({
  page,
  context,
  request,
}) => {
  await signInAs(context, request, OWNER)
  await ownerAddsGameWithProduct(page)
})

test('the owner changes a product’s price, a gift’s title and an article (sanitized on the storefront)', async ({
  page,
  context,
  request,
}) => {
  const token = await signInAs(context, request, OWNER)
  const { gameId } = await ownerAddsGameWithProduct(page)
  await page.goto(`/admin/games/${gameId}`)
  await page.locator('summary').filter({ hasText: '325 UC' }).click()
  const edit = page.getByRole('form', { name: 'Изменить: 325 UC' })
  await edit.getByLabel('Цена, ₽', { exact: true }).fill('150.50')
  await edit.getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.locator('summary').filter({ hasText: '150,50\u00a0₽' })).toBeVisible()

  // a gift's title: a gift of this test's own (the demo gifts are bought by name in other specs)
  const created = await request.post('/api/admin/gifts/', {
    headers: { authorization: `Bearer ${token}` },
    data: { title: 'Подарок для правки', type: 'Карта', region: 'Россия', price: '100.00', is_active: true },
  })
  expect(created.status(), await created.text()).toBe(200)
  const giftId = ((await created.json()) as { id: number }).id
  await page.goto('/admin/gifts')
  await page.locator(`a[href="/admin/gifts/${giftId}"]`).click()
  await expect(page.getByRole('form', { name: /^Изменить подарок/ })).toBeVisible()
  const title = `Подарок ${Math.floor(Math.random() * 1e6)}`
  await page.getByLabel('Название', { exact: true }).fill(title)
  await page.getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title)
  await expect(async () => {
    await page.goto(`/gifts/detalis/${giftId}`)
    await expect(page.getByRole('heading', { level: 1 })).toContainText(title, { timeout: 1000 })
  }).toPass({ timeout: 15_000 })

  // an article: the storefront drops the script
  await page.goto('/admin/articles')
  await page.locator('summary').filter({ hasText: 'user-agreement' }).click()
  const form = page
    .getByRole('form')
    .filter({ has: page.locator('input[name="slug"][value="user-agreement"]') })
  // the info pages' own specs read this article: put it back as it was at the end
  const original = {
    title: await form.getByLabel('Заголовок').inputValue(),
    html: await form.getByLabel('Текст (HTML)').inputValue(),
  }
  await form.getByLabel('Заголовок').fill('Соглашение (новое)')
  await form.getByLabel('Текст (HTML)').fill('<p>Новый текст</p><script>window.hacked=1</script>')
  await form.getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.locator('summary').filter({ hasText: 'Соглашение (новое)' })).toBeVisible()
  await page.goto('/info/user-agreement')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Соглашение (новое)')
  await expect(page.getByText('Новый текст')).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked)).toBeUndefined()

  await page.goto('/admin/articles')
  await page.locator('summary').filter({ hasText: 'Соглашение (новое)' }).click()
  await form.getByLabel('Заголовок').fill(original.title)
  await form.getByLabel('Текст (HTML)').fill(original.html)
  await form.getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.locator('summary').filter({ hasText: original.title })).toBeVisible()
})
