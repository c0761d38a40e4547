// Catalogue steps shared by the JS and no-JS back-office specs: the owner adds a game and a
// product (a refused discount first), a FAQ item, and the storefront shows them.
import { expect, type Page } from '@playwright/test'

export async function ownerAddsGameWithProduct(page: Page) {
  const title = `Тестовая игра ${Math.floor(Math.random() * 1e6)}`
  await page.goto('/admin/games')
  const create = page.getByRole('form', { name: 'Новая игра' })
  await create.getByLabel('Вид').selectOption('PUBGGame')
  await create.getByLabel('Название', { exact: true }).fill(title)
  // a new game is shown unless the owner hides it (issue 47)
  await expect(create.getByLabel('Показывать в каталоге')).toBeChecked()
  await create.getByRole('button', { name: 'Добавить' }).click()
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
  const gameId = Number(/\/admin\/games\/(\d+)/.exec(page.url())?.[1])
  // shown, but nothing to buy yet: the page says why
  await expect(page.getByTestId('game-visibility')).toContainText('купить в ней нечего')

  const product = page.getByRole('form', { name: 'Новый товар' })
  await product.getByLabel('Название', { exact: true }).fill('325 UC')
  await product.getByLabel('Цена, ₽', { exact: true }).fill('123.00')
  await product.getByLabel('Цена со скидкой, ₽').fill('130')
  await product.getByLabel('UC в коде').fill('325')
  await product.getByRole('button', { name: 'Добавить' }).click()
  // the API's rule comes back by the field, and what was typed stays
  const refused = page.getByRole('form', { name: 'Новый товар' })
  await expect(refused.getByRole('alert')).toBeVisible()
  await expect(refused.getByLabel('Цена со скидкой, ₽')).toHaveAttribute('aria-invalid', 'true')
  await expect(refused.getByLabel('Название', { exact: true })).toHaveValue('325 UC')
  await refused.getByLabel('Цена со скидкой, ₽').fill('')
  await refused.getByRole('button', { name: 'Добавить' }).click()
  await expect(
    page.getByRole('group').or(page.locator('summary')).filter({ hasText: '325 UC' }).first(),
  ).toBeVisible()
  await expect(page.getByTestId('game-visibility')).toHaveCount(0)

  // the description is HTML (the label says so): the storefront shows it formatted (issue 37)
  const edit = page.getByRole('form', { name: `Изменить игру «${title}»` })
  await edit
    .getByLabel('Описание (HTML)')
    .fill('<p>Коды приходят <strong>сразу</strong> после оплаты.</p><script>alert(1)</script>')
  // saved once the form's POST is answered (the storefront check below proves what was saved)
  await Promise.all([
    page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().includes(`/admin/games/${gameId}`),
    ),
    edit.getByRole('button', { name: 'Сохранить' }).click(),
  ])

  const faq = page.getByRole('form', { name: 'Новый вопрос' })
  await faq.getByLabel('Вопрос').fill('Как быстро придёт код?')
  await faq.getByLabel('Ответ').fill('Сразу после оплаты.')
  await faq.getByRole('button', { name: 'Добавить' }).click()
  await expect(page.locator('summary').filter({ hasText: 'Как быстро придёт код?' })).toBeVisible()

  // the storefront shows the new game within its catalogue cache time
  await expect(async () => {
    await page.goto(`/products/${gameId}`)
    await expect(page.getByRole('heading', { level: 1 })).toContainText(title, { timeout: 1000 })
    await expect(page.getByText('325 UC').first()).toBeVisible({ timeout: 1000 })
    await expect(page.getByText('Как быстро придёт код?')).toBeVisible({ timeout: 1000 })
    const description = page.locator('.game-page__description')
    await expect(description.locator('strong')).toHaveText('сразу', { timeout: 1000 })
  }).toPass({ timeout: 15_000 })
  // no tag is shown as text, and the script is gone
  await expect(page.getByText('<strong>')).toHaveCount(0)
  await expect(page.locator('.game-page__description script')).toHaveCount(0)
  return { gameId, title }
}
