// Issue 45 without JavaScript, on a phone: the desk says when an untaken order's money goes back by itself and
// that a taken one never does; a taken order past its deadline goes to the owner (mail, the
// overview's «нужен человек», the desk's filter), who delivers it; a buyer's history shows both
// receipts of a delivered Steam top-up, «предоплата 100 %» and «полный расчёт».
import { test } from '@playwright/test'
import { OWNER, SUPPORT, signInAs } from './admin-helpers'
import {
  buyerPaysManualSteam,
  historyShowsBothReceipts,
  ownerFindsEscalatedAndDelivers,
  PHONE,
  supportSeesClockTakesAndDelivers,
  supportTakesOrderDueSoon,
} from './delivery-refund-steps'

test.use({ viewport: PHONE })

test('without JavaScript: the desk shows the refund clock; the history shows the advance, then both receipts', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(150_000)
  const buyer = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false })
  const { number, email } = await buyerPaysManualSteam(buyer, request)
  await signInAs(context, request, SUPPORT)
  await supportSeesClockTakesAndDelivers(page, number)
  await historyShowsBothReceipts(buyer, email)
  await buyer.close()
})

test('without JavaScript: a taken order past its refund deadline is escalated to the owner, not refunded', async ({
  page,
  context,
  browser,
  request,
}) => {
  // the e2e server's deadline for this order is 75 s after payment
  test.setTimeout(240_000)
  await signInAs(context, request, SUPPORT)
  const { id, number } = await supportTakesOrderDueSoon(page, request)
  const owner = await browser.newContext({ viewport: PHONE, javaScriptEnabled: false })
  await signInAs(owner, request, OWNER)
  await ownerFindsEscalatedAndDelivers(await owner.newPage(), request, id, number)
  await owner.close()
})
