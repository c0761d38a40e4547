// The shop's one time zone without JavaScript (steps: shop-time-steps.ts).
import { test } from '@playwright/test'
import { timesInTheShopZone } from './shop-time-steps'

test('without JavaScript: the back-office shows and takes times in the shop zone, labelled МСК', async ({
  browser,
}) => {
  // two widths, each a new context, an order and a back-office sign-in (slow on a loaded machine)
  test.setTimeout(180_000)
  await timesInTheShopZone(browser, false)
})
