// Issue 33 without JavaScript, at 360 px: consent boxes, and the owner's requisites (e2e/legal-steps.ts).
import { test } from '@playwright/test'
import { guestOrderNeedsConsent, ownerFillsRequisites, signUpNeedsConsent } from './legal-steps'
import { ownerPublishesDemoDocument } from './legal-templates-steps'

test('without JavaScript: a guest order goes on only with the consent box ticked', async ({ page }) => {
  await guestOrderNeedsConsent(page)
})

test('without JavaScript: a sign-up goes on only with the consent box ticked', async ({ page }) => {
  await signUpNeedsConsent(page)
})

test('without JavaScript: the owner fills the requisites; they show in the footer and on the contacts page', async ({
  page,
  context,
  request,
}) => {
  await ownerFillsRequisites(page, context, request)
})

test('without JavaScript: the consent, not published, then published from the template filled with the requisites (issue 47)', async ({
  page,
  context,
  request,
}) => {
  await ownerPublishesDemoDocument(page, context, request, 'consent')
})
