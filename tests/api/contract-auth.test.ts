import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { listOperations, type OpenApiDocument } from '#tests/helpers/openapi-arbitrary'
import { TOKEN_FREE_OPERATIONS } from '#api/lib/auth'
import { makePubgStock } from './payments-fixtures'

type Tokens = { access: string; refresh: string }
const STALE = { authorization: 'Bearer x.y.z' }

let api: TestApi
let doc: OpenApiDocument & { paths: Record<string, Record<string, { security?: unknown[] }>> }

beforeAll(async () => {
  api = await createTestApi()
  doc = (await (await api.app.request('/api/docs/schema/')).json()) as typeof doc
})
afterAll(() => api?.close())

const signUp = async (email: string) =>
  (
    await api.call<Tokens>('POST', '/api/auth/jwt/create/', {
      body: { email, password: 'Kx9#long-enough-pass' },
    })
  ).body

describe('the token endpoints ignore an Authorization header', () => {
  it('refresh with a valid refresh token and a stale bearer: 200, new tokens', async () => {
    const tokens = await signUp('stale-refresh@example.com')
    const r = await api.call<Tokens>('POST', '/api/auth/jwt/refresh/', {
      body: { refresh: tokens.refresh },
      headers: STALE,
    })
    expect(r.status).toBe(200)
    expect(r.body.access).toEqual(expect.any(String))
  })

  it('sign-in and sign-out with a stale bearer', async () => {
    await signUp('stale-signin@example.com')
    const r = await api.call<Tokens>('POST', '/api/auth/jwt/create/', {
      body: { email: 'stale-signin@example.com', password: 'Kx9#long-enough-pass' },
      headers: STALE,
    })
    expect(r.status).toBe(200)
    const out = await api.call('POST', '/api/auth/logout/', {
      body: { refresh: r.body.refresh },
      headers: STALE,
    })
    expect(out.status).toBe(204)
  })

  it('a signed-in user’s own token does not change what a refresh does', async () => {
    const tokens = await signUp('own-token@example.com')
    const r = await api.call<Tokens>('POST', '/api/auth/jwt/refresh/', {
      body: { refresh: tokens.refresh },
      token: tokens.access,
    })
    expect(r.status).toBe(200)
  })
})

describe('elsewhere a stale token is a 401 the contract lists', () => {
  it('GET /api/games/ with a stale bearer: 401 token_not_valid, listed in its responses', async () => {
    const r = await api.call<{ code: string }>('GET', '/api/games/', { headers: STALE })
    expect(r.status).toBe(401)
    expect(r.body.code).toBe('token_not_valid')
    expect(Object.keys(doc.paths['/api/games/']!.get!.responses ?? {})).toContain('401')
  })

  it('every operation but the token-free ones lists 401; the token-free ones declare no security', () => {
    const missing: string[] = []
    for (const op of listOperations(doc)) {
      const free = TOKEN_FREE_OPERATIONS.has(`${op.method} ${op.path}`)
      const security = doc.paths[op.path]![op.method.toLowerCase()]!.security
      if (free) expect(security, op.name).toEqual([])
      else if (!op.responses['401']) missing.push(op.name)
    }
    expect(missing).toEqual([])
    expect(TOKEN_FREE_OPERATIONS.size).toBeGreaterThanOrEqual(3)
  })
})

describe('security as it is', () => {
  const security = (path: string, method = 'post') => doc.paths[path]![method]!.security

  it('guest operations declare optional auth, and a guest gets through', async () => {
    for (const kind of ['pubg', 'standoff', 'steam', 'supply_channel', 'rokky'])
      expect(security(`/api/orders/${kind}/`), kind).toEqual([{}, { bearer: [] }])
    expect(security('/api/auth/social/{provider}/url/', 'get')).toEqual([{}, { bearer: [] }])
    expect(security('/api/games/', 'get')).toEqual([{}, { bearer: [] }])
    const { product } = await makePubgStock(api, { codes: 2 })
    const r = await api.call('POST', '/api/orders/pubg/', {
      body: { products: [{ product_id: product.id, quantity: 1 }], email: 'guest@example.com' },
    })
    expect(r.status).toBe(201)
  })

  it('operations that need a signed-in user declare a required bearer, and refuse a guest with 401', async () => {
    expect(security('/api/auth/profile/', 'get')).toEqual([{ bearer: [] }])
    expect(security('/api/admin/games/', 'get')).toEqual([{ bearer: [] }])
    expect((await api.call('GET', '/api/auth/profile/')).status).toBe(401)
  })
})
