import { test } from '@playwright/test'
import { buyGiftAndSeeCashback } from './balance-steps'

test('without JavaScript the cashback of a gift shows in the profile and its balance history', async ({
  page,
  context,
  baseURL,
}) => {
  await buyGiftAndSeeCashback(page, context, baseURL!, (gifts) => gifts[gifts.length - 2]!)
})
