// The success screen and a declined payment at 360×740 with JavaScript off: both are rendered by
// the server, the retry is a plain form post (issue 50).
import { test } from '@playwright/test'
import { declinedPaymentSaysSoAtTheTop, successScreenShowsTheCode } from './success-screen-steps'

test('a done order leads with «Готово», its number and the code on the first screen', async ({ page }) => {
  await successScreenShowsTheCode(page, false)
})

test('a declined payment says at the top that no money was taken; the retry pays', async ({ page }) => {
  await declinedPaymentSaysSoAtTheTop(page, false)
})
