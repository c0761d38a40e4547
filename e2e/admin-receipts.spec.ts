// «Чеки» with JavaScript, on a phone (steps: admin-receipts-steps.ts).
import { test } from '@playwright/test'
import { ownerReadsReceiptByOrderNumber, receiptStaysWhileItsCodeLoads } from './admin-receipts-steps'

test('the owner finds a paid order’s receipt by its number and reads it as a receipt, on the list and on the order', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000)
  await ownerReadsReceiptByOrderNumber(page, context, request, { axe: true })
})

test('a note added before the receipt card’s code is in keeps the receipt on the order card', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000)
  await receiptStaysWhileItsCodeLoads(page, context, request)
})
