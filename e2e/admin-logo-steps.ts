// The logo upload of the back-office, shared by the JS and no-JS specs: a file that is not an
// image is refused by the field, a PNG becomes the game's logo, served from /media/.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'

/** 1×1 PNG */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

export async function ownerUploadsGameLogo(page: Page, context: BrowserContext, request: APIRequestContext) {
  const token = await signInAs(context, request, OWNER)
  const title = `Игра с логотипом ${Math.floor(Math.random() * 1e6)}`
  const created = await request.post('/api/admin/games/', {
    headers: { authorization: `Bearer ${token}` },
    data: { kind: 'PUBGGame', title, is_active: false },
  })
  expect(created.status(), await created.text()).toBe(200)
  const { id } = (await created.json()) as { id: number }

  await page.goto(`/admin/games/${id}`)
  await expect(page.getByText('Логотипа пока нет.')).toBeVisible()
  const form = page.getByRole('form', { name: 'Логотип' })
  await form.getByLabel('Файл картинки').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<svg onload="alert(1)"></svg>'),
  })
  await form.getByRole('button', { name: 'Загрузить' }).click()
  await expect(page.getByRole('form', { name: 'Логотип' }).getByLabel('Файл картинки')).toHaveAttribute(
    'aria-invalid',
    'true',
  )
  await expect(
    page.getByText('Логотип должен быть изображением PNG, JPEG, WebP или GIF').first(),
  ).toBeVisible()

  await page
    .getByRole('form', { name: 'Логотип' })
    .getByLabel('Файл картинки')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG })
  await page.getByRole('form', { name: 'Логотип' }).getByRole('button', { name: 'Загрузить' }).click()
  await expect(page.getByText('Логотип загружен')).toBeVisible()
  const img = page.getByRole('img', { name: `Логотип «${title}»` })
  await expect(img).toHaveAttribute('src', /^\/media\/[0-9a-f]{32}\.png$/)
  const src = (await img.getAttribute('src'))!
  const served = await request.get(src)
  expect(served.status()).toBe(200)
  expect(served.headers()['content-type']).toBe('image/png')
  // the shop's API gives the game the same logo
  const game = (await (
    await request.get(`/api/admin/games/`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as Array<{
    id: number
    logo: string
  }>
  expect(game.find((g) => g.id === id)?.logo).toBe(src)
}
