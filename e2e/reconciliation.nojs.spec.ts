// «Сверка» without JavaScript, on a phone: plain form posts (steps: reconciliation-steps.ts).
import { test } from '@playwright/test'
import { ownerExplainsPlantedDifference } from './reconciliation-steps'

test('without JavaScript: the owner finds a payment YooKassa took that the shop does not know, opens its order and explains it', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(90_000)
  await ownerExplainsPlantedDifference(page, context, request)
})
