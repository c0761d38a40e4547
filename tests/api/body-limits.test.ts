// Issue 44, finding 5: the contract let an article's text be 200,000 characters while every JSON
// body was capped at 64 KB (a 100,000-character privacy policy was a 413 listed nowhere). Each
// operation's JSON body limit now fits its own schema's bound (api/src/lib/body-limits.ts), and a
// 413 is listed on every operation that takes a body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonBound } from '#api/lib/body-limits'
import { grantRole } from '#api/services/admin/roles'
import { contractDoc, contractOperations } from '#tests/helpers/contract'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeUser } from './orders-fixtures'

let api: TestApi
let owner: string
beforeAll(async () => {
  api = await createTestApi()
  const user = await makeUser(api)
  await grantRole(api.db, user.email, 'owner', 'body-limits')
  owner = user.token
})
afterAll(() => api?.close())

describe('a body limit per operation that fits its schema', () => {
  it('a 100,000-character Cyrillic privacy policy is saved (it was a 413)', async () => {
    const text = `<p>${'Политика конфиденциальности. '.repeat(3500)}</p>`.slice(0, 100_000)
    expect(Buffer.byteLength(JSON.stringify({ header: 'Политика', text }))).toBeGreaterThan(64 * 1024)
    const r = await api.call<{ text: string }>('PUT', '/api/admin/articles/privacy-policy/', {
      token: owner,
      body: { header: 'Политика', text },
    })
    expect(r.status).toBe(200)
    expect(r.body.text.length).toBeGreaterThan(90_000)
  })

  it('the longest article the schema allows fits the limit; beyond the bound is a 413 with the error shape', async () => {
    const text = 'я'.repeat(200_000)
    const ok = await api.call('PUT', '/api/admin/articles/privacy-policy/', {
      token: owner,
      body: { header: 'x', text },
    })
    expect(ok.status).toBe(200)
    const bound = jsonBound({ $ref: '#/components/schemas/AdminArticleInput' }, contractDoc as never)
    const over = await api.call<{ code: string }>('PUT', '/api/admin/articles/privacy-policy/', {
      token: owner,
      body: JSON.stringify({ header: 'x', text: 'a'.repeat(bound + 10) }),
    })
    expect(over.status).toBe(413)
    expect(over.body.code).toBe('body_too_large')
  })

  it('a code import of the 4,000,000 characters its schema allows is read, not a 413 (the limit was 4 MB)', async () => {
    // short codes, one a line: JSON writes each line break as two bytes, so the body passes 4 MB
    const text = `${'ABCDEFGHJKLMNPQR\n'.repeat(235_294)}`.slice(0, 4_000_000)
    const body = JSON.stringify({ text, dry_run: 'no' })
    expect(Buffer.byteLength(body)).toBeGreaterThan(4 * 1024 * 1024)
    const r = await api.call<{ code: string; fields: Record<string, string[]> }>(
      'POST',
      '/api/admin/stock/products/1/codes/',
      { token: owner, body },
    )
    // the body was read and validated: its one fault is the flag
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('validation_error')
    expect(Object.keys(r.body.fields)).toEqual(['dry_run'])
  })

  it('an operation without a long bound keeps the default limit, and lists its 413', async () => {
    const r = await api.call<{ code: string }>('POST', '/api/admin/games/', {
      token: owner,
      body: { title: 'x', description: 'я'.repeat(70_000) },
    })
    expect(r.status).toBe(413)
    const withBody = contractOperations.filter(
      (op) => op.body || ['POST', 'PUT', 'PATCH'].includes(op.method),
    )
    expect(withBody.filter((op) => !op.responses['413']).map((op) => op.name)).toEqual([])
  })
})
