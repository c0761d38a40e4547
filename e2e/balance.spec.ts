import { test } from '@playwright/test'
import { buyGiftAndSeeCashback } from './balance-steps'

test('a signed-in gift purchase credits the cashback: the profile shows the balance and its history', async ({
  page,
  context,
  baseURL,
}) => {
  await buyGiftAndSeeCashback(page, context, baseURL!, (gifts) => gifts[gifts.length - 1]!)
})
