// Issue 49 with JavaScript, on a phone: a support member links Telegram from the back-office; a
// buyer follows an order in Telegram from its pay page.
import { test } from '@playwright/test'
import { SUPPORT, signInAs } from './admin-helpers'
import { buyerFollowsOrder, PHONE, supportLinksTelegram } from './telegram-steps'

test.use({ viewport: PHONE })

test('a support member links Telegram from the back-office', async ({ page, context, request }) => {
  test.setTimeout(90_000)
  await signInAs(context, request, SUPPORT)
  await supportLinksTelegram(page, context, request)
})

test('a buyer follows an order with «Следить в Telegram» from the pay page', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(90_000)
  await buyerFollowsOrder(page, context, request)
})
