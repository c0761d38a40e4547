import { test } from '@playwright/test'
import {
  payPageRefusesWhenCodesCannotBeHeld,
  soldOutGiftIsMarked,
  soldOutProductIsMarked,
} from './stock-refusal-steps'

// The same refusals with JavaScript off: the server-rendered pages and plain forms.

test('without JavaScript a product with no free codes is «Нет в наличии»', async ({ page, request }) => {
  await soldOutProductIsMarked(page, request)
})

test('without JavaScript the pay page refuses a payment whose codes cannot be held', async ({
  page,
  request,
}) => {
  await payPageRefusesWhenCodesCannotBeHeld(page, request)
})

test('without JavaScript a sold-out gift is marked and cannot be bought', async ({ page, request }) => {
  await soldOutGiftIsMarked(page, request)
})
