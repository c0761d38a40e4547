// The back-office logo upload with JavaScript.
import { test } from '@playwright/test'
import { ownerUploadsGameLogo } from './admin-logo-steps'

test('the owner uploads a game logo: a non-image is refused by the field, a PNG is stored and served', async ({
  page,
  context,
  request,
}) => {
  await ownerUploadsGameLogo(page, context, request)
})
