// The back-office logo upload without JavaScript: a plain multipart post.
import { test } from '@playwright/test'
import { ownerUploadsGameLogo } from './admin-logo-steps'

test('without JavaScript: the owner uploads a game logo, a non-image first', async ({
  page,
  context,
  request,
}) => {
  await ownerUploadsGameLogo(page, context, request)
})
