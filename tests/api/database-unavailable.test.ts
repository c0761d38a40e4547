// Issue 44: while the database is away (restart, failover, overload: api/src/db/faults.ts) every
// operation may answer 503 `database_unavailable` with Retry-After (api/src/lib/errors.ts), and the
// contract lists it on every operation (api/src/lib/openapi-conventions.ts). Here the API runs on a
// database whose every call fails as a terminated connection does; each answer is checked against
// the contract by the recorder (an undeclared 503 fails the call).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '#api/app'
import type { Database } from '#api/db/client'
import { checkTrafficOf } from '#tests/helpers/contract-recorder'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeUser } from './orders-fixtures'

/** A database handle every method of which fails as a connection ended by the server does. */
function databaseAway<T extends object>(target: T): T {
  return new Proxy(target, {
    get(obj, key, receiver) {
      const value = Reflect.get(obj, key, receiver)
      if (typeof value === 'function')
        return () => {
          throw Object.assign(new Error('Connection terminated unexpectedly'), { code: '57P01' })
        }
      if (value && typeof value === 'object') return databaseAway(value)
      return value
    },
  })
}

let api: TestApi
let down: ReturnType<typeof createApi>
let token: string
beforeAll(async () => {
  api = await createTestApi()
  token = (await makeUser(api)).token
  down = createApi({
    db: databaseAway(api.db) as Database['db'],
    config: api.config,
    fetch: globalThis.fetch,
  })
  checkTrafficOf(down)
})
afterAll(() => api?.close())

const call = (method: string, url: string, opts: { body?: unknown; token?: string } = {}) =>
  down.request(url, {
    method,
    headers: {
      ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  })

describe('a database that is away', () => {
  it.each([
    ['GET', '/api/games/', {}],
    ['GET', '/api/articles/privacy-policy/', {}],
    [
      'POST',
      '/api/orders/pubg/',
      {
        body: {
          products: [{ product_id: 1, quantity: 1 }],
          email: 'a@example.com',
          personal_data_consent: true,
        },
      },
    ],
    ['POST', '/api/auth/jwt/create/', { body: { email: 'a@example.com', password: 'x'.repeat(12) } }],
    ['GET', '/api/auth/profile/', { withToken: true }],
    ['GET', '/api/admin/orders/', { withToken: true }],
    ['GET', '/api/docs/schema/', { withToken: true }],
  ] as const)('%s %s answers the listed 503 with Retry-After', async (method, url, o) => {
    const opts = o as { body?: unknown; withToken?: boolean }
    const r = await call(method, url, { body: opts.body, token: opts.withToken ? token : undefined })
    expect(r.status).toBe(503)
    expect(r.headers.get('retry-after')).toMatch(/^\d+$/)
    expect(await r.json()).toMatchObject({ code: 'database_unavailable' })
  })
})
