// The shop's one time zone with JavaScript (steps: shop-time-steps.ts).
import { test } from '@playwright/test'
import { timesInTheShopZone } from './shop-time-steps'

test('the back-office shows and takes times in the shop zone, labelled МСК (360 px and 1280 px)', async ({
  browser,
}) => {
  // two widths, each a new context, an order and a back-office sign-in (slow on a loaded machine)
  test.setTimeout(180_000)
  await timesInTheShopZone(browser, true)
})
