// Issue 31 without JavaScript, on a phone: a guest buys Standoff gold of a game a person delivers; a
// support member delivers it at the desk; the buyer sees done and gets the mail.
import { test } from '@playwright/test'
import { SUPPORT, signInAs } from './admin-helpers'
import {
  buyerSeesDone,
  guestBuysManualGold,
  manualGameId,
  PHONE,
  supportDelivers,
} from './delivery-desk-steps'

test.use({ viewport: PHONE })

test('without JavaScript: a manual Standoff order waits for a person, who delivers it at the desk', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(120_000)
  const guest = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false })
  const buyer = await guest.newPage()
  const email = `desk-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
  const { orderId, price } = await guestBuysManualGold(buyer, await manualGameId(request), email, false)

  await signInAs(context, request, SUPPORT)
  await supportDelivers(page, orderId, price, SUPPORT.email)
  await buyerSeesDone(buyer, orderId, email)
  await guest.close()
})
