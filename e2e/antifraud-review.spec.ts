// Issue 34 with JavaScript on, on a phone: a first-time email buys above the threshold, the
// order is held («на проверке», no code); the owner approves one (the buyer's page shows the code)
// and rejects another (the buyer's page shows the refund).
import { test } from '@playwright/test'
import { OWNER, signInAs } from './admin-helpers'
import {
  buyerSeesCode,
  buyerSeesHeld,
  buyerSeesRefund,
  heldOrder,
  ownerBlocksAndUnblocks,
  ownerDecides,
  ownerEditsAntifraud,
  PHONE,
} from './antifraud-review-steps'

test.use({ viewport: PHONE })

test('held for review: approved shows the code, rejected shows the refund', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(120_000)
  const guest = await browser.newContext({ viewport: PHONE, javaScriptEnabled: true })
  const buyer = await guest.newPage()
  const approved = await heldOrder(request)
  const rejected = await heldOrder(request)
  await buyerSeesHeld(buyer, approved)
  await buyerSeesHeld(buyer, rejected)

  await signInAs(context, request, OWNER)
  await ownerDecides(page, approved, 'approve')
  await buyerSeesCode(buyer, approved)
  await ownerDecides(page, rejected, 'reject')
  await buyerSeesRefund(buyer, rejected)
  await guest.close()
})

test('the owner edits «Антифрод» and the block list, with Russian form errors', async ({
  page,
  context,
  request,
}) => {
  await signInAs(context, request, OWNER)
  await ownerEditsAntifraud(page)
  await ownerBlocksAndUnblocks(page)
})
