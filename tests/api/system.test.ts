import { readFileSync } from 'node:fs'
import { describe, expect } from 'vitest'
import { apiTest } from '#tests/helpers/fixtures'

const it = apiTest()

describe('API skeleton', () => {
  it('answers the health check with the database reachable and the release running', async ({ api }) => {
    const r = await api.call('GET', '/api/health/')
    expect(r.status).toBe(200)
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
    expect(version).toMatch(/^\d+\.\d+\.\d+/)
    expect(r.body).toEqual({ status: 'ok', version })
    // health never reads a token: a stale one sent out of habit is not a 401 (the contract says so)
    const stale = await api.call('GET', '/api/health/', {
      headers: { authorization: 'Bearer stale.token.here' },
    })
    expect(stale.status).toBe(200)
    expect(stale.body).toEqual({ status: 'ok', version })
  })

  it('answers an unknown /api path with a JSON 404 naming the path', async ({ api }) => {
    const r = await api.call<{ detail: string; code: string }>('GET', '/api/no/such/thing/')
    expect(r.status).toBe(404)
    expect(r.body.code).toBe('not_found')
    expect(r.body.detail).toContain('/api/no/such/thing/')
  })

  it('serves the OpenAPI 3.1 document as JSON by default and as YAML on request', async ({ api }) => {
    const json = await api.call<{ openapi: string; paths: Record<string, unknown> }>(
      'GET',
      '/api/docs/schema/',
    )
    expect(json.status).toBe(200)
    expect(json.body.openapi).toBe('3.1.0')
    for (const p of Object.keys(json.body.paths)) {
      expect(p).toMatch(/^\/api\/.*\/$/)
    }
    const yaml = await api.call<string>('GET', '/api/docs/schema/?format=yaml&lang=en')
    expect(yaml.status).toBe(200)
    expect(yaml.headers.get('content-type')).toContain('yaml')
    expect(yaml.body).toContain('openapi: 3.1.0')
    expect(yaml.body).toContain('Game top-up shop API')
  })

  it('describes its own path, with the format and lang parameters', async ({ api }) => {
    type Op = { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown> }
    const doc = await api.call<{ paths: Record<string, { get?: Op }> }>('GET', '/api/docs/schema/')
    const op = doc.body.paths['/api/docs/schema/']?.get
    expect(op, 'GET /api/docs/schema/ in the document').toBeTruthy()
    expect(op!.parameters?.map((p) => `${p.in}:${p.name}`).sort()).toEqual(['query:format', 'query:lang'])
    // 401 to a stale token and 503 while the database is away come from the conventions (issue 44)
    expect(Object.keys(op!.responses).sort()).toEqual(['200', '304', '400', '401', '503'])
  })

  it('refuses an unknown schema format or language with a 400', async ({ api }) => {
    expect((await api.call('GET', '/api/docs/schema/?format=xml')).status).toBe(400)
    expect((await api.call('GET', '/api/docs/schema/?lang=de')).status).toBe(400)
  })
})
