// A YooKassa card payment with the method's fee and the owner's refund of it, with JavaScript
// (steps: yookassa-refund-steps.ts).
import { test } from '@playwright/test'
import { buyerPaysByCard, ownerAddsCardWithFee, ownerRefundsCharged } from './yookassa-refund-steps'

test('the pay page says the charged amount with the fee, and the refund returns it', async ({
  page,
  context,
  request,
}) => {
  await page.setViewportSize({ width: 360, height: 800 })
  const title = await ownerAddsCardWithFee(page, context, request)
  const paid = await buyerPaysByCard(page, context, request, title)
  await ownerRefundsCharged(page, context, request, paid)
})
