// The catalogue: cards, badges, search and pagination (§2: /{page?}).
import { expect, test } from '@playwright/test'

test('the home page lists games with logos of fixed size, discount and sign-in badges', async ({ page }) => {
  await page.goto('/')
  await expect(page).toHaveTitle(/каталог/)
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /PUBG Mobile/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Пополнение игр')
  const games = page.getByRole('list', { name: 'Игры' }).getByRole('listitem')
  await expect(games).toHaveCount(8)
  // no layout shift: every logo has its size before it loads
  for (const img of await page.locator('.game-card__logo').all()) {
    await expect(img).toHaveAttribute('width', '96')
    await expect(img).toHaveAttribute('height', '96')
  }
  const pubg = page.getByRole('link', { name: /^PUBG Mobile/ })
  await expect(pubg).toHaveAttribute('href', /^\/products\/\d+$/)
  await expect(pubg).toContainText('Скидка 10%')
  await expect(page.getByRole('link', { name: /^PUBG: New State/ })).toContainText(
    'Покупка доступна после входа в аккаунт',
  )
  await expect(page.getByRole('link', { name: /^Standoff 2 от/ })).not.toContainText('после входа')
})

test('search finds games by title and can be reset', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('searchbox', { name: 'Поиск игры' }).fill('standoff')
  await page.getByRole('button', { name: 'Найти' }).click()
  await expect(page).toHaveURL(/\/\?search=standoff$/)
  await expect(page.getByRole('main').getByRole('status')).toContainText(
    'Результаты по запросу «standoff»: 2',
  )
  const games = page.getByRole('list', { name: 'Игры' }).getByRole('link')
  await expect(games).toHaveCount(2)
  await expect(games.first()).toContainText('Standoff 2')
  await expect(page.getByRole('searchbox', { name: 'Поиск игры' })).toHaveValue('standoff')

  await page.getByRole('searchbox', { name: 'Поиск игры' }).fill('нет такой игры')
  await page.getByRole('button', { name: 'Найти' }).click()
  await expect(page.getByRole('main').getByRole('status')).toContainText(
    'По запросу «нет такой игры» ничего не найдено',
  )
  await page.getByRole('link', { name: 'Сбросить поиск' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('list', { name: 'Игры' }).getByRole('listitem')).toHaveCount(8)
})

test('pagination: page 2 at /2, back to / for page 1', async ({ page }) => {
  await page.goto('/')
  const nav = page.getByRole('navigation', { name: 'Страницы каталога' })
  await expect(nav.locator('a[aria-current="page"]')).toHaveText('1')
  await nav.getByRole('link', { name: 'Следующая' }).click()
  await expect(page).toHaveURL('/2')
  await expect(page).toHaveTitle(/страница 2/)
  await expect(page.getByText('Страница 2 из 2')).toBeVisible()
  await expect(page.getByRole('link', { name: /^Free Fire/ })).toBeVisible()
  await expect(page.getByRole('link', { name: /^PUBG Mobile/ })).toHaveCount(0)
  await nav.getByRole('link', { name: 'Предыдущая' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('link', { name: /^PUBG Mobile/ })).toBeVisible()
})

test('a page that is not a page number fails the route check with 404', async ({ page }) => {
  for (const path of ['/abc', '/0', '/2x', '/99']) {
    const res = await page.goto(path)
    expect(res?.status(), path).toBe(404)
    await expect(page.getByText(`Page Not Found: ${path}`)).toBeVisible()
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Страница не найдена')
  }
})

test('keyboard only: search, open a game, and reach its form', async ({ page }) => {
  await page.goto('/')
  await page.getByRole('searchbox', { name: 'Поиск игры' }).focus()
  await page.keyboard.type('Genshin')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/search=Genshin/)
  const card = page.getByRole('link', { name: /^Genshin Impact/ })
  await card.focus()
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/products\/\d+$/)
  await expect(page.getByRole('form', { name: 'Оформление заказа' })).toBeVisible()
})

test('the catalogue and a game page with its error summary have no axe violations', async ({ page }) => {
  const { default: AxeBuilder } = await import('@axe-core/playwright')
  await page.goto('/')
  const home = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze()
  expect(home.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])

  await page.getByRole('link', { name: /^Standoff 2 от/ }).click()
  await page.getByRole('button', { name: 'Перейти к оплате' }).click()
  await expect(page.getByRole('form', { name: 'Оформление заказа' }).getByRole('alert')).toBeVisible()
  const game = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21aa']).analyze()
  expect(game.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([])
})
