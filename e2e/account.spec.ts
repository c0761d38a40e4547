import { expect, test } from '@playwright/test'
import { FAKE_SOCIAL_ORIGIN } from '../playwright.config'
import {
  accessToken,
  authDialog,
  createPubgOrder,
  openStartedAuthPopup,
  PASSWORD,
  payWithSandbox,
  pubgProduct,
  signUpViaPopup,
  uniqueEmail,
} from './account-helpers'

/** Toasts are queued one after another (§4): a new one may wait for the previous to finish. */
const TOAST = { timeout: 15_000 }

test('sign up, sign out, sign in, and a wrong password message', async ({ page }) => {
  const email = uniqueEmail('cycle')
  await signUpViaPopup(page, email)
  await expect(page.getByText('Аккаунт создан, вы вошли')).toBeVisible(TOAST)
  await expect(page.getByRole('dialog')).toHaveCount(0)

  await page.getByRole('button', { name: 'Выйти' }).click()
  await expect(page.getByRole('link', { name: 'Войти' })).toBeVisible()
  await expect(page.getByText('Вы вышли из аккаунта')).toBeVisible(TOAST)

  await page.getByRole('link', { name: 'Войти' }).click()
  const dialog = authDialog(page)
  await dialog.getByLabel('Электронная почта').fill(email)
  await dialog.getByLabel('Я даю согласие на обработку персональных данных').check()
  await dialog.getByLabel('Пароль').fill('not my password')
  await dialog.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(dialog.getByRole('alert')).toHaveText('Неверный пароль')

  await dialog.getByLabel('Пароль').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Войти или зарегистрироваться' }).click()
  await expect(page.getByText('Вы вошли в аккаунт')).toBeVisible(TOAST)
  await expect(page.getByRole('button', { name: 'Выйти' })).toBeVisible()
})

test('the popup closes with Escape and keeps the page behind it', async ({ page }) => {
  await page.goto('/gifts?auth=1')
  await expect(authDialog(page)).toBeVisible()
  await expect(authDialog(page).getByLabel('Электронная почта')).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(page).toHaveURL('/gifts')
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('protected routes send a guest home', async ({ page }) => {
  await page.goto('/profile')
  await expect(page).toHaveURL('/')
  await page.goto('/profile/settings')
  await expect(page).toHaveURL('/')
})

test('social sign-in with VK ID against the fake provider', async ({ page }) => {
  await openStartedAuthPopup(page, '/gifts')
  await authDialog(page).getByRole('button', { name: 'Войти через VK ID' }).click()
  // back from the provider (four redirects across two servers): signed in on the page where the
  // popup was opened
  await expect(page).toHaveURL('/gifts', TOAST)
  await expect(page.getByText('Аккаунт создан, вы вошли')).toBeVisible(TOAST)
  await page.getByRole('navigation', { name: 'Аккаунт' }).getByRole('link').nth(1).click()
  await expect(page).toHaveURL('/profile')
  await expect(page.getByRole('listitem').filter({ hasText: 'VK ID:' })).toContainText('привязан')
  await expect(page.getByText(/@example\.test/)).toBeVisible()
})

test('social sign-in with Telegram, then the same Telegram account signs in again', async ({
  page,
  context,
}) => {
  const login = `tg${Date.now()}`
  await context.addCookies([{ name: 'fake_user', value: login, url: FAKE_SOCIAL_ORIGIN }])
  await openStartedAuthPopup(page)
  await authDialog(page).getByRole('button', { name: 'Войти через Telegram' }).click()
  await expect(page).toHaveURL('/profile')
  await expect(page.getByText('Аккаунт создан, вы вошли')).toBeVisible(TOAST)
  await expect(page.getByRole('listitem').filter({ hasText: 'Telegram:' })).toContainText('привязан')

  await page.getByRole('button', { name: 'Выйти' }).click()
  await expect(page.getByRole('link', { name: 'Войти' })).toBeVisible()
  await openStartedAuthPopup(page)
  await authDialog(page).getByRole('button', { name: 'Войти через Telegram' }).click()
  await expect(page.getByText('Вы вошли в аккаунт')).toBeVisible(TOAST)
})

test('bind and unbind a social account in the profile', async ({ page }) => {
  await signUpViaPopup(page, uniqueEmail('binder'))
  await page.goto('/profile')
  const steam = page.getByRole('listitem').filter({ hasText: 'Steam:' })
  await expect(steam).toContainText('не привязан')
  await steam.getByRole('button', { name: 'Привязать Steam' }).click()
  await expect(page).toHaveURL('/profile')
  await expect(page.getByText('Steam привязан к профилю')).toBeVisible(TOAST)
  await expect(steam).not.toContainText('не привязан')
  await steam.getByRole('button', { name: 'Отвязать Steam' }).click()
  await expect(page.getByText('Steam отвязан от профиля')).toBeVisible(TOAST)
  await expect(steam).toContainText('не привязан')
})

test('order history shows a paid PUBG order with its codes; repeat and pay links; last orders', async ({
  page,
  context,
  request,
}) => {
  await signUpViaPopup(page, uniqueEmail('history'))
  const token = await accessToken(context)
  const { game, product } = await pubgProduct(request)
  const paid = await createPubgOrder(request, token, product.id, 2)
  await payWithSandbox(request, token, paid)
  const open = await createPubgOrder(request, token, product.id, 1)

  await page.goto('/profile')
  const cards = page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: game.title }) })
  await expect(cards).toHaveCount(2)
  const done = cards.filter({ hasText: 'Выполнен' })
  await expect(done.getByRole('list', { name: 'Коды' }).getByRole('listitem')).toHaveCount(2)
  await expect(done.getByRole('link', { name: 'Оплатить' })).toHaveCount(0)
  const waiting = cards.filter({ hasNotText: 'Выполнен' })
  await expect(waiting.getByRole('link', { name: 'Оплатить' })).toHaveAttribute('href', `/orders/${open}/pay`)

  // status filter (a GET form)
  await page.getByLabel('Статус').selectOption('done')
  await page.getByRole('button', { name: 'Показать' }).click()
  await expect(page).toHaveURL('/profile?status=done')
  await expect(cards).toHaveCount(1)

  // repeat order leads to the game page preloading this order
  await done.getByRole('link', { name: 'Повторить заказ' }).click()
  await expect(page).toHaveURL(`/products/${game.id}?repeat=${paid}`)

  // the last-orders popup lists both orders of the last 24 hours
  await page.goto('/')
  await page.getByRole('link', { name: 'Последние заказы' }).click()
  const popup = page.getByRole('dialog', { name: 'Заказы за последние 24 часа' })
  await expect(popup.getByRole('heading', { name: game.title })).toHaveCount(2)
  await popup.getByRole('link', { name: 'Закрыть' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('settings: nickname and avatar', async ({ page }) => {
  await signUpViaPopup(page, uniqueEmail('settings'))
  await page.goto('/profile/settings')
  await page.getByLabel('Никнейм').fill('Снайпер')
  await page.getByLabel('Аватар', { exact: true }).setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
      'base64',
    ),
  })
  await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
  await expect(page.getByText('Настройки сохранены')).toBeVisible(TOAST)
  await expect(page.getByRole('link', { name: 'Снайпер' })).toBeVisible()
  const avatar = page.getByRole('img', { name: 'Аватар профиля' })
  await expect(avatar).toHaveAttribute('src', /^\/media\/[a-f0-9]{32}\.png$/)
  const img = await page.request.get((await avatar.getAttribute('src'))!)
  expect(img.headers()['content-type']).toBe('image/png')

  // a text file posing as an image is refused with a message
  await page
    .getByLabel('Аватар', { exact: true })
    .setInputFiles({ name: 'x.png', mimeType: 'image/png', buffer: Buffer.from('hello') })
  await page.getByRole('button', { name: 'Сохранить', exact: true }).click()
  await expect(page.getByRole('main').getByRole('alert')).toContainText('изображением')
})

test('account deletion asks for confirmation, signs out and frees the email', async ({ page }) => {
  const email = uniqueEmail('leaver')
  await signUpViaPopup(page, email)
  await page.goto('/profile')
  await page.getByRole('link', { name: 'Удалить аккаунт' }).click()
  const dialog = page.getByRole('dialog', { name: 'Удалить аккаунт?' })
  await dialog.getByRole('link', { name: 'Отмена' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await page.getByRole('link', { name: 'Удалить аккаунт' }).click()
  await dialog.getByRole('button', { name: 'Да, удалить аккаунт' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByText('Аккаунт удалён')).toBeVisible(TOAST)
  await expect(page.getByRole('link', { name: 'Войти' })).toBeVisible()
  await page.goto('/profile')
  await expect(page).toHaveURL('/')
  // the same email now makes a new account
  await signUpViaPopup(page, email)
  await expect(page.getByText('Аккаунт создан, вы вошли')).toBeVisible(TOAST)
})
