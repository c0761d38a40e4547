// A shop set up without tricks (issue 47), shared by the JS and no-JS specs at a phone's width: the
// owner sets the tagline at /admin/shop (a too-long one is refused in Russian) and uploads the
// shop's logo there (an SVG is refused), and the storefront shows both: the logo in the header,
// the tagline in the footer. The demo's settings are put back afterwards, under a lock shared
// with the other workers.
import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import { withShopLock } from './seller-lock'

/** A 1×1 PNG, a logo the shop accepts. */
export const LOGO_PNG = {
  name: 'logo.png',
  mimeType: 'image/png',
  buffer: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    'base64',
  ),
}

type LogoFile = { name: string; mimeType: string; buffer: Buffer }

/**
 * At /admin/shop, the signed-in owner uploads `file` as the shop's logo (JS on or off: a plain
 * multipart post) and sees it there; returns its /media/ address. The shop's name must be saved
 * first (the upload asks for it otherwise).
 */
export async function ownerUploadsShopLogo(page: Page, file: LogoFile = LOGO_PNG): Promise<string> {
  await page.goto('/admin/shop')
  const form = page.getByRole('form', { name: 'Логотип', exact: true })
  await form.getByLabel('Файл картинки').setInputFiles(file)
  await form.getByRole('button', { name: 'Загрузить' }).click()
  await expect(page.getByText('Логотип загружен')).toBeVisible()
  const img = page.getByRole('img', { name: /^Логотип «/ })
  await expect(img).toHaveAttribute('src', /^\/media\/[0-9a-f]{32}\.(png|jpg|gif|webp)$/)
  const src = (await img.getAttribute('src'))!
  // the settings' address field holds it too
  await expect(
    page.getByRole('form', { name: 'Магазин: название и контакты' }).getByLabel('Логотип: адрес картинки'),
  ).toHaveValue(src)
  return src
}

async function ownerSetsTagline(page: Page, tagline: string) {
  await page.goto('/admin/shop')
  const settings = () => page.getByRole('form', { name: 'Магазин: название и контакты' })
  await settings().getByLabel('Подпись под названием').fill('Очень длинная подпись. '.repeat(6))
  await settings().getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.getByText('не длиннее 120 символов').first()).toBeVisible()
  await settings().getByLabel('Подпись под названием').fill(tagline)
  await settings().getByRole('button', { name: 'Сохранить' }).click()
  await expect(page.getByText('Настройки магазина сохранены')).toBeVisible()
  await expect(settings().getByLabel('Подпись под названием')).toHaveValue(tagline)
}

async function svgIsRefused(page: Page) {
  await page.goto('/admin/shop')
  const form = page.getByRole('form', { name: 'Логотип', exact: true })
  await form.getByLabel('Файл картинки').setInputFiles({
    name: 'logo.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'),
  })
  await form.getByRole('button', { name: 'Загрузить' }).click()
  await expect(
    page.getByRole('form', { name: 'Логотип', exact: true }).getByLabel('Файл картинки'),
  ).toHaveAttribute('aria-invalid', 'true')
  await expect(
    page.getByText('Логотип должен быть изображением PNG, JPEG, WebP или GIF').first(),
  ).toBeVisible()
}

type ShopSettings = Record<string, unknown> & { name: string; logo: string }

export async function ownerBrandsTheShop(page: Page, context: BrowserContext, request: APIRequestContext) {
  await page.setViewportSize({ width: 360, height: 780 })
  const token = await signInAs(context, request, OWNER)
  const auth = { authorization: `Bearer ${token}` }
  await withShopLock(async () => {
    const before = (await (await request.get('/api/admin/shop/', { headers: auth })).json()) as ShopSettings
    try {
      const tagline = `Steam — за час, коды PUBG — сразу ${Math.floor(Math.random() * 1e6)}`
      // saving the settings first: the logo upload asks for a saved name
      await ownerSetsTagline(page, tagline)
      await svgIsRefused(page)
      const src = await ownerUploadsShopLogo(page)
      const served = await request.get(src)
      expect(served.status()).toBe(200)
      expect(served.headers()['content-type']).toBe('image/png')

      // the storefront on a phone and on a desktop: the logo in the header, the tagline in the footer
      for (const width of [360, 1280]) {
        await page.setViewportSize({ width, height: 780 })
        await page.goto('/')
        const logo = page.getByRole('banner').getByRole('link', { name: before.name, exact: true })
        await expect(logo.locator('img')).toHaveAttribute('src', src)
        await expect(page.getByRole('contentinfo')).toContainText(tagline)
        await expect(page.getByRole('contentinfo')).not.toContainText('с мгновенной доставкой')
        const scroll = await page.evaluate(() => document.documentElement.scrollWidth)
        expect(scroll).toBeLessThanOrEqual(width)
      }
    } finally {
      // the demo as it was for the other specs (the uploaded logo's row goes with it)
      const put = await request.put('/api/admin/shop/', {
        headers: auth,
        data: { ...before, tagline: '' },
      })
      expect(put.status(), await put.text()).toBe(200)
    }
  })
}
