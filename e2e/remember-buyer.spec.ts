// Issue 50, with JavaScript: the device remembers a guest (and forgets on request); a repeat lands
// on the pay button with the last method checked. Steps: remember-buyer-steps.ts.
import { test } from '@playwright/test'
import {
  giftRemembersAndTheFooterForgets,
  guestIsRememberedAndForgotten,
  profileSettingsForget,
  repeatLandsOnThePayButton,
} from './remember-buyer-steps'

test('a guest’s email and Steam login come back on this device; «Забыть» clears them', async ({
  page,
  context,
}) => {
  await guestIsRememberedAndForgotten(page, context)
})

test('a repeat from the history lands on the pay page with the last method checked', async ({
  page,
  context,
  baseURL,
}) => {
  await repeatLandsOnThePayButton(page, context, baseURL!)
})

test('a guest’s gift order remembers the email for the next gift; the footer’s page forgets it', async ({
  page,
  context,
}) => {
  await giftRemembersAndTheFooterForgets(page, context)
})

test('a signed-in buyer forgets this device’s data from the profile settings', async ({
  page,
  context,
  baseURL,
}) => {
  await profileSettingsForget(page, context, baseURL!)
})
