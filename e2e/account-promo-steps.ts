// The account's promo code in the profile, shared by the JavaScript on (account-promo.spec.ts) and
// off (account-promo.nojs.spec.ts) specs, on a 360 px phone, on the profile's settings tab: a
// confirmed account saves WELCOME10, sees it (also in the profile's card), and removes it; an
// unknown code and an unconfirmed email are refused at the field.
import { type APIRequestContext, type BrowserContext, expect, type Page, test } from '@playwright/test'
import { baseURL } from '../playwright.config'
import { PASSWORD, uniqueEmail } from './account-helpers'
import { linkIn, waitForMail } from './mail-steps'

const PHONE = { width: 360, height: 740 }

/** A new account signed in for this browser context; its email confirmed through the mail's link. */
async function newAccount(context: BrowserContext, request: APIRequestContext, confirmed: boolean) {
  const email = uniqueEmail('promo')
  const res = await request.post('/api/auth/jwt/create/', { data: { email, password: PASSWORD } })
  expect(res.ok(), await res.text()).toBe(true)
  const { access, refresh } = (await res.json()) as { access: string; refresh: string }
  if (confirmed) {
    const link = new URL(linkIn(await waitForMail(email, /почт/i, 60_000), /\/auth\/confirm\?token=/))
    const token = link.searchParams.get('token')
    // from the signed-up session (a confirmation from elsewhere hands the account over, decision 045)
    const done = await request.post('/api/auth/email/confirm/', {
      data: { token },
      headers: { authorization: `Bearer ${access}` },
    })
    expect(done.ok(), await done.text()).toBe(true)
  }
  await context.addCookies([
    { name: 'access', value: access, url: baseURL, httpOnly: true, sameSite: 'Lax' },
    { name: 'refresh', value: refresh, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
  return { email, access }
}

const promoSection = (page: Page) => page.getByRole('region', { name: 'Промокод аккаунта' })

async function profileOf(request: APIRequestContext, access: string) {
  const res = await request.get('/api/auth/profile/', { headers: { authorization: `Bearer ${access}` } })
  return ((await res.json()) as { active_promo_code: string | null }).active_promo_code
}

export function accountPromoSteps() {
  test.use({ viewport: PHONE })
  test.describe.configure({ timeout: 90_000 })

  test('a confirmed account saves a promo code, sees it and removes it', async ({
    page,
    context,
    request,
  }) => {
    const { access } = await newAccount(context, request, true)
    await page.goto('/profile/settings')
    const section = promoSection(page)
    await expect(section.getByRole('button', { name: 'Убрать промокод' })).toHaveCount(0)

    // an unknown code: refused at the field, what was typed stays
    await section.getByLabel('Промокод').fill('NOSUCHCODE')
    await section.getByRole('button', { name: 'Сохранить промокод' }).click()
    await expect(promoSection(page).getByRole('alert')).toHaveText('Такого промокода нет')
    await expect(promoSection(page).getByLabel('Промокод')).toHaveValue('NOSUCHCODE')
    await expect(promoSection(page).getByLabel('Промокод')).toHaveAttribute('aria-invalid', 'true')

    await promoSection(page).getByLabel('Промокод').fill('welcome10')
    await promoSection(page).getByRole('button', { name: 'Сохранить промокод' }).click()
    await expect(page.getByText('Промокод WELCOME10 сохранён: скидка 10%')).toBeVisible()
    await expect(page).toHaveURL('/profile/settings')
    await expect(promoSection(page).getByRole('status')).toHaveText('Сохранён промокод WELCOME10')
    expect(await profileOf(request, access)).toBe('WELCOME10')

    // seen on every tab of the profile, in the account's card
    await page.goto('/profile')
    await expect(page.getByRole('definition').filter({ hasText: 'WELCOME10' })).toBeVisible()
    await page.goto('/profile/settings')
    await promoSection(page).getByRole('button', { name: 'Убрать промокод' }).click()
    await expect(promoSection(page).getByLabel('Промокод')).toHaveValue('')
    await expect(promoSection(page).getByTestId('account-promo')).toHaveCount(0)
    expect(await profileOf(request, access)).toBeNull()
  })

  test('an account whose email is not confirmed is told to confirm it first', async ({
    page,
    context,
    request,
  }) => {
    const { access } = await newAccount(context, request, false)
    await page.goto('/profile/settings')
    await promoSection(page).getByLabel('Промокод').fill('WELCOME10')
    await promoSection(page).getByRole('button', { name: 'Сохранить промокод' }).click()
    await expect(promoSection(page).getByRole('alert')).toContainText('подтвердите почту')
    expect(await profileOf(request, access)).toBeNull()
  })
}
