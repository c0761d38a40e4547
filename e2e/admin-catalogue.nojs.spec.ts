// The back-office catalogue without JavaScript: the same forms post and come back.
import { test } from '@playwright/test'
import { ownerAddsGameWithProduct } from './admin-catalogue-steps'
import { OWNER, signInAs } from './admin-helpers'

test('without JavaScript: the owner adds a game, a refused then an accepted product, a FAQ item', async ({
  page,
  context,
  request,
}) => {
  await signInAs(context, request, OWNER)
  await ownerAddsGameWithProduct(page)
})
