// The whole guest purchase with the keyboard alone (Tab, Shift+Tab, Enter, Space, arrow keys in a
// radio group, typing; no mouse): home → game → quantity → email → pay page → method → sandbox
// checkout → done. Every element that takes focus on the way shows it, and form errors are
// announced (a live region, or aria-invalid + aria-describedby pointing at the message).
import { expect, type Locator, type Page, test } from '@playwright/test'
import { METHOD_BY_SCENARIO, SANDBOX, statusHeading } from './payment-steps'

/** What the focused element looks like: a visible outline or a box-shadow ring. */
async function focusState(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null
    if (!el || el === document.body) return null
    const s = getComputedStyle(el)
    const outline = s.outlineStyle !== 'none' && Number.parseFloat(s.outlineWidth) > 0
    const shadow = s.boxShadow !== 'none' && s.boxShadow !== ''
    const label = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} «${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}»`
    return { label, visible: outline || shadow }
  })
}

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, checking on every stop that the focus
 * is visible. Fails when the target is never reached.
 */
async function tabTo(page: Page, target: Locator, opts: { back?: boolean; max?: number } = {}) {
  const unseen: string[] = []
  for (let i = 0; i < (opts.max ?? 120); i++) {
    await page.keyboard.press(opts.back ? 'Shift+Tab' : 'Tab')
    const state = await focusState(page)
    if (state && !state.visible) unseen.push(state.label)
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) {
      expect(unseen, 'elements focused without a visible focus indicator').toEqual([])
      return
    }
  }
  throw new Error(`never reached ${target} with ${opts.back ? 'Shift+Tab' : 'Tab'}`)
}

/** Arrow keys through a radio group until `radio` is the checked one. */
async function arrowTo(page: Page, radio: Locator) {
  for (let i = 0; i < 20; i++) {
    if (await radio.isChecked()) return
    await page.keyboard.press('ArrowDown')
  }
  throw new Error(`arrow keys never selected ${radio}`)
}

test('a guest buys PUBG Mobile UC and pays in the sandbox with the keyboard alone', async ({ page }) => {
  test.setTimeout(90_000)
  await page.goto('/')
  // the skip link or the header comes first; the catalogue search is reachable
  const search = page.getByRole('searchbox', { name: 'Поиск игры' })
  await tabTo(page, search)
  await page.keyboard.type('PUBG Mobile')
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\?search=/)

  const card = page.getByRole('link', { name: /^PUBG Mobile/ }).first()
  await tabTo(page, card)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/products\/\d+$/)

  const form = page.getByRole('form', { name: 'Оформление заказа' })
  const qty = form.getByRole('spinbutton', { name: 'Количество: 60 UC', exact: true })
  await tabTo(page, qty)
  await page.keyboard.press('ControlOrMeta+A')
  await page.keyboard.type('2')

  // submitting without the email: the error is announced and tied to the field
  const submit = form.getByRole('button', { name: 'Перейти к оплате' })
  await tabTo(page, submit)
  await page.keyboard.press('Enter')
  const email = form.getByLabel('Электронная почта')
  await expect(email).toHaveAttribute('aria-invalid', 'true')
  const describedBy = (await email.getAttribute('aria-describedby')) ?? ''
  expect(describedBy).not.toBe('')
  const messages = await Promise.all(
    describedBy.split(/\s+/).map((id) => page.locator(`[id="${id}"]`).textContent()),
  )
  expect(messages.join(' ')).toContain('Укажите электронную почту')
  const announced = form
    .locator('[aria-live], [role="alert"]')
    .filter({ hasText: 'Укажите электронную почту' })
  await expect(announced.first()).toBeVisible()

  await tabTo(page, email, { back: true })
  await page.keyboard.type(`keyboard-${Date.now()}@example.com`)
  // the consent box (issue 33): reached by Tab, ticked with Space
  const consent = form.getByLabel('Я даю согласие на обработку персональных данных')
  await tabTo(page, consent)
  await page.keyboard.press('Space')
  await expect(consent).toBeChecked()
  await tabTo(page, submit)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(/\/orders\/[0-9a-f-]{36}\/pay$/)
  const payUrl = page.url()

  const method = page.getByRole('radio', { name: METHOD_BY_SCENARIO.redirect, exact: true })
  // the page checks the cheapest method for the buyer; Tab enters the group on the checked radio,
  // arrows choose within it
  const preselected = page.getByRole('radio', { checked: true })
  await expect(preselected).toHaveCount(1)
  await tabTo(page, preselected)
  await arrowTo(page, method)
  const pay = page.getByRole('button', { name: 'Перейти к оплате' })
  await tabTo(page, pay)
  await page.keyboard.press('Enter')

  await expect(page).toHaveURL(/\/api\/payments\/sandbox\/checkout\//)
  await expect(page.getByRole('heading', { name: SANDBOX.heading })).toBeVisible()
  await tabTo(page, page.getByRole('button', { name: SANDBOX.pay }))
  await page.keyboard.press('Space')

  await expect(page).toHaveURL(payUrl)
  await expect(statusHeading(page, 'Выполнен')).toBeVisible({ timeout: 15_000 })
})

test('the skip link and header controls show their focus', async ({ page }) => {
  await page.goto('/info')
  const seen: string[] = []
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab')
    const state = await focusState(page)
    if (!state) continue
    seen.push(state.label)
    expect(state.visible, `${state.label} has no visible focus`).toBe(true)
  }
  expect(seen.length).toBeGreaterThan(5)
})
