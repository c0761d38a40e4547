import { test } from '@playwright/test'
import { payPageRefusesWhenCodesCannotBeHeld, soldOutProductIsMarked } from './stock-refusal-steps'

// (the sold-out gift with JavaScript on is in gifts.spec.ts)
test('a product with no free codes is «Нет в наличии» and comes back with stock', async ({
  page,
  request,
}) => {
  await soldOutProductIsMarked(page, request)
})

test('the pay page refuses, before paying, a payment whose codes cannot be held', async ({
  page,
  request,
}) => {
  await payPageRefusesWhenCodesCannotBeHeld(page, request)
})
