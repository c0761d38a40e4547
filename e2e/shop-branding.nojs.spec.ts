// The shop's logo upload and tagline at /admin/shop without JavaScript, at 360 px (issue 47):
// plain form posts, the logo's a multipart one.
import { test } from '@playwright/test'
import { ownerBrandsTheShop } from './shop-branding-steps'

test('without JavaScript: the owner sets the tagline and uploads the shop’s logo', async ({
  page,
  context,
  request,
}) => {
  await ownerBrandsTheShop(page, context, request)
})
