// Mail with JavaScript off: the same purchase and order look-up through server-rendered forms only.
import { test } from '@playwright/test'
import { guestBuysAndReadsTheMail, guestFindsOrdersByMail } from './mail-steps'
import { guestEmail } from './purchase-steps'

test('a guest buys without JavaScript, the mail arrives with the code, its link shows it; then finds the order', async ({
  page,
}) => {
  test.setTimeout(60_000)
  const email = guestEmail('mail-nojs')
  const order = await guestBuysAndReadsTheMail(page, email, false)
  await guestFindsOrdersByMail(page, email, order)
})
