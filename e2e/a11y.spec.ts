// axe (WCAG 2.0 A/AA and 2.1 AA) finds no violation on any screen of the shop, both as the
// browser renders it with JavaScript and as the server sends it: for the latter the app's client
// bundles are blocked (axe itself needs JavaScript, so javaScriptEnabled:false cannot be used).
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { baseURL } from '../playwright.config'
import { SCREENS } from './screens'

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa']

function report(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']) {
  return violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes
      .slice(0, 5)
      .map((n) => `${n.target.join(' ')} :: ${n.failureSummary?.split('\n')[1] ?? ''}`),
  }))
}

for (const mode of ['with JavaScript', 'server-rendered (bundles blocked)'] as const) {
  test.describe(mode, () => {
    for (const screen of SCREENS) {
      test(`${screen.name}: no axe violations`, async ({ page, context, request }) => {
        const path = await screen.path({ page, context, request })
        if (mode !== 'with JavaScript') {
          // the app's client code: entry module, route chunks and their imports
          await page.route('**/assets/**/*.js', (r) => r.abort())
          await page.route('**/*.{js,mjs}', (r) =>
            new URL(r.request().url()).origin === baseURL ? r.abort() : r.continue(),
          )
        }
        const res = await page.goto(path)
        expect(res?.status()).toBe(screen.status ?? 200)
        await expect(page.locator('h1').first()).toBeVisible()
        if (mode === 'with JavaScript') await page.waitForLoadState('networkidle')
        await screen.act?.(page)
        const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze()
        expect(report(violations), `${path} (${mode})`).toEqual([])
      })
    }
  })
}
