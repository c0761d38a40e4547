// Issue 33 with JavaScript on, at 360 px: consent boxes, and the owner's requisites (e2e/legal-steps.ts).
import { test } from '@playwright/test'
import {
  guestOrderNeedsConsent,
  ownerFillsRequisites,
  paidOrderShowsReceiptAndSeller,
  signUpNeedsConsent,
} from './legal-steps'
import { ownerPublishesDemoDocument } from './legal-templates-steps'

// two of these tests change the requisites and put them back: they must not overlap
test.describe.configure({ mode: 'serial' })

test('a guest order goes on only with the consent box ticked', async ({ page }) => {
  await guestOrderNeedsConsent(page)
})

test('a sign-up goes on only with the consent box ticked', async ({ page }) => {
  await signUpNeedsConsent(page)
})

test('the owner fills the requisites; they show in the footer and on the contacts page', async ({
  page,
  context,
  request,
}) => {
  await ownerFillsRequisites(page, context, request)
})

test('after a sandbox payment the order shows its receipt; the done mail names the seller', async ({
  page,
  context,
  request,
}) => {
  await paidOrderShowsReceiptAndSeller(page, context, request)
})

test('the refund rules: not published, then published from the template filled with the requisites (issue 47)', async ({
  page,
  context,
  request,
}) => {
  await ownerPublishesDemoDocument(page, context, request, 'refunds')
})

// the same purchase without JavaScript, in this file so that it never overlaps the one above (both
// change the requisites and put them back)
test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })
  test('after a sandbox payment the order shows its receipt; the done mail names the seller (no JS)', async ({
    page,
    context,
    request,
  }) => {
    await paidOrderShowsReceiptAndSeller(page, context, request)
  })
})
