// The storefront's API client against a real local HTTP server playing the shop API.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { AppLoadContext } from '@remix-run/node'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type ApiOptions,
  ApiResponseError,
  apiFor,
  createApiSession,
  must,
  RequiredParameterError,
} from '#app/lib/api/client.server'
import { assertGameKind, assertScenarioType, UnknownKindError } from '#app/lib/api/resourcetypes'
import ru from '../../locales/ru/common.json'

// ---- a small paths type in openapi-typescript's shape, so these tests do not follow the contract

type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } }
type NoParams = { query?: never; header?: never; path?: never; cookie?: never }
type Unused = {
  put?: never
  delete?: never
  options?: never
  head?: never
  patch?: never
  trace?: never
}
interface Thing {
  id: number
  owner: string | null
}
interface TestPaths {
  '/api/things/{id}/': Unused & {
    parameters: NoParams
    get: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never }
      requestBody?: never
      responses: { 200: Json<Thing>; default: Json<unknown> }
    }
    post?: never
  }
  '/api/things/': Unused & {
    parameters: NoParams
    get?: never
    post: {
      parameters: NoParams
      requestBody: { content: { 'application/json': { name: string } } }
      responses: { 201: Json<Thing & { name: string }>; default: Json<unknown> }
    }
  }
  '/api/games/{id}/': Unused & {
    parameters: NoParams
    get: {
      parameters: { query?: never; header?: never; path: { id: number }; cookie?: never }
      requestBody?: never
      responses: { 200: Json<{ id: number; resourcetype: string }>; default: Json<unknown> }
    }
    post?: never
  }
  '/api/payments/{name}/': Unused & {
    parameters: NoParams
    get?: never
    post: {
      parameters: { query?: never; header?: never; path: { name: string }; cookie?: never }
      requestBody: { content: { 'application/json': { order_id: string } } }
      responses: { 200: Json<{ type: string }>; default: Json<unknown> }
    }
  }
}

// ---- the fake API

interface Hit {
  method: string
  path: string
  auth: string | null
  clientIp: string | null
  contentType: string | null
  body: string
  at: number
}
type Route = (hit: Hit, res: ServerResponse, req: IncomingMessage) => void | Promise<void>

const servers: Array<ReturnType<typeof createServer>> = []

async function startFakeApi(route: Route): Promise<{ url: string; hits: Hit[] }> {
  const hits: Hit[] = []
  const server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const hit: Hit = {
      method: req.method ?? '',
      path: req.url ?? '',
      auth: req.headers.authorization ?? null,
      clientIp: (req.headers['x-shop-client-ip'] as string | undefined) ?? null,
      contentType: req.headers['content-type'] ?? null,
      body,
      at: performance.now(),
    }
    hits.push(hit)
    await route(hit, res, req)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits }
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Things answer with the bearer token's owner; tokens not in `valid` are refused with 401. */
function thingsApi(
  valid: Set<string>,
  refresh: (token: unknown) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>,
): Route {
  return async (hit, res) => {
    if (hit.path === '/api/auth/jwt/refresh/' && hit.method === 'POST') {
      const answer = await refresh((JSON.parse(hit.body) as { refresh?: unknown }).refresh)
      return json(res, answer.status, answer.body)
    }
    const token = hit.auth?.replace(/^Bearer /, '') ?? null
    if (token !== null && !valid.has(token)) {
      return json(res, 401, { detail: 'Токен недействителен', code: 'token_not_valid' })
    }
    const id = Number(hit.path.split('/')[3])
    return json(res, 200, { id, owner: token })
  }
}

function sessionFor(
  url: string,
  cookie?: string,
  options: ApiOptions = {},
  pageUrl = 'http://localhost:3000/',
) {
  const request = new Request(pageUrl, { headers: cookie ? { cookie } : {} })
  const context = {
    api: { baseUrl: url, fetch: (req: Request) => fetch(req) },
    clientAddress: '203.0.113.7',
  } as AppLoadContext
  return createApiSession<TestPaths>(request, context, { retryDelays: [1, 1], ...options })
}

const setCookies = (headers: Headers) => headers.getSetCookie()
const getThing = (api: ReturnType<typeof sessionFor>, id: number) =>
  api.client.GET('/api/things/{id}/', { params: { path: { id } } })

// ---- bearer

describe('bearer token', () => {
  it('sends the access cookie as a bearer token, and the client address', async () => {
    const api = await startFakeApi(thingsApi(new Set(['a1']), () => ({ status: 500, body: {} })))
    const session = sessionFor(api.url, 'access=a1; refresh=r1')
    const thing = await must(getThing(session, 7))
    expect(thing).toEqual({ id: 7, owner: 'a1' })
    expect(api.hits[0]).toMatchObject({ method: 'GET', path: '/api/things/7/', auth: 'Bearer a1' })
    expect(api.hits[0]!.clientIp).toBe('203.0.113.7')
    expect(session.signedIn).toBe(true)
    expect(setCookies(session.headers)).toEqual([])
  })

  it('sends no authorization header for a guest', async () => {
    const api = await startFakeApi(thingsApi(new Set(), () => ({ status: 500, body: {} })))
    const session = sessionFor(api.url)
    expect(await must(getThing(session, 1))).toEqual({ id: 1, owner: null })
    expect(api.hits[0]!.auth).toBeNull()
    expect(session.signedIn).toBe(false)
  })

  it('sends a JSON body intact and uses tokens from signIn() for later calls', async () => {
    const api = await startFakeApi((hit, res) =>
      json(res, 201, { id: 1, owner: hit.auth, name: (JSON.parse(hit.body) as { name: string }).name }),
    )
    const session = sessionFor(api.url)
    session.signIn({ access: 'fresh', refresh: 'fresh-r' })
    const made = await must(session.client.POST('/api/things/', { body: { name: 'Кристаллы ×5' } }))
    expect(made).toEqual({ id: 1, owner: 'Bearer fresh', name: 'Кристаллы ×5' })
    expect(api.hits[0]!.contentType).toBe('application/json')
    expect(setCookies(session.headers).map((c) => c.split(';')[0])).toEqual([
      'access=fresh',
      'refresh=fresh-r',
    ])
  })
})

describe('reads shared within one storefront request (once)', () => {
  it('loaders asking for the same read get one call; a write or another token makes them read again', async () => {
    const api = await startFakeApi((hit, res) =>
      hit.method === 'POST'
        ? json(res, 201, { id: 1, owner: hit.auth, name: 'x' })
        : json(res, 200, { id: 7, owner: hit.auth }),
    )
    const session = sessionFor(api.url, 'access=a1; refresh=r1')
    const read = () => session.once('thing', () => must(getThing(session, 7)))
    const [first, second] = await Promise.all([read(), read()])
    expect(first).toEqual({ id: 7, owner: 'Bearer a1' })
    expect(second).toBe(first)
    expect(api.hits.filter((h) => h.method === 'GET')).toHaveLength(1)
    // a write may change what was read: the next read asks again
    await must(session.client.POST('/api/things/', { body: { name: 'x' } }))
    expect(await read()).toEqual({ id: 7, owner: 'Bearer a1' })
    expect(api.hits.filter((h) => h.method === 'GET')).toHaveLength(2)
    // another account holds the session now: its own read, never the one made for a1
    session.signIn({ access: 'b2', refresh: 'r2' })
    expect(await read()).toEqual({ id: 7, owner: 'Bearer b2' })
    expect(api.hits.filter((h) => h.method === 'GET')).toHaveLength(3)
  })
})

// ---- token refresh

describe('token refresh on 401', () => {
  it('refreshes once for concurrent calls, retries each, and sets the new tokens as cookies', async () => {
    const valid = new Set<string>()
    const api = await startFakeApi(
      thingsApi(valid, async (refresh) => {
        await sleep(40) // keep the refresh in flight while the other calls get their 401
        if (refresh !== 'r1') return { status: 400, body: { detail: 'bad', code: 'token_not_valid' } }
        valid.add('a2')
        return { status: 200, body: { access: 'a2', refresh: 'r2' } }
      }),
    )
    const session = sessionFor(api.url, 'access=expired; refresh=r1')
    const things = await Promise.all([1, 2, 3, 4, 5].map((id) => must(getThing(session, id))))
    expect(things.map((t) => t.owner)).toEqual(['a2', 'a2', 'a2', 'a2', 'a2'])

    const refreshes = api.hits.filter((h) => h.path === '/api/auth/jwt/refresh/')
    expect(refreshes).toHaveLength(1)
    expect(JSON.parse(refreshes[0]!.body)).toEqual({ refresh: 'r1' })
    expect(refreshes[0]!.auth).toBeNull() // the expired token is not sent to the refresh route
    const thingHits = api.hits.filter((h) => h.path.startsWith('/api/things/'))
    expect(thingHits.filter((h) => h.auth === 'Bearer expired')).toHaveLength(5)
    expect(thingHits.filter((h) => h.auth === 'Bearer a2')).toHaveLength(5)

    const cookies = setCookies(session.headers)
    expect(cookies).toHaveLength(2)
    for (const [name, value] of [
      ['access', 'a2'],
      ['refresh', 'r2'],
    ]) {
      const cookie = cookies.find((c) => c.startsWith(`${name}=`))!
      expect(cookie).toContain(`${name}=${value}`)
      expect(cookie).toContain('Max-Age=2592000')
      expect(cookie).toContain('Path=/')
      expect(cookie).toContain('HttpOnly')
      expect(cookie).toContain('SameSite=Lax')
      expect(cookie).not.toContain('Secure') // plain http on localhost
    }
  })

  it('a call whose 401 arrives after another call refreshed retries without refreshing again', async () => {
    const valid = new Set<string>()
    let slowFirst = true
    const route = thingsApi(valid, () => {
      valid.add('a2')
      return { status: 200, body: { access: 'a2', refresh: 'r2' } }
    })
    const api = await startFakeApi(async (hit, res, req) => {
      if (hit.path === '/api/things/2/' && slowFirst) {
        slowFirst = false
        await sleep(150) // answers 401 long after call 1 has refreshed
      }
      return route(hit, res, req)
    })
    const session = sessionFor(api.url, 'access=expired; refresh=r1')
    const [one, two] = await Promise.all([must(getThing(session, 1)), must(getThing(session, 2))])
    expect([one.owner, two.owner]).toEqual(['a2', 'a2'])
    expect(api.hits.filter((h) => h.path === '/api/auth/jwt/refresh/')).toHaveLength(1)
  })

  it('loaders of the same storefront request share one session and one refresh (apiFor)', async () => {
    const valid = new Set<string>()
    const api = await startFakeApi(async (hit, res) => {
      if (hit.path === '/api/auth/jwt/refresh/') {
        await sleep(30)
        valid.add('a2')
        return json(res, 200, { access: 'a2', refresh: 'r2' })
      }
      const token = hit.auth?.replace(/^Bearer /, '') ?? ''
      return valid.has(token) ? json(res, 200, { status: 'ok' }) : json(res, 401, { detail: 'x', code: 'x' })
    })
    const request = new Request('http://localhost:3000/', { headers: { cookie: 'access=old; refresh=r1' } })
    const context = {
      api: { baseUrl: api.url, fetch: (req: Request) => fetch(req) },
      clientAddress: '::1',
    } as AppLoadContext
    // two loaders of one navigation, each with its own copy of the Request (as Remix does)
    const loader = async () => {
      const session = apiFor(new Request(request), context)
      await must(session.client.GET('/api/health/'))
      return session
    }
    const [first, second] = await Promise.all([loader(), loader()])
    expect(first).toBe(second)
    expect(api.hits.filter((h) => h.path === '/api/auth/jwt/refresh/')).toHaveLength(1)
    expect(setCookies(first.headers).map((c) => c.split(';')[0])).toEqual(['access=a2', 'refresh=r2'])
    // another storefront request (another load context) is another session
    const other = new Request('http://localhost:3000/', { headers: { cookie: 'access=a2; refresh=r2' } })
    expect(apiFor(other, { ...context })).not.toBe(first)
  })

  it('retries a call only once after a refresh', async () => {
    let n = 0
    const api = await startFakeApi(
      thingsApi(new Set(), () => {
        n++
        return { status: 200, body: { access: `a${n}`, refresh: `r${n}` } } // still refused by things
      }),
    )
    const session = sessionFor(api.url, 'access=a0; refresh=r0')
    const { response } = await getThing(session, 1)
    expect(response.status).toBe(401)
    expect(api.hits.map((h) => `${h.path} ${h.auth}`)).toEqual([
      '/api/things/1/ Bearer a0',
      '/api/auth/jwt/refresh/ null',
      '/api/things/1/ Bearer a1',
    ])
  })

  it('refreshes at most 5 times in one session', async () => {
    let n = 0
    const api = await startFakeApi(
      thingsApi(new Set(), () => {
        n++
        return { status: 200, body: { access: `a${n}`, refresh: `r${n}` } }
      }),
    )
    const session = sessionFor(api.url, 'access=a0; refresh=r0')
    const statuses: number[] = []
    for (let i = 1; i <= 7; i++) statuses.push((await getThing(session, i)).response.status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401])
    expect(api.hits.filter((h) => h.path === '/api/auth/jwt/refresh/')).toHaveLength(5)
    // calls 6 and 7 are sent once each, with the last refreshed token
    expect(api.hits.slice(-2).map((h) => `${h.path} ${h.auth}`)).toEqual([
      '/api/things/6/ Bearer a5',
      '/api/things/7/ Bearer a5',
    ])
    // one Set-Cookie per name: the last tokens
    expect(setCookies(session.headers).map((c) => c.split(';')[0])).toEqual(['access=a5', 'refresh=r5'])
  })

  it('does not refresh without a refresh token', async () => {
    const api = await startFakeApi(thingsApi(new Set(), () => ({ status: 200, body: {} })))
    const session = sessionFor(api.url, 'access=a0')
    expect((await getThing(session, 1)).response.status).toBe(401)
    expect(api.hits).toHaveLength(1)
  })

  it.each([400, 401])(
    'a refresh answered %i logs out: tokens and stored cart cleared, call retried as a guest',
    async (status) => {
      const api = await startFakeApi(
        thingsApi(new Set(), () => ({
          status,
          body: { detail: 'Токен недействителен', code: 'token_not_valid' },
        })),
      )
      const session = sessionFor(api.url, 'access=a0; refresh=r0')
      expect(await must(getThing(session, 3))).toEqual({ id: 3, owner: null })
      expect(api.hits.map((h) => `${h.path} ${h.auth}`)).toEqual([
        '/api/things/3/ Bearer a0',
        '/api/auth/jwt/refresh/ null',
        '/api/things/3/ null',
      ])
      expect(session.signedIn).toBe(false)
      const cookies = setCookies(session.headers)
      expect(cookies.map((c) => c.split(';')[0])).toEqual(['access=', 'refresh=', 'cart_clear=1'])
      for (const c of cookies.slice(0, 2)) {
        expect(c).toContain('Max-Age=0')
        expect(c).toContain('HttpOnly')
      }
      expect(cookies[2]).not.toContain('HttpOnly') // the browser reads it to clear the stored cart
    },
  )

  it('keeps the tokens when the refresh route itself fails (500)', async () => {
    const api = await startFakeApi(thingsApi(new Set(), () => ({ status: 500, body: { detail: 'boom' } })))
    const session = sessionFor(api.url, 'access=a0; refresh=r0')
    expect((await getThing(session, 1)).response.status).toBe(401)
    expect(session.signedIn).toBe(true)
    expect(setCookies(session.headers)).toEqual([])
  })
})

// ---- 503 retries, timeout, network failure

describe('503 on GET', () => {
  it('retries a GET twice, waiting 1 s and then 2 s by default', async () => {
    const api = await startFakeApi((_hit, res) =>
      api.hits.length < 3 ? json(res, 503, { detail: 'busy' }) : json(res, 200, { id: 1, owner: null }),
    )
    const waits: number[] = []
    const session = sessionFor(api.url, undefined, {
      retryDelays: undefined,
      sleep: async (ms) => {
        waits.push(ms)
      },
    })
    expect(await must(getThing(session, 1))).toEqual({ id: 1, owner: null })
    expect(waits).toEqual([1000, 2000])
    expect(api.hits).toHaveLength(3)
  })

  it('really waits between attempts, the second wait the longer one', async () => {
    const api = await startFakeApi((_hit, res) => json(res, 503, { detail: 'busy' }))
    const session = sessionFor(api.url, undefined, { retryDelays: [60, 300] })
    const { response } = await getThing(session, 1)
    expect(response.status).toBe(503) // gives up after two retries
    expect(api.hits).toHaveLength(3)
    const [a, b, c] = api.hits.map((h) => h.at) as [number, number, number]
    // lower bounds only: a loaded machine can stretch either gap, never shorten one (comparing
    // the two gaps failed once under load)
    expect(b - a).toBeGreaterThanOrEqual(55)
    expect(c - b).toBeGreaterThanOrEqual(295)
  })

  it('never retries a POST', async () => {
    const api = await startFakeApi((_hit, res) => json(res, 503, { detail: 'busy' }))
    const session = sessionFor(api.url)
    const { response } = await session.client.POST('/api/things/', { body: { name: 'x' } })
    expect(response.status).toBe(503)
    expect(api.hits).toHaveLength(1)
  })
})

describe('timeout and network failure', () => {
  it('a request that outlives the timeout ends as client status 408 Request Timeout', async () => {
    const api = await startFakeApi(() => {}) // never answers
    const session = sessionFor(api.url, undefined, { timeoutMs: 150 })
    const started = performance.now()
    const result = await getThing(session, 1)
    expect(performance.now() - started).toBeLessThan(1000)
    expect(result.response.status).toBe(408)
    expect(result.response.statusText).toBe('Request Timeout')
    expect(result.error).toEqual({ detail: ru.errors.request_timeout, code: 'request_timeout' })
    expect(api.hits).toHaveLength(1) // a timeout is not retried
    const error = await must(getThing(session, 2)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiResponseError)
    expect(error).toMatchObject({ status: 408, message: ru.errors.request_timeout, code: 'request_timeout' })
  })

  it('a body that stalls after the headers also ends as 408', async () => {
    const api = await startFakeApi((_hit, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"id": 1,') // and never finishes
    })
    const session = sessionFor(api.url, undefined, { timeoutMs: 150 })
    expect((await getThing(session, 1)).response.status).toBe(408)
  })

  it('the default timeout is 30 000 ms (API_TIMEOUT_MS unset)', async () => {
    // the timer is the only thing that can end this exchange; fake time shows when it fires
    const { vi } = await import('vitest')
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      const request = new Request('http://localhost:3000/')
      const context = {
        api: { baseUrl: 'http://api.test', fetch: () => new Promise<Response>(() => {}) },
        clientAddress: '::1',
      } as AppLoadContext
      const session = createApiSession<TestPaths>(request, context)
      let status = 0
      const pending = getThing(session, 1).then((r) => {
        status = r.response.status
      })
      await vi.advanceTimersByTimeAsync(29_999)
      expect(status).toBe(0)
      await vi.advanceTimersByTimeAsync(1)
      await pending
      expect(status).toBe(408)
    } finally {
      vi.useRealTimers()
    }
  })

  it('a closed port ends as client status 503 Service Unavailable', async () => {
    const api = await startFakeApi((_hit, res) => json(res, 200, {}))
    const server = servers.pop()!
    await new Promise((resolve) => server.close(resolve)) // nothing listens there now
    const session = sessionFor(api.url)
    const result = await getThing(session, 1)
    expect(result.response.status).toBe(503)
    expect(result.response.statusText).toBe('Service Unavailable')
    expect(result.error).toEqual({ detail: ru.errors.service_unavailable, code: 'service_unavailable' })
    await expect(must(session.client.POST('/api/things/', { body: { name: 'x' } }))).rejects.toMatchObject({
      status: 503,
      message: ru.errors.service_unavailable,
    })
  })

  it('a dropped connection is retried on GET (it is a 503 to the caller) but not on POST', async () => {
    const api = await startFakeApi((_hit, _res, req) => {
      req.socket.destroy()
    })
    const session = sessionFor(api.url)
    expect((await getThing(session, 1)).response.status).toBe(503)
    expect(api.hits).toHaveLength(3)
    expect((await session.client.POST('/api/things/', { body: { name: 'x' } })).response.status).toBe(503)
    expect(api.hits).toHaveLength(4)
  })
})

// ---- error text, no_access

describe('error text (§8)', () => {
  const cases: Array<[string, number, string, string]> = [
    [
      'detail when the body has a code',
      400,
      '{"code":"promo_unknown","detail":"Промокод не найден"}',
      'Промокод не найден',
    ],
    [
      'the first string of a field-error body',
      400,
      '{"email":["Введите email"],"phone":["Неверный телефон"]}',
      'Введите email',
    ],
    [
      'the first string, however deep',
      400,
      '{"errors":[{"products":{"0":"Нет в наличии"}}]}',
      'Нет в наличии',
    ],
    ['a code alone is not text: generic message', 400, '{"code":"whatever"}', ru.errors.generic_error],
    ['no string at all: generic message', 500, '{"n":1}', ru.errors.generic_error],
  ]
  it.each(cases)('%s', async (_name, status, body, expected) => {
    const api = await startFakeApi((_hit, res) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(body)
    })
    await expect(must(getThing(sessionFor(api.url), 1))).rejects.toMatchObject({ status, message: expected })
  })

  it('an HTML error page (a proxy, not the API) gives the generic message', async () => {
    const api = await startFakeApi((_hit, res) => {
      res.writeHead(502, { 'content-type': 'text/html' })
      res.end('<html><body>Bad Gateway</body></html>')
    })
    await expect(must(getThing(sessionFor(api.url), 1))).rejects.toMatchObject({
      status: 502,
      message: ru.errors.generic_error,
    })
  })
})

describe('no_access', () => {
  const noAccess = { detail: 'Доступ к аккаунту ограничен', code: 'no_access' }

  it('logs the shopper out and queues the detail as an error toast', async () => {
    const api = await startFakeApi((_hit, res) => json(res, 403, noAccess))
    const session = sessionFor(api.url, 'access=a1; refresh=r1')
    await expect(must(getThing(session, 1))).rejects.toMatchObject({ status: 403, message: noAccess.detail })
    expect(session.notifications).toEqual([{ type: 'error', text: noAccess.detail }])
    expect(session.signedIn).toBe(false)
    expect(setCookies(session.headers).map((c) => c.split(';')[0])).toEqual([
      'access=',
      'refresh=',
      'cart_clear=1',
    ])
  })

  it('a guest gets the toast but no cookies (nothing to log out of, the cart stays)', async () => {
    const api = await startFakeApi((_hit, res) => json(res, 403, noAccess))
    const session = sessionFor(api.url)
    await getThing(session, 1)
    expect(session.notifications).toEqual([{ type: 'error', text: noAccess.detail }])
    expect(setCookies(session.headers)).toEqual([])
  })

  it('other error codes neither log out nor notify', async () => {
    const api = await startFakeApi((_hit, res) => json(res, 403, { detail: 'Нельзя', code: 'forbidden' }))
    const session = sessionFor(api.url, 'access=a1; refresh=r1')
    await getThing(session, 1)
    expect(session.notifications).toEqual([])
    expect(session.signedIn).toBe(true)
  })
})

// ---- required parameters, unknown kinds

describe('required parameters (§5)', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
  ])('a %s path parameter is rejected before sending', async (_name, id) => {
    const api = await startFakeApi((_hit, res) => json(res, 200, {}))
    const session = sessionFor(api.url)
    const call = session.client.GET('/api/things/{id}/', {
      params: { path: { id: id as unknown as number } },
    })
    await expect(call).rejects.toThrow(RequiredParameterError)
    await expect(call).rejects.toThrow('path.id')
    expect(api.hits).toHaveLength(0)
  })

  it.each([
    ['null', null],
    ['undefined', undefined],
  ])('a %s body on POST is rejected before sending', async (_name, body) => {
    const api = await startFakeApi((_hit, res) => json(res, 201, {}))
    const session = sessionFor(api.url)
    const call = session.client.POST('/api/things/', { body: body as unknown as { name: string } })
    await expect(call).rejects.toThrow('Required parameter body was null or undefined when calling POST')
    expect(api.hits).toHaveLength(0)
  })

  it('a missing body is rejected when the contract requires one', async () => {
    const api = await startFakeApi((_hit, res) => json(res, 201, {}))
    const session = sessionFor(api.url, undefined, {
      bodyRequired: (method, path) => method === 'POST' && path === '/api/things/',
    })
    const call = session.client.POST('/api/things/', {} as never)
    await expect(call).rejects.toThrow(RequiredParameterError)
    expect(api.hits).toHaveLength(0)
    // and the same call with its body goes through
    await session.client.POST('/api/things/', { body: { name: 'ok' } })
    expect(api.hits).toHaveLength(1)
  })

  it('a path parameter 0 or "" is a value, not a missing one', async () => {
    const api = await startFakeApi((_hit, res) => json(res, 200, { id: 0, owner: null }))
    const session = sessionFor(api.url)
    await must(getThing(session, 0))
    expect(api.hits[0]!.path).toBe('/api/things/0/')
  })
})

describe('unknown kinds', () => {
  it('an unknown game resourcetype from the API raises', async () => {
    const api = await startFakeApi((hit, res) =>
      json(res, 200, { id: 1, resourcetype: hit.path.endsWith('/1/') ? 'PUBGGame' : 'XboxGame' }),
    )
    const session = sessionFor(api.url)
    const known = await must(session.client.GET('/api/games/{id}/', { params: { path: { id: 1 } } }))
    expect(assertGameKind(known.resourcetype)).toBe('PUBGGame')
    const unknown = await must(session.client.GET('/api/games/{id}/', { params: { path: { id: 2 } } }))
    expect(() => assertGameKind(unknown.resourcetype)).toThrow(UnknownKindError)
    expect(() => assertGameKind(unknown.resourcetype)).toThrow('Unknown game resourcetype: "XboxGame"')
  })

  it('an unknown payment scenario type from the API raises', async () => {
    const api = await startFakeApi((hit, res) =>
      json(res, 200, { type: hit.path.includes('sandbox') ? 'qr' : 'crypto' }),
    )
    const session = sessionFor(api.url)
    const pay = (name: string) =>
      must(
        session.client.POST('/api/payments/{name}/', { params: { path: { name } }, body: { order_id: 'o' } }),
      )
    expect(assertScenarioType((await pay('sandbox')).type)).toBe('qr')
    const unknown = await pay('other')
    expect(() => assertScenarioType(unknown.type)).toThrow('Unknown payment scenario type: "crypto"')
  })
})

// ---- the in-process API (no socket)

describe('in-process fetch', () => {
  it('works with a fetch that calls the API in-process, refresh and timeout included', async () => {
    const seen: string[] = []
    const inProcess = async (req: Request): Promise<Response> => {
      const auth = req.headers.get('authorization')
      seen.push(`${req.method} ${new URL(req.url).pathname} ${auth}`)
      if (req.url.endsWith('/api/things/9/')) return new Promise<Response>(() => {}) // hangs
      if (req.url.endsWith('/api/auth/jwt/refresh/')) {
        return Response.json({ access: 'a2', refresh: 'r2' })
      }
      if (auth !== 'Bearer a2')
        return Response.json({ detail: 'x', code: 'token_not_valid' }, { status: 401 })
      return Response.json({ id: 1, owner: 'a2' })
    }
    const request = new Request('https://shop.example/', { headers: { cookie: 'access=a1; refresh=r1' } })
    const context = {
      api: { baseUrl: 'http://shop.internal', fetch: inProcess },
      clientAddress: '198.51.100.1',
    } as AppLoadContext
    const session = createApiSession<TestPaths>(request, context, { timeoutMs: 100 })
    expect(await must(getThing(session as ReturnType<typeof sessionFor>, 1))).toEqual({ id: 1, owner: 'a2' })
    expect(seen).toEqual([
      'GET /api/things/1/ Bearer a1',
      'POST /api/auth/jwt/refresh/ null',
      'GET /api/things/1/ Bearer a2',
    ])
    // over https the token cookies are Secure
    for (const c of setCookies(session.headers)) expect(c).toContain('Secure')
    expect((await getThing(session as ReturnType<typeof sessionFor>, 9)).response.status).toBe(408)
  })
})
