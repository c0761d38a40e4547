// Issue 36: the storefront's calls in the same process share one bearer check per storefront
// request (api/src/lib/in-process.ts, the `inProcess` binding no network request can set). The
// security property of decision 022 must hold: a sign-out ends the session for the next storefront
// request, a write within the same request (a logout, a deletion) is checked on its own and makes
// every later call of that request check again, and a request from outside never uses a check
// made for another.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type InProcessCall, inProcessCall } from '#api/lib/in-process'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

let api: TestApi
beforeAll(async () => {
  api = await createTestApi({ seed: false })
})
afterAll(() => api.close())

let n = 0
async function signIn() {
  const res = await api.call<{ access: string; refresh: string }>('POST', '/api/auth/jwt/create/', {
    body: { email: `inproc-${++n}-${Date.now()}@example.com`, password: 'In-process-pass-2026' },
    headers: { 'x-shop-client-ip': `10.36.0.${n}` },
  })
  expect(res.status).toBe(200)
  return res.body
}

/** A call as the storefront in this process makes it, within the storefront request `call`. */
async function inProcess(call: InProcessCall, method: string, path: string, token: string, body?: unknown) {
  const res = await api.app.request(
    path,
    {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    { inProcess: call },
  )
  return res.status
}

describe('one bearer check per storefront request', () => {
  it('the calls of one request share the check; a sign-out elsewhere ends it for the next request', async () => {
    const t = await signIn()
    const page = inProcessCall()
    expect(await inProcess(page, 'GET', '/api/auth/profile/', t.access)).toBe(200)
    expect(page.bearers.size).toBe(1)
    expect(await inProcess(page, 'GET', '/api/orders/', t.access)).toBe(200)
    expect(page.bearers.size).toBe(1)

    expect((await api.call('POST', '/api/auth/logout/', { body: { refresh: t.refresh } })).status).toBe(204)
    // the next storefront request, and any request from outside, checks the session again
    expect(await inProcess(inProcessCall(), 'GET', '/api/auth/profile/', t.access)).toBe(401)
    expect((await api.call('GET', '/api/auth/profile/', { token: t.access })).status).toBe(401)
  })

  it('a write within the request is checked on its own and makes later reads check again', async () => {
    const t = await signIn()
    const page = inProcessCall()
    expect(await inProcess(page, 'GET', '/api/auth/profile/', t.access)).toBe(200)
    // the account is deleted by this same storefront request (the deletion popup's action)
    expect(await inProcess(page, 'POST', '/api/auth/profile/delete/', t.access)).toBe(204)
    expect(page.bearers.size).toBe(0)
    expect(await inProcess(page, 'GET', '/api/auth/profile/', t.access)).toBe(401)
  })

  it('a bad token is refused even after a good one was checked, in the same request and outside', async () => {
    const t = await signIn()
    const page = inProcessCall()
    expect(await inProcess(page, 'GET', '/api/auth/profile/', t.access)).toBe(200)
    // a signature character that carries whole bits (the last one has unused low bits)
    const at = t.access.length - 10
    const forged = `${t.access.slice(0, at)}${t.access[at] === 'A' ? 'B' : 'A'}${t.access.slice(at + 1)}`
    expect(await inProcess(page, 'GET', '/api/auth/profile/', forged)).toBe(401)
    expect((await api.call('GET', '/api/auth/profile/', { token: forged })).status).toBe(401)
    expect((await api.call('GET', '/api/auth/profile/', { token: t.access })).status).toBe(200)
  })
})
