// Issue 20 item 8: the OpenAPI document is built once per process, format and language and served
// with an ETag; a client that has it gets a 304 without a body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

let api: TestApi
beforeAll(async () => {
  api = await createTestApi({ seed: false })
})
afterAll(() => api?.close())

const get = (query: string, headers: Record<string, string> = {}) =>
  api.app.request(`/api/docs/schema/${query}`, { headers })

describe('the OpenAPI document', () => {
  it('has one ETag per format and language, the same on every request', async () => {
    const first = await get('?format=yaml')
    const again = await get('?format=yaml')
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{20,}"$/)
    expect(again.headers.get('etag')).toBe(etag)
    expect(await again.text()).toBe(await first.text())
    expect(first.headers.get('content-type')).toContain('application/yaml')
    const json = await get('?format=json&lang=en')
    expect(json.headers.get('etag')).not.toBe(etag)
    expect(((await json.json()) as { info: { title: string } }).info.title).toBe('Game top-up shop API')
  })

  it('answers 304 with no body to a client that already has it', async () => {
    const etag = (await get('?format=yaml&lang=ru')).headers.get('etag')!
    const cached = await get('?format=yaml&lang=ru', { 'if-none-match': `W/${etag}` })
    expect(cached.status).toBe(304)
    expect(await cached.text()).toBe('')
    expect((await get('?format=yaml&lang=ru', { 'if-none-match': '"other"' })).status).toBe(200)
  })
})
