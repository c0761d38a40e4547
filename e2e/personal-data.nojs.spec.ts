// Issue 33 without JavaScript, at 360 px: a personal data request (e2e/personal-data-steps.ts).
import { test } from '@playwright/test'
import { personalDataRequest } from './personal-data-steps'

test('without JavaScript: a personal data request: mailed link, deadline, support marks it done', async ({
  page,
  context,
  request,
}) => {
  await personalDataRequest(page, context, request)
})
