import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url))

// API tests run once on embedded PGlite and, when TEST_DATABASE_URL is set, again on PostgreSQL.
const apiProjects = [
  { name: 'api-pglite', env: { TEST_DB: 'pglite' } },
  ...(process.env.TEST_DATABASE_URL ? [{ name: 'api-postgres', env: { TEST_DB: 'postgres' } }] : []),
]

export default defineConfig({
  resolve: {
    alias: {
      '#app': dir('./app'),
      '#api': dir('./api/src'),
      '#tests': dir('./tests'),
      '#openapi': dir('./openapi'),
    },
  },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    // adds up the API tests' contract checks after the run (.cache/contract/summary.json)
    globalSetup: ['tests/helpers/contract-report.ts'],
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.{ts,tsx}', 'app/**/*.test.{ts,tsx}'] },
      },
      // whole shop processes (crashes, signals, restarts): real servers on free ports; the
      // *.pg.test.ts files need PostgreSQL (TEST_DATABASE_URL), as the api-postgres project does
      {
        extends: true,
        test: {
          name: 'process',
          include: ['tests/process/**/*.test.ts'],
          exclude: process.env.TEST_DATABASE_URL ? [] : ['tests/process/**/*.pg.test.ts'],
        },
      },
      ...apiProjects.map((p) => ({
        extends: true as const,
        // every exchange with a test API is checked against the contract (tests/helpers/contract-recorder.ts)
        test: {
          name: p.name,
          include: ['tests/api/**/*.test.ts'],
          env: p.env,
          setupFiles: ['tests/helpers/contract-setup.ts'],
        },
      })),
    ],
  },
})
