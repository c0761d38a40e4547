// An owner's first day on a production shop started from nothing, with JavaScript (steps:
// first-day-steps.ts; the path of docs/operations.md «First day of a real shop»).
import { test } from '@playwright/test'
import { ownersFirstDay } from './first-day-steps'

test('an owner opens a production shop: confirm, warnings until fixed, name and logo, catalogue', async ({
  browser,
}) => {
  // a shop started twice (slow on a loaded machine), and up to 120 s for the alert check to close the mail alert
  test.setTimeout(720_000)
  await ownersFirstDay(browser, true)
})
