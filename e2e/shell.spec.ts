import { rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { expect, type Page, test } from '@playwright/test'

declare global {
  interface Window {
    __shopVersionCheck?: { firstDelayMs?: number; intervalMs?: number; current?: string }
    __remixManifest?: { version?: string }
    __sameDocument?: boolean
    __violations?: string[]
  }
}

/** Where the e2e server (scripts/e2e-server.mjs) keeps its data; the version check reads it. */
const latestVersionFile = fileURLToPath(
  new URL(`../.cache/e2e-data-${process.env.E2E_PORT ?? 3200}/latest-version`, import.meta.url),
)

/** The app runs: hovering the payment hint opens its tooltip (a lazily loaded chunk). */
async function hintOpensTooltip(page: Page) {
  const hint = page.getByRole('button', { name: 'Об оплате и комиссии' })
  await expect(async () => {
    await page.mouse.move(0, 0)
    await hint.hover()
    await expect(page.getByRole('tooltip')).toBeVisible({ timeout: 1000 })
  }).toPass()
}

/** Keeps the hourly version check out of tests that are not about it. */
async function quietVersionCheck(page: Page) {
  await page.addInitScript(() => {
    window.__shopVersionCheck = { firstDelayMs: 3_600_000 }
  })
}

/** The notification area's two live regions. */
function notifications(page: Page) {
  const area = page.getByRole('region', { name: 'Уведомления' })
  return { status: area.getByRole('status'), alert: area.getByRole('alert') }
}

/** The animation clock of the toast showing now, in ms. */
function toastClock(page: Page) {
  return page.locator('.toast').evaluate((el) => Number(el.getAnimations()[0]?.currentTime ?? -1))
}

test.describe('notifications (§4)', () => {
  test.beforeEach(async ({ page }) => quietVersionCheck(page))

  test('two errors and a success in a row show one after another; closing or the animation end moves on', async ({
    page,
  }) => {
    await page.goto('/e2e/toasts')
    await page.getByRole('button', { name: 'Post two errors and a success' }).click()

    const toasts = page.locator('.toast')
    const { alert, status } = notifications(page)
    await expect(alert).toContainText('First error')
    await expect(toasts).toHaveCount(1)

    // closing shows the next one
    await page.getByRole('button', { name: 'Закрыть уведомление' }).click()
    await expect(alert).toContainText('Second error')
    await expect(alert).not.toContainText('First error')
    await expect(toasts).toHaveCount(1)

    // the end of its animation shows the next one (hovering would pause it)
    await page.mouse.move(0, 0)
    await expect(status).toContainText('All done', { timeout: 12_000 })
    await expect(alert).toBeEmpty()

    // an empty queue hides the toast
    await page.getByRole('button', { name: 'Закрыть уведомление' }).click()
    await expect(toasts).toHaveCount(0)

    // the flash was shown once: a reload brings nothing back
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Toast test page' })).toBeVisible()
    await expect(toasts).toHaveCount(0)
  })

  test('the same text and type restarts the animation; another one waits its turn', async ({ page }) => {
    await page.goto('/e2e/toasts')
    const notifyError = page.getByRole('button', { name: 'Notify the first error' })
    const { alert, status } = notifications(page)
    await expect(async () => {
      await notifyError.click()
      await expect(alert).toContainText('First error', { timeout: 500 })
    }).toPass()
    await page.mouse.move(0, 0)
    await expect.poll(() => toastClock(page)).toBeGreaterThan(1500)

    await notifyError.click()
    await page.mouse.move(0, 0)
    expect(await toastClock(page)).toBeLessThan(1000)
    await expect(page.locator('.toast')).toHaveCount(1)

    await page.getByRole('button', { name: 'Notify a warning' }).click()
    await expect(status).toBeEmpty()
    await alert.getByRole('button', { name: 'Закрыть уведомление' }).click()
    await expect(status).toContainText('A warning')
    await expect(alert).toBeEmpty()
  })
})

test.describe('tooltips (§9)', () => {
  test.beforeEach(async ({ page }) => quietVersionCheck(page))

  test('a hint shows its tooltip on hover, with the bd-tooltip-theme above the trigger', async ({ page }) => {
    await page.goto('/')
    const hint = page.getByRole('button', { name: 'Об оплате и комиссии' })
    const tooltip = page.getByRole('tooltip')
    // the listener is attached once the page is hydrated
    await expect(async () => {
      await page.mouse.move(0, 0)
      await hint.hover()
      await expect(tooltip).toBeVisible({ timeout: 1000 })
    }).toPass()
    await expect(tooltip).toContainText('Цена в каталоге — цена товара')
    await expect(tooltip).toHaveAttribute('data-theme', 'bd-tooltip-theme')
    await expect(tooltip).toHaveAttribute('data-placement', /^top/)
    const style = await page.locator('[data-tippy-root]').evaluate((el) => getComputedStyle(el).zIndex)
    expect(style).toBe('9999')
    await page.mouse.move(0, 0)
    await expect(tooltip).toBeHidden()
  })

  test('a hint shows its tooltip on keyboard focus', async ({ page }) => {
    await page.goto('/')
    const hint = page.getByRole('button', { name: 'Об оплате и комиссии' })
    await expect(hint).toHaveAccessibleDescription(/Цена в каталоге/)
    await page.waitForFunction(() => document.readyState === 'complete')
    await expect(async () => {
      await page.locator('body').focus()
      await page.keyboard.press('Shift+Tab') // from the end of the page backwards: the footer comes first
      for (let i = 0; i < 15 && !(await hint.evaluate((el) => el === document.activeElement)); i++)
        await page.keyboard.press('Shift+Tab')
      await expect(hint).toBeFocused({ timeout: 200 })
      await expect(page.getByRole('tooltip')).toBeVisible({ timeout: 1000 })
    }).toPass()
    await expect(page.getByRole('tooltip')).toContainText('Цена в каталоге — цена товара')
  })
})

test.describe('builds and chunks (§4, §9)', () => {
  test('the latest-version endpoint answers the running build, or the one a deploy announces', async ({
    request,
  }) => {
    const own = (await (await request.get('/version.json')).json()) as { version: string }
    expect(own.version).toMatch(/^\w+$/)
    const res = await request.get(`/version.json?t=${Date.now()}`)
    expect(res.headers()['cache-control']).toBe('no-store')
    // announce a newer build only for the moment of one request: other tests' pages check too
    writeFileSync(latestVersionFile, 'e2e-newer-build')
    let announced: unknown
    try {
      announced = await (await request.get(`/version.json?t=${Date.now()}`)).json()
    } finally {
      rmSync(latestVersionFile, { force: true })
    }
    expect(announced).toEqual({ version: 'e2e-newer-build' })
    expect(await (await request.get('/version.json')).json()).toEqual(own)
  })

  test('a page running an older build is told; its next navigation loads a whole new document', async ({
    page,
  }) => {
    // the page pretends to run an older build than the server's (the server is not touched)
    await page.addInitScript(() => {
      window.__shopVersionCheck = { firstDelayMs: 100, intervalMs: 250, current: 'e2e-older-build' }
    })
    const check = page.waitForResponse((r) => /\/version\.json\?t=\d+$/.test(r.url()))
    await page.goto('/')
    const server = (await (await check).json()) as { version: string }
    expect(server.version).toBe(await page.evaluate(() => window.__remixManifest?.version))
    const { status } = notifications(page)
    await expect(status).toContainText('Доступна новая версия', { timeout: 5000 })

    await page.evaluate(() => {
      window.__sameDocument = true
    })
    await page.getByRole('link', { name: 'Подарки' }).click()
    await expect(page).toHaveURL(/\/gifts$/)
    await expect.poll(() => page.evaluate(() => window.__sameDocument)).toBeUndefined()
  })

  test('a page running the current build is not told anything', async ({ page }) => {
    await page.addInitScript(() => {
      window.__shopVersionCheck = { firstDelayMs: 50, intervalMs: 100 }
    })
    let checks = 0
    page.on('response', (r) => {
      if (/\/version\.json\?t=\d+$/.test(r.url())) checks++
    })
    await page.goto('/')
    await expect.poll(() => checks).toBeGreaterThanOrEqual(3)
    await expect(notifications(page).status).toBeEmpty()
  })

  test('a chunk that fails to load reloads the page', async ({ page }) => {
    await quietVersionCheck(page)
    await page.route(/\/assets\/tippy[^/]*\.js$/, (route) => route.abort())
    await page.goto('/')
    await page.waitForFunction(() => document.readyState === 'complete')
    await page.evaluate(() => {
      window.__sameDocument = true
    })
    const hint = page.getByRole('button', { name: 'Об оплате и комиссии' })
    await expect(async () => {
      await page.mouse.move(0, 0)
      await hint.hover()
      expect(await page.evaluate(() => window.__sameDocument)).toBeUndefined()
    }).toPass()
  })
})

test.describe('first paint before the scripts (decision 104)', () => {
  test('the page paints before any of its scripts is asked for; then the app starts and runs', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 360, height: 740 })
    await page.goto('/')
    // started: the router of the app is there and a hint opens its tooltip
    await page.waitForFunction(
      () =>
        (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized,
    )
    await hintOpensTooltip(page)
    const times = await page.evaluate(() => ({
      paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      scripts: performance
        .getEntriesByType('resource')
        .filter((e) => /\/assets\/.+\.js$/.test(new URL(e.name).pathname))
        .map((e) => e.startTime),
    }))
    expect(times.paint).not.toBeNull()
    expect(times.scripts.length).toBeGreaterThan(0)
    expect(Math.min(...times.scripts)).toBeGreaterThan(times.paint!)
    // what was held is gone from the page: the real preloads and module script took its place
    expect(
      await page
        .locator('link[rel="x-modulepreload-after-paint"], script[type="text/x-module-after-paint"]')
        .count(),
    ).toBe(0)
  })
})

test('HTML injected into a page cannot have a held script run with the nonce', async ({ page }) => {
  // what an HTML injection could write: a script and a preload of the held kinds, with a nonce of its own
  await page.route('**/', async (route) => {
    if (route.request().resourceType() !== 'document') return route.continue()
    const res = await route.fetch()
    const html = (await res.text()).replace(
      '<main',
      // an element named currentScript shadows document.currentScript (DOM clobbering)
      '<img name="currentScript" nonce="x" alt=""><script type="text/x-module-after-paint" nonce="x">window.__injected = true</script>' +
        '<link rel="x-modulepreload-after-paint" nonce="x" href="/injected.js"/><main',
    )
    await route.fulfill({ response: res, body: html })
  })
  const asked: string[] = []
  page.on('request', (r) => asked.push(new URL(r.url()).pathname))
  await page.goto('/')
  // the app's own scripts started…
  await page.waitForFunction(
    () =>
      (window as { __remixRouter?: { state: { initialized: boolean } } }).__remixRouter?.state.initialized,
  )
  // …and the injected ones were left as they were
  expect(await page.evaluate(() => (window as { __injected?: boolean }).__injected)).toBeUndefined()
  expect(asked).not.toContain('/injected.js')
})

test.describe('error screens (§5, §8)', () => {
  test('a route whose parameter fails its check: 404 Page Not Found: {path}', async ({ page }) => {
    const res = await page.goto('/abc')
    expect(res?.status()).toBe(404)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Страница не найдена')
    await expect(page.getByText('Page Not Found: /abc', { exact: true })).toBeVisible()
    await expect(page).toHaveTitle('ИгроМаркет 404')
  })

  test('an unknown route: 404 Page not found: {path}', async ({ page }) => {
    const res = await page.goto('/no/such/route')
    expect(res?.status()).toBe(404)
    await expect(page.getByText('Page not found: /no/such/route', { exact: true })).toBeVisible()
    await expect(page.getByRole('link', { name: 'На главную' })).toBeVisible()
  })
})

test.describe('security headers', () => {
  test('CSP with a fresh nonce that every script and preload carries; no violations on the home page', async ({
    page,
    request,
  }) => {
    await quietVersionCheck(page)
    const problems: string[] = []
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`)
    })
    page.on('pageerror', (e) => problems.push(e.message))
    const loaded: string[] = []
    page.on('request', (r) => loaded.push(r.url()))
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        window.__violations ??= []
        window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`)
      })
    })
    const res = await page.goto('/')
    const csp = res?.headers()['content-security-policy'] ?? ''
    const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1]
    expect(nonce).toBeTruthy()
    expect(csp).toContain("'strict-dynamic'")
    expect(csp).toContain("object-src 'none'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).toContain("base-uri 'self'")

    // the HTML as served (after hydration React drops the preload links from the DOM)
    const html = (await res?.text()) ?? ''
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])
    const executable = scripts.filter((tag) => !tag.includes('application/ld+json'))
    expect(executable.length).toBeGreaterThan(0)
    for (const tag of executable) expect(tag).toContain(`nonce="${nonce}"`)
    // the module preloads, held until the first paint (decision 104), carry it too
    const preloads = [...html.matchAll(/<link\b[^>]*rel="x-modulepreload-after-paint"[^>]*>/g)].map(
      (m) => m[0],
    )
    expect(preloads.length).toBeGreaterThan(0)
    for (const tag of preloads) expect(tag).toContain(`nonce="${nonce}"`)
    // the browser hides nonces from the DOM, but the scripts kept theirs
    const domNonces = await page.evaluate(() =>
      [...document.scripts].filter((s) => s.type !== 'application/ld+json').map((s) => s.nonce),
    )
    for (const n of domNonces) expect(n).toBe(nonce)

    // the app runs under the policy: hydration and a lazily loaded chunk (the tooltip)
    await hintOpensTooltip(page)
    expect(await page.evaluate(() => window.__violations ?? [])).toEqual([])
    expect(problems).toEqual([])
    // no DSN is configured for the e2e server: not one byte of the error-reporting SDK is loaded
    expect(loaded.filter((u) => /sentry/i.test(u))).toEqual([])
    expect(await page.evaluate(() => '__SENTRY__' in window)).toBe(false)

    const again = await request.get('/')
    expect(again.headers()['content-security-policy']).not.toContain(`'nonce-${nonce}'`)
  })

  for (const path of ['/', '/api/health/', '/robots.txt', '/favicon.svg']) {
    test(`security headers on ${path}`, async ({ request }) => {
      const res = await request.get(path)
      expect(res.ok()).toBe(true)
      const h = res.headers()
      expect(h['content-security-policy']).toContain("frame-ancestors 'none'")
      expect(h['referrer-policy']).toBe('strict-origin-when-cross-origin')
      expect(h['x-content-type-options']).toBe('nosniff')
      expect(h['x-frame-options']).toBe('DENY')
      expect(h['permissions-policy']).toContain('camera=()')
      // HSTS is for real hosts only: the e2e server is localhost
      expect(h['strict-transport-security']).toBeUndefined()
    })
  }
})
