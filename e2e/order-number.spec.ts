// Short order numbers with JavaScript (steps: order-number-steps.ts).
import { test } from '@playwright/test'
import { orderFoundByItsNumber } from './order-number-steps'

test('the pay page says the short number and support finds the order by it (360 px and 1280 px)', async ({
  browser,
}) => {
  // two widths, each a new context, an order and a back-office sign-in (slow on a loaded machine)
  test.setTimeout(180_000)
  await orderFoundByItsNumber(browser, true)
})
