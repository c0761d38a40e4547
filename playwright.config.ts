import { defineConfig, devices } from '@playwright/test'

const PORT = Number(process.env.E2E_PORT ?? 3200)
export const baseURL = `http://localhost:${PORT}`

/** Debian's Chromium; the flags keep it from reaching for the internet. */
const chromium = {
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
}

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: 2,
  timeout: 30_000,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL,
    locale: 'ru-RU',
    trace: 'retain-on-failure',
    launchOptions: chromium,
  },
  projects: [
    {
      name: 'js',
      use: { ...devices['Desktop Chrome'], launchOptions: chromium },
      testIgnore: /.*\.nojs\.spec\.ts/,
    },
    {
      name: 'no-js',
      use: { ...devices['Desktop Chrome'], launchOptions: chromium, javaScriptEnabled: false },
      testMatch: /.*\.nojs\.spec\.ts/,
    },
  ],
  // The built app on a fresh embedded database, as `npm start` runs it.
  webServer: {
    command: `node scripts/e2e-server.mjs`,
    url: `${baseURL}/api/health/`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(PORT), E2E: '1' },
    stdout: 'pipe',
    stderr: 'pipe',
  },
})
