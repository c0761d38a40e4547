// «Чеки» with JavaScript, on a phone (steps: admin-receipts-steps.ts).
import { test } from '@playwright/test'
import { ownerReadsReceiptByOrderNumber } from './admin-receipts-steps'

test('the owner finds a paid order’s receipt by its number and reads it as a receipt, on the list and on the order', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000)
  await ownerReadsReceiptByOrderNumber(page, context, request, { axe: true })
})
