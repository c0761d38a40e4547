// Each popup (sign-in, last orders, account deletion) on a 360 px phone, with JavaScript: focus
// moves in, Tab and Shift+Tab stay inside, the page behind does not scroll, and on close focus
// goes back to the control that opened it.
import { expect, type Page, test } from '@playwright/test'
import { signIn } from './screens'

test.use({ viewport: { width: 360, height: 740 } })

/** Focus stays in the dialog for `presses` Tabs forward and back. */
async function expectFocusTrapped(page: Page, presses = 12) {
  const dialog = page.getByRole('dialog')
  const inside = () => dialog.evaluate((d) => d.contains(document.activeElement))
  await expect.poll(inside).toBe(true)
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < presses; i++) {
      await page.keyboard.press(key)
      expect(await inside(), `${key} × ${i + 1} left the popup`).toBe(true)
    }
  }
}

/** The page behind is locked: a wheel over it does not move it. */
async function expectScrollLocked(page: Page) {
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).toBe('hidden')
  const before = await page.evaluate(() => window.scrollY)
  await page.mouse.move(180, 700)
  await page.mouse.wheel(0, 600)
  // a wheel that did scroll would have moved the page by now; nothing to wait for otherwise
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
  expect(await page.evaluate(() => window.scrollY)).toBe(before)
}

async function expectUnlocked(page: Page) {
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect(await page.evaluate(() => getComputedStyle(document.body).overflow)).not.toBe('hidden')
}

test('the sign-in popup traps focus, locks the page and gives focus back to «Войти»', async ({ page }) => {
  await page.goto('/gifts')
  await page.waitForLoadState('networkidle')
  const opener = page.getByRole('banner').getByRole('link', { name: 'Войти' })
  await opener.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog')).toBeVisible()
  await expectFocusTrapped(page)
  await expectScrollLocked(page)
  await page.keyboard.press('Escape')
  await expectUnlocked(page)
  await expect(opener).toBeFocused()
})

test('the last-orders popup traps focus and locks the page', async ({ page, context, request }) => {
  await signIn(context, request)
  await page.goto('/profile?last-orders=1')
  await page.waitForLoadState('networkidle')
  await expect(page.getByRole('dialog')).toBeVisible()
  await expectFocusTrapped(page, 6)
  await expectScrollLocked(page)
  await page.keyboard.press('Escape')
  await expectUnlocked(page)
})

test('the deletion popup starts on the safe choice, traps focus and gives focus back', async ({
  page,
  context,
  request,
}) => {
  await signIn(context, request)
  await page.goto('/profile')
  await page.waitForLoadState('networkidle')
  const opener = page.getByRole('link', { name: 'Удалить аккаунт' })
  await opener.focus()
  await page.keyboard.press('Enter')
  await expect(page.getByRole('dialog')).toBeVisible()
  await expect(page.getByRole('dialog').getByRole('link', { name: 'Отмена' })).toBeFocused()
  await expectFocusTrapped(page, 6)
  await expectScrollLocked(page)
  await page.keyboard.press('Escape')
  await expectUnlocked(page)
  await expect(opener).toBeFocused()
})
