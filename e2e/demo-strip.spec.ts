// Demo or production (issue 19): the demo (the e2e server: no DATABASE_URL, no PUBLIC_URL) shows
// «Демо-магазин: оплата ненастоящая» on every page; a production shop does not.
import { expect, test } from '@playwright/test'
import { freePort, startShopProcess } from '../tests/helpers/shop-process'

const STRIP = 'Демо-магазин: оплата ненастоящая'

test('the demo shows its strip on every page, at 360 px too', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 })
  for (const path of ['/', '/gifts', '/info', '/no-such-page']) {
    await page.goto(path)
    await expect(page.getByRole('banner').getByText(STRIP)).toBeVisible()
  }
})

test('a production shop shows no demo strip', async ({ page }) => {
  test.setTimeout(120_000)
  const port = await freePort()
  const shop = await startShopProcess({
    env: { PORT: String(port), PUBLIC_URL: `http://localhost:${port}`, SEED_DEMO: '1' },
    waitFor: '/version.json',
  })
  try {
    await page.goto(`${shop.url}/`)
    await expect(page.getByRole('banner')).toBeVisible()
    await expect(page.getByText(STRIP)).toHaveCount(0)
  } finally {
    await shop.stop('SIGKILL')
  }
})
