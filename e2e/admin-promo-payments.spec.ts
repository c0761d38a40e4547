// The back-office's promo codes and payment setup with JavaScript: a code the owner creates is
// applied by a shopper on the payment page; a method the owner switches off is not offered there.
import { test } from '@playwright/test'
import { ownerCreatesPromoThatShopperApplies, ownerSwitchesMethodOff } from './admin-promo-payments-steps'

test('the owner creates a promo code (a refusal first), a shopper applies it, switched off it is gone', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(90_000)
  await ownerCreatesPromoThatShopperApplies(page, context, request)
})

test('a payment method the owner switches off is unavailable on the payment page, and back on', async ({
  page,
  context,
  request,
}) => {
  test.setTimeout(90_000)
  await ownerSwitchesMethodOff(page, context, request, {
    country: 'Казахстан',
    method: 'QR-код мобильного банка',
  })
})
