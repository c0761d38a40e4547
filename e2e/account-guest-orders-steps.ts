// Issue 50 (remember the right things), at 360 px: a guest buys (and pays) with an email, later signs up with
// it and confirms it through the mail's link; the profile's history then lists the guest order by
// its short number, and the order's own link still opens once signed out.
import { expect, test } from '@playwright/test'
import { baseURL } from '../playwright.config'
import { createPubgOrder, PASSWORD, payWithSandbox, pubgProduct, uniqueEmail } from './account-helpers'
import { orderNumberOf } from './admin-helpers'
import { linkIn, waitForMail } from './mail-steps'

export function guestOrdersJoinSteps() {
  test('a guest’s order shows in the history once the same email is confirmed', async ({
    page,
    context,
    request,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 })
    const email = uniqueEmail('guest-later')
    const { product } = await pubgProduct(request)
    const orderId = await createPubgOrder(request, null, product.id, 1, email)
    await payWithSandbox(request, null, orderId)
    const number = await orderNumberOf(request, orderId)

    const res = await request.post('/api/auth/jwt/create/', { data: { email, password: PASSWORD } })
    expect(res.ok(), await res.text()).toBe(true)
    const { access, refresh } = (await res.json()) as { access: string; refresh: string }
    await context.addCookies([
      { name: 'access', value: access, url: baseURL, httpOnly: true, sameSite: 'Lax' },
      { name: 'refresh', value: refresh, url: baseURL, httpOnly: true, sameSite: 'Lax' },
    ])
    const history = page.getByRole('region', { name: 'История заказов' })
    // not confirmed yet: the address is only typed, so the guest order is not listed
    await page.goto('/profile')
    await expect(history).toBeVisible()
    await expect(history).not.toContainText(`№ ${number}`)

    // the confirmation link opened in this signed-in browser keeps the account (decision 045)
    const link = linkIn(await waitForMail(email, /почт/i, 60_000), /\/auth\/confirm\?token=/)
    const token = new URL(link).searchParams.get('token')
    const done = await request.post('/api/auth/email/confirm/', {
      data: { token },
      headers: { authorization: `Bearer ${access}` },
    })
    expect(done.ok(), await done.text()).toBe(true)

    await page.goto('/profile')
    await expect(history).toContainText(`№ ${number}`)
    const wide = await page.evaluate(() => document.documentElement.scrollWidth)
    expect(wide).toBeLessThanOrEqual(360)

    // it stays a guest order: its link opens signed out
    await context.clearCookies()
    await page.goto(`/orders/${orderId}/pay`)
    await expect(page.getByText(`№ ${number}`).first()).toBeVisible()
  })
}
