// Catalogue search and pagination are plain links and a GET form: they work without JavaScript.
import { expect, test } from '@playwright/test'

test('search and pagination without JavaScript', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('searchbox', { name: 'Поиск игры' }).fill('steam')
  await page.getByRole('button', { name: 'Найти' }).click()
  await expect(page).toHaveURL(/\/\?search=steam$/)
  await expect(page.getByRole('list', { name: 'Игры' }).getByRole('link')).toHaveCount(2)
  await page.goto('/')
  await page.getByRole('navigation', { name: 'Страницы каталога' }).getByRole('link', { name: '2' }).click()
  await expect(page).toHaveURL('/2')
  await expect(page.getByRole('link', { name: /^Free Fire/ })).toBeVisible()
})
