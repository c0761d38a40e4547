// Issue 44, finding 1: TRACE was answered as GET on every GET route (a buyer's data included), and a
// method a path does not declare was a 404. Through the real shop server on a real port (the node
// adapter is where TRACE turned into GET), with node:http (fetch refuses to send TRACE).
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createShopServer } from '../../server/create-server'
import { loadServerEnv } from '../../server/env'
import { makeUser } from './orders-fixtures'

let api: TestApi
let server: ServerType
let port = 0

beforeAll(async () => {
  api = await createTestApi()
  // the shop server reads its API's settings from the environment: the same secret as the test API's
  process.env.JWT_SECRET = api.config.jwtSecret
  const env = loadServerEnv({
    NODE_ENV: 'test',
    SHOP_ROLE: 'api',
    PORT: '3000',
    DATA_DIR: api.config.uploadDir,
  })
  const shop = await createShopServer(env, api.database)
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: shop.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s))
  })
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((r) => server?.close(r))
  await api?.close()
})

function send(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      })
      req.on('error', reject)
      req.end()
    },
  )
}

describe('methods a path does not declare', () => {
  it('TRACE is 405 with Allow, never the GET answer', async () => {
    const res = await send('TRACE', '/api/health/')
    expect(res.status).toBe(405)
    expect(res.headers.allow).toBe('GET, HEAD')
    expect(JSON.parse(res.body)).toMatchObject({ code: 'method_not_allowed' })
    expect(res.body).not.toContain('"status"')
  })

  it('TRACE with a buyer’s token does not return the buyer’s data', async () => {
    const buyer = await makeUser(api)
    const get = await send('GET', '/api/orders/standoff/last_order_data/', {
      authorization: `Bearer ${buyer.token}`,
    })
    expect(get.status).toBe(200)
    const trace = await send('TRACE', '/api/orders/standoff/last_order_data/', {
      authorization: `Bearer ${buyer.token}`,
    })
    expect(trace.status).toBe(405)
    expect(trace.body).not.toBe(get.body)
    expect(JSON.parse(trace.body).code).toBe('method_not_allowed')
  })

  it('a method the path does not declare is 405 naming the declared ones; an unknown path stays 404', async () => {
    const del = await send('DELETE', '/api/health/')
    expect(del.status).toBe(405)
    expect(del.headers.allow).toBe('GET, HEAD')
    const put = await send('PUT', '/api/games/1/')
    expect(put.status).toBe(405)
    expect(put.headers.allow).toBe('GET, HEAD')
    const post = await send('POST', '/api/games/1/')
    expect(post.status).toBe(405)
    const profile = await send('DELETE', '/api/auth/profile/')
    expect(profile.status).toBe(405)
    expect(profile.headers.allow).toBe('GET, HEAD, POST, PATCH')
    const other = await send('PATCH', '/api/games/')
    expect(other.status).toBe(405)
    expect((await send('DELETE', '/api/no-such-thing/')).status).toBe(404)
  })

  it('HEAD stays GET’s: the same status and headers, no body', async () => {
    const get = await send('GET', '/api/games/')
    const head = await send('HEAD', '/api/games/')
    expect(head.status).toBe(200)
    expect(head.headers['content-type']).toBe(get.headers['content-type'])
    expect(head.body).toBe('')
  })
})
