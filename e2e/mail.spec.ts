// Mail with JavaScript on: a guest's purchase reaches the mailbox (the e2e shop writes .eml files)
// with its code and a working order link, and «Найти заказ» mails the list of their orders.
import { test } from '@playwright/test'
import { guestBuysAndReadsTheMail, guestFindsOrdersByMail } from './mail-steps'
import { guestEmail } from './purchase-steps'

test('a guest buys, the mail arrives with the code, its order link shows it; then finds the order by mail', async ({
  page,
}) => {
  test.setTimeout(60_000)
  const email = guestEmail('mail-js')
  const order = await guestBuysAndReadsTheMail(page, email, true)
  await guestFindsOrdersByMail(page, email, order)
})
