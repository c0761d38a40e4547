// The owner's refund without JavaScript, for the owner and the buyer alike: plain form posts.
import { test } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import { buyerSeesRefund, guestBuysUndelivered, ownerRefunds } from './admin-refund-steps'
import { gameId } from './demo-catalogue'

test('without JavaScript: the owner refunds an undelivered order, the buyer sees «Возврат»', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(90_000)
  await signInAs(context, request, OWNER)
  const guest = await browser.newContext({ javaScriptEnabled: false })
  const buyer = await guest.newPage()
  const orderId = await guestBuysUndelivered(buyer, await gameId(request, 'PUBGGame'))

  const reason = 'Поставщик не выдал UC, деньги вернём'
  await ownerRefunds(page, orderId, reason)
  await buyerSeesRefund(buyer, orderId, reason)
  await guest.close()
})
