// Issue 16's owner path with JavaScript, to the end: a guest buys from the demo PUBG game → the
// order is in the back-office with its timeline → the owner refunds it → the buyer's order page
// shows «Возврат» with the reason.
import { test } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import { buyerSeesRefund, guestBuysUndelivered, ownerRefunds } from './admin-refund-steps'
import { gameId } from './demo-catalogue'

test('the owner refunds a guest’s undelivered order and the buyer sees «Возврат»', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(90_000)
  await signInAs(context, request, OWNER)
  const guest = await browser.newContext()
  const buyer = await guest.newPage()
  const orderId = await guestBuysUndelivered(buyer, await gameId(request, 'PUBGGame'))

  const reason = 'Поставщик не выдал UC, деньги вернём'
  await ownerRefunds(page, orderId, reason)
  await buyerSeesRefund(buyer, orderId, reason)
  await guest.close()
})
