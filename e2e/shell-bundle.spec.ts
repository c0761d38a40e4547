// Reads the built client (no browser): what each route loads before it is interactive.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import { measureRoutes } from '../scripts/bench/first-load'

const clientDir = fileURLToPath(new URL('../build/client', import.meta.url))
/** Marks only the Sentry SDK carries (its global carrier and SDK name). */
const SENTRY = /__SENTRY__|sentry\.javascript/

test('no Sentry code is in any route’s first-load JavaScript; the SDK is a lazy chunk', () => {
  const routes = measureRoutes(clientDir)
  expect(routes.length).toBeGreaterThan(3)
  for (const route of routes) {
    for (const file of route.files) {
      const text = readFileSync(path.join(clientDir, file), 'utf8')
      expect(SENTRY.test(text), `${file} (first load of ${route.route}) holds Sentry code`).toBe(false)
    }
  }
  // the check means something: the SDK is in the build, loaded only when a DSN is configured
  const assets = readdirSync(path.join(clientDir, 'assets')).filter((f) => f.endsWith('.js'))
  expect(assets.some((f) => SENTRY.test(readFileSync(path.join(clientDir, 'assets', f), 'utf8')))).toBe(true)
})

test('every route’s first-load JavaScript is at most 95 KB gzipped', () => {
  const over = measureRoutes(clientDir)
    .filter((r) => r.gzipBytes > 95 * 1024)
    .map((r) => `${r.route}: ${(r.gzipBytes / 1024).toFixed(1)} KB`)
  expect(over).toEqual([])
})

test('the packages’ licences stripped from the chunks are served whole in /third-party-licenses.txt', async ({
  request,
}) => {
  const res = await request.get('/third-party-licenses.txt')
  expect(res.status()).toBe(200)
  const text = await res.text()
  for (const pkg of ['react', 'react-dom', '@remix-run/react', 'tippy.js']) {
    expect(text, pkg).toMatch(new RegExp(`^${pkg.replace(/[.]/g, '\\.')}@\\d+\\.\\d+\\.\\d+$`, 'm'))
  }
  expect(text).toContain('Permission is hereby granted, free of charge')
  // and the chunks themselves carry none
  const assets = readdirSync(path.join(clientDir, 'assets')).filter((f) => f.endsWith('.js'))
  const withNotice = assets.filter((f) =>
    readFileSync(path.join(clientDir, 'assets', f), 'utf8').includes('@license'),
  )
  expect(withNotice).toEqual([])
})
