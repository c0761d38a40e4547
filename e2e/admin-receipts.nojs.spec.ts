// «Чеки» without JavaScript, on a phone: the filters are a plain GET form (steps: admin-receipts-steps.ts).
import { test } from '@playwright/test'
import { ownerReadsReceiptByOrderNumber } from './admin-receipts-steps'

test('without JavaScript: the owner finds a paid order’s receipt by its number and reads it as a receipt, on the list and on the order', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(120_000)
  await ownerReadsReceiptByOrderNumber(page, context, request, { axe: false })
})
