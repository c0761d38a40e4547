import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createApi } from '#api/app'
import type { ApiDeps } from '#api/context'
import type { Database } from '#api/db/client'
import { seedDemoData } from '#api/demo/seed-data'
import { type ApiConfig, loadApiConfig } from '#api/env'
import { checkTrafficOf } from './contract-recorder'
import { openTestDatabase } from './test-db'

export interface TestApi {
  app: ReturnType<typeof createApi>
  database: Database
  db: Database['db']
  config: ApiConfig
  /** What the app was built with ({ db, config, fetch }): for calling a service or a job directly. */
  deps: ApiDeps
  /** JSON request against the real app; returns status, parsed body and headers. */
  call<T = unknown>(
    method: string,
    url: string,
    opts?: { body?: unknown; token?: string; headers?: Record<string, string> },
  ): Promise<{ status: number; body: T; headers: Headers }>
  close(): Promise<void>
}

export interface TestApiOptions {
  seed?: boolean
  env?: Record<string, string>
  fetch?: typeof fetch
  /** false: exchanges are not checked against the contract (the fuzz lists its own findings) */
  contract?: boolean
}

/**
 * A real API over a fresh database (seeded unless told otherwise). `env` adds environment
 * variables (provider endpoints of local fakes, limits); `fetch` replaces outbound HTTP.
 * In a test file, `apiTest()` of ./fixtures.ts gives it as a fixture.
 */
export async function createTestApi(opts: TestApiOptions = {}): Promise<TestApi> {
  const database = await openTestDatabase()
  if (opts.seed !== false) await seedDemoData(database.db)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-test-'))
  const config = loadApiConfig(
    {
      NODE_ENV: 'test',
      JWT_SECRET: 'test-secret-test-secret-test-secret!',
      // tests change rows and read them back at once
      CATALOGUE_CACHE_SECONDS: '0',
      // tests pay with the sandbox even when they set PUBLIC_URL (which means production)
      SANDBOX_PAYMENTS: '1',
      // every test's shopper orders and pays from one address and often one email, many times and
      // for large sums: the fraud limits (issue 34) are under test in tests/api/fraud-limits.test.ts
      ORDER_LIMIT_PER_ADDRESS: '100000',
      ORDER_LIMIT_PER_EMAIL: '100000',
      PAYMENT_LIMIT_PER_ADDRESS: '100000',
      PAYMENT_LIMIT_PER_EMAIL: '100000',
      RISK_RULES: '',
      ...opts.env,
    },
    { dataDir, port: 3000 },
  )
  const deps: ApiDeps = { db: database.db, config, fetch: opts.fetch ?? globalThis.fetch }
  const app = createApi(deps)
  // every exchange of the API tests is checked against the contract (issue 44)
  if (opts.contract !== false && process.env.CONTRACT_CHECK !== '0') checkTrafficOf(app)
  return {
    app,
    database,
    db: database.db,
    config,
    deps,
    async call(method, url, o = {}) {
      const headers: Record<string, string> = { ...o.headers }
      if (o.body !== undefined && !headers['content-type']) headers['content-type'] = 'application/json'
      if (o.token) headers.authorization = `Bearer ${o.token}`
      const res = await app.request(url, {
        method,
        headers,
        body: o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body),
      })
      const text = await res.text()
      let body: unknown = text
      try {
        body = text ? JSON.parse(text) : null
      } catch {}
      return { status: res.status, body: body as never, headers: res.headers }
    },
    close: () => database.close(),
  }
}
