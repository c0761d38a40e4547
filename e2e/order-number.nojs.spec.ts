// Short order numbers without JavaScript (steps: order-number-steps.ts).
import { test } from '@playwright/test'
import { orderFoundByItsNumber } from './order-number-steps'

test('without JavaScript: the pay page says the short number and support finds the order by it', async ({
  browser,
}) => {
  // two widths, each a new context, an order and a back-office sign-in (slow on a loaded machine)
  test.setTimeout(180_000)
  await orderFoundByItsNumber(browser, false)
})
