// The shop's logo upload and tagline at /admin/shop with JavaScript, at 360 px (issue 47).
import { test } from '@playwright/test'
import { ownerBrandsTheShop } from './shop-branding-steps'

test('the owner sets the tagline and uploads the shop’s logo; the storefront shows both', async ({
  page,
  context,
  request,
}) => {
  await ownerBrandsTheShop(page, context, request)
})
