// Issue 20, finding 1, as the audit did it in Chromium: the attacker stops at the provider's
// redirect with their own code and state, then a page of theirs makes the victim's signed-in
// browser start a bind and open the attacker's return link. Nothing may be bound, and nobody
// may be signed in to the attacker's account.
import { type Browser, expect, type Page, test } from '@playwright/test'
import { baseURL, FAKE_SOCIAL_ORIGIN } from '../playwright.config'
import { authDialog, openStartedAuthPopup, signUpViaPopup, uniqueEmail } from './account-helpers'

const TOAST = { timeout: 15_000 }
const MISMATCH = 'Вход не удалось завершить'

/** The attacker's own sign-in, stopped at the provider's redirect back to us: the return link. */
async function attackersReturnLink(browser: Browser, provider: string, title: string): Promise<string> {
  const context = await browser.newContext({ baseURL })
  try {
    const page = await context.newPage()
    let link = ''
    // the attacker's browser posts the start form; its redirects are followed by hand up to the
    // provider's answer (a redirect's target cannot be routed), which is not opened
    await page.route(`**/auth/${provider}/start`, async (route) => {
      const start = await route.fetch({ maxRedirects: 0 })
      const authorize = new URL(start.headers().location ?? '')
      authorize.searchParams.set('fake_user', `attacker${Date.now()}`)
      const answer = await context.request.get(authorize.toString(), { maxRedirects: 0 })
      link = answer.headers().location ?? ''
      await route.abort()
    })
    await openStartedAuthPopup(page)
    await authDialog(page)
      .getByRole('button', { name: `Войти через ${title}` })
      .click()
    await expect.poll(() => link).toContain('state=')
    return link
  } finally {
    await context.close()
  }
}

async function socialStatus(page: Page, title: string) {
  // the page may still be settling after a redirect with a toast: let it finish first
  await page.waitForLoadState('networkidle')
  await page.goto('/profile')
  return page.getByRole('listitem').filter({ hasText: `${title}:` })
}

test('binding CSRF: the attacker’s Яндекс return in the victim’s signed-in browser binds nothing', async ({
  page,
  browser,
}) => {
  const victim = uniqueEmail('bind-victim')
  await signUpViaPopup(page, victim)
  const link = await attackersReturnLink(browser, 'yandex', 'Яндекс ID')

  // the attacker's page opens the old bind start in the victim's browser: a GET starts nothing now
  await page.goto('/auth/yandex/start?mode=bind')
  await expect(page).toHaveURL('/profile')
  // a cross-site page posting the bind form is refused
  await page.goto(`${FAKE_SOCIAL_ORIGIN}/health`)
  const [res] = await Promise.all([
    page.waitForResponse((r) => r.url() === `${baseURL}/auth/yandex/start`),
    page.evaluate((action) => {
      const f = document.createElement('form')
      f.method = 'post'
      f.action = action
      for (const [k, v] of [
        ['mode', 'bind'],
        ['returnTo', '/profile'],
      ]) {
        const i = document.createElement('input')
        i.type = 'hidden'
        i.name = k!
        i.value = v!
        f.append(i)
      }
      document.body.append(f)
      f.submit()
    }, `${baseURL}/auth/yandex/start`),
  ])
  expect(res.status()).toBe(403)
  // the refused post's page finishes loading before the next navigation (or that one is interrupted)
  await page.waitForURL(`${baseURL}/auth/yandex/start`)
  await page.waitForLoadState('load')

  // then it sends the victim's browser to the attacker's return link
  await page.goto(link)
  await expect(page.getByText(MISMATCH)).toBeVisible(TOAST)
  const yandex = await socialStatus(page, 'Яндекс ID')
  await expect(yandex).toContainText('не привязан')
  // still the victim, signed in to their own account
  await expect(page.getByText(victim)).toBeVisible()
})

test('login CSRF: the attacker’s return in a signed-out browser signs it in to nothing', async ({
  page,
  browser,
}) => {
  const link = await attackersReturnLink(browser, 'vk_id', 'VK ID')
  await page.goto(link)
  await expect(page.getByText(MISMATCH)).toBeVisible(TOAST)
  await expect(page.getByRole('button', { name: 'Выйти' })).toHaveCount(0)
  await page.goto('/profile')
  await expect(page).toHaveURL('/')
})

test('the shopper’s own bind, started by the profile’s button, still works', async ({ page }) => {
  await signUpViaPopup(page, uniqueEmail('bind-own'))
  const yandex = await socialStatus(page, 'Яндекс ID')
  await yandex.getByRole('button', { name: 'Привязать Яндекс ID' }).click()
  await expect(page).toHaveURL('/profile')
  await expect(page.getByText('Яндекс ID привязан к профилю')).toBeVisible(TOAST)
  await expect(yandex).not.toContainText('не привязан')
})

test('Telegram’s return page (payload in the fragment) runs its script under the CSP', async ({
  page,
  context,
}) => {
  const violations: string[] = []
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text())
  })
  await context.addCookies([{ name: 'fake_user', value: `tgcsp${Date.now()}`, url: FAKE_SOCIAL_ORIGIN }])
  await openStartedAuthPopup(page)
  await authDialog(page).getByRole('button', { name: 'Войти через Telegram' }).click()
  // the fake's page, its script, our return page's script, the callback: then the profile
  await expect(page).toHaveURL('/profile', TOAST)
  await expect(page.getByText('Аккаунт создан, вы вошли')).toBeVisible(TOAST)
  expect(violations).toEqual([])
})
