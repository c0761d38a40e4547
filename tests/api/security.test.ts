// Security properties of the API that no single feature's tests own:
// - another user's orders are never readable or changeable, over EVERY order endpoint of the
//   contract (property-based: random valid bodies, a stranger and a guest, the owner's order
//   unchanged afterwards);
// - uploads: traversal filenames are never used as paths, non-images are refused (the rest of the
//   upload rules: tests/api/uploads.test.ts);
// - oversized and malformed bodies get 413/400 on several endpoints.
// Covered elsewhere and not repeated here: sign-in brute force → 429 (tests/api/auth.test.ts,
// "limits attempts per account/per client address"), refresh-token reuse revokes the sign-in
// (auth.test.ts, "reusing a used token revokes the whole sign-in"), payment callbacks with a bad
// signature refused and replays processed once (tests/api/payments-callbacks.test.ts, Payselection
// webhook and GetPay notify), avatar SVG/text/oversized refusals (tests/api/orders-manage.test.ts).
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { inArray } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orderProducts, orders, uploads as uploadRows } from '#api/db/schema'
import {
  listOperations,
  type OpenApiDocument,
  type Operation,
  validArbitrary,
} from '#tests/helpers/openapi-arbitrary'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { ensureSettings, makeGame, makeProduct, makeServer, makeUser, onlyActive } from './orders-fixtures'
import { makeSandboxMethod } from './payments-fixtures'

const doc = JSON.parse(
  readFileSync(new URL('../../openapi/schema.json', import.meta.url), 'utf8'),
) as OpenApiDocument

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

type Kind = 'pubg' | 'standoff' | 'steam' | 'supply_channel' | 'rokky'
let api: TestApi
let owner: Awaited<ReturnType<typeof makeUser>>
let stranger: Awaited<ReturnType<typeof makeUser>>
const ownerOrders = {} as Record<Kind, string>
let bodies: Record<Kind, Record<string, unknown>>
let paymentMethod: string

beforeAll(async () => {
  // the property tests post many avatars from one address: the upload limits have their own tests
  api = await createTestApi({
    env: { UPLOAD_LIMIT_PER_ADDRESS: '100000', UPLOAD_LIMIT_PER_TARGET: '100000' },
  })
  await ensureSettings(api)
  const pubg = await makeGame(api, 'PUBGGame')
  const uc = await makeProduct(api, pubg.id, 'PUBGProduct', { price: 9900, amountUc: 60, maxQuantity: 5 })
  const standoff = await makeGame(api, 'StandoffGame')
  await onlyActive(api, 'StandoffGame', standoff.id)
  const gold = await makeProduct(api, standoff.id, 'StandoffProduct', { price: 12000, gold: 100 })
  const supply = await makeGame(api, 'SupplyGame', { isServerNeeded: true, isServerEnum: true })
  const supplyProduct = await makeProduct(api, supply.id, 'SupplyProduct', { price: 5000 })
  const server = await makeServer(api, supply.id, 'Asia')
  const steam = await makeGame(api, 'Steam')
  await onlyActive(api, 'Steam', steam.id)
  const giftList = await api.call<{ results: Array<{ id: number }> }>('GET', '/api/gifts/?limit=50')
  bodies = {
    pubg: { products: [{ quantity: 2, product_id: uc.id }] },
    standoff: { products: [{ quantity: 1, product_id: gold.id }], game_account_id: 'acc-1' },
    steam: { amount: '500.00', steam_account_id: 'steam-owner' },
    supply_channel: {
      products: [{ quantity: 1, product_id: supplyProduct.id }],
      supply_channel_user_id: 'mg-1',
      supply_channel_server: server.id,
    },
    rokky: { gift: giftList.body.results[0]?.id },
  }
  owner = await makeUser(api)
  stranger = await makeUser(api)
  for (const kind of Object.keys(bodies) as Kind[]) {
    const r = await api.call<{ id: string }>('POST', `/api/orders/${kind}/`, {
      body: bodies[kind],
      token: owner.token,
    })
    if (r.status !== 201) throw new Error(`${kind} order: ${r.status} ${JSON.stringify(r.body)}`)
    ownerOrders[kind] = r.body.id
  }
  paymentMethod = (await makeSandboxMethod(api, 'redirect')).method.name
})
afterAll(() => api?.close())

/** Everything about an order that any endpoint could change. */
async function snapshot(ids: string[]) {
  const rows = await api.db.select().from(orders).where(inArray(orders.id, ids))
  const lines = await api.db.select().from(orderProducts).where(inArray(orderProducts.orderId, ids))
  const view = []
  for (const id of ids) view.push((await api.call('GET', `/api/orders/${id}/`, { token: owner.token })).body)
  return JSON.stringify({ rows: rows.map((r) => ({ ...r, updated: undefined })), lines, view })
}

/** The kind an order endpoint's path names (its order must be of that kind to go deep). */
function kindOf(op: Operation): Kind {
  const m = /^\/api\/orders\/(pubg|standoff|steam|supply_channel|rokky)\//.exec(op.path)
  return (m?.[1] as Kind) ?? 'pubg'
}

/** Every operation that addresses one order: by an order id in the path, or order_id in the body. */
const orderOperations = listOperations(doc).filter(
  (op) =>
    (op.path.startsWith('/api/orders/') && /\{id\}/.test(op.path)) ||
    /\{order_id\}/.test(op.path) ||
    op.path === '/api/payments/{name}/',
)

function requestFor(op: Operation, orderId: string, body: unknown) {
  let url = op.path.replace('{id}', orderId).replace('{order_id}', orderId).replace('{name}', paymentMethod)
  if (op.path === '/api/payments/{name}/') body = { ...(body as object), order_id: orderId }
  url = url.replace(/\{[^}]+\}/g, 'x')
  return { url, body }
}

async function send(op: Operation, url: string, body: unknown, token: string | null) {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {}
  let init: RequestInit
  if (op.body?.mediaType === 'multipart/form-data') {
    const form = new FormData()
    form.set('game_avatar', new File([PNG], 'a.png', { type: 'image/png' }))
    init = { method: op.method, headers, body: form }
  } else if (body !== undefined) {
    init = {
      method: op.method,
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }
  } else {
    init = { method: op.method, headers }
  }
  const res = await api.app.request(url, { ...init, redirect: 'manual' })
  const text = await res.text()
  let code: unknown = null
  try {
    code = (JSON.parse(text) as { code?: unknown }).code ?? null
  } catch {}
  return { status: res.status, code, text }
}

describe("another user's orders are never readable or changeable", () => {
  it('the contract has order endpoints of every kind to check', () => {
    expect(orderOperations.length).toBeGreaterThanOrEqual(20)
    for (const p of ['/api/orders/{id}/', '/api/orders/payment_data/{id}/', '/api/orders/status/{id}/']) {
      expect(orderOperations.some((op) => op.path === p)).toBe(true)
    }
  })

  it.each(orderOperations.map((op) => [op.name, op] as const))(
    '%s: a stranger and a guest get no more than for an order that does not exist',
    async (_name, op) => {
      const target = ownerOrders[kindOf(op)]
      const before = await snapshot(Object.values(ownerOrders))
      const bodyArb =
        op.body && /json/.test(op.body.mediaType)
          ? validArbitrary(doc, op.body.schema)
          : fc.constant(undefined)
      await fc.assert(
        fc.asyncProperty(bodyArb, fc.constantFrom(stranger.token, null), async (body, token) => {
          const real = requestFor(op, target, body)
          const answer = await send(op, real.url, real.body, token)
          // never a success; a 3xx only where an unknown order gets the same (the gateway's return URL)
          const success = answer.status >= 200 && answer.status < 300
          expect(success, `${op.name} → ${answer.status} ${answer.text.slice(0, 200)}`).toBe(false)
          expect(answer.status).toBeLessThan(500)
          // the same request for an order nobody has: the answer must not tell the two apart
          const ghost = requestFor(op, randomUUID(), body)
          const control = await send(op, ghost.url, ghost.body, token)
          expect({ status: answer.status, code: answer.code }).toEqual({
            status: control.status,
            code: control.code,
          })
        }),
        { numRuns: 12, seed: Number(process.env.FUZZ_SEED ?? 20261122) },
      )
      expect(await snapshot(Object.values(ownerOrders))).toBe(before)
    },
  )

  it('the owner still reaches every one of the orders (the refusals above were not blanket ones)', async () => {
    for (const id of Object.values(ownerOrders)) {
      expect((await api.call('GET', `/api/orders/${id}/`, { token: owner.token })).status).toBe(200)
      expect((await api.call('GET', `/api/orders/status/${id}/`, { token: owner.token })).status).toBe(200)
    }
    const r = await api.call('POST', `/api/payments/${paymentMethod}/`, {
      body: { order_id: ownerOrders.pubg, currency: 'RUB' },
      token: owner.token,
    })
    expect(r.status).toBe(200)
  })
})

describe('uploads', () => {
  // uploads are rows, never files: no name the client sends reaches the file system
  const uploads = async () =>
    (await api.db.select({ name: uploadRows.name }).from(uploadRows)).map((u) => u.name)

  it('a traversal filename is never used as a path: the image is stored under a random name', async () => {
    const r = await api.call('POST', '/api/orders/standoff/', {
      body: { ...bodies.standoff, email: 'guest@example.com' },
    })
    const form = new FormData()
    form.set('game_avatar', new File([PNG], '../../etc/passwd.png', { type: 'image/png' }))
    const res = await api.app.request(`/api/orders/standoff/avatar/${(r.body as { id: string }).id}/`, {
      method: 'POST',
      body: form,
    })
    expect(res.status).toBe(200)
    const avatar = ((await res.json()) as { game_avatar: string }).game_avatar
    expect(avatar).toMatch(/^\/media\/[0-9a-f]{32}\.png$/)
    expect(await uploads()).toContain(avatar.slice('/media/'.length))
    expect(existsSync(path.join(api.config.uploadDir, '../../etc/passwd.png'))).toBe(false)
  })

  it('the profile avatar: traversal names, text named .png and SVG with script are refused or renamed', async () => {
    const user = await makeUser(api)
    const post = async (bytes: BlobPart, name: string, type: string) => {
      const form = new FormData()
      form.set('avatar_img', new File([bytes], name, { type }))
      const res = await api.app.request('/api/auth/profile/', {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${user.token}` },
      })
      return { status: res.status, body: (await res.json()) as { code?: string; avatar_img?: string } }
    }
    const before = (await uploads()).length
    const text = await post('not an image at all', 'avatar.png', 'image/png')
    expect([text.status, text.body.code]).toEqual([400, 'profile_avatar_not_image'])
    const svg = await post(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      'a.svg',
      'image/svg+xml',
    )
    expect([svg.status, svg.body.code]).toEqual([400, 'profile_avatar_not_image'])
    const svgPng = await post('<svg onload="alert(1)"/>', 'a.png', 'image/png')
    expect(svgPng.status).toBe(400)
    expect((await uploads()).length).toBe(before)
    const sneaky = await post(PNG, '../../etc/passwd.png', 'image/png')
    expect(sneaky.status).toBe(200)
    expect(sneaky.body.avatar_img).toMatch(/\/media\/[0-9a-f]{32}\.png$/)
    expect(existsSync(path.join(api.config.uploadDir, '../../etc/passwd.png'))).toBe(false)
  })
})

describe('oversized and malformed bodies', () => {
  const endpoints: Array<[string, string]> = [
    ['POST', '/api/orders/pubg/'],
    ['POST', '/api/auth/jwt/create/'],
    ['POST', '/api/auth/jwt/refresh/'],
    ['POST', '/api/promo_codes/show/'],
    ['POST', '/api/payments/countries/active/select/'],
    ['PATCH', '/api/auth/profile/'],
  ]

  it.each(endpoints)('%s %s: over the JSON limit → 413, broken JSON → 400', async (method, url) => {
    const user = await makeUser(api)
    const huge = JSON.stringify({ email: 'a@example.com', padding: 'x'.repeat(api.config.maxJsonBytes + 10) })
    const big = await api.call(method, url, { body: huge, token: user.token })
    expect([big.status, (big.body as { code: string }).code]).toEqual([413, 'body_too_large'])
    for (const broken of ['{"email": ', '{email: 1}', '\u0000', '[1,2', '{"a":1}}']) {
      const r = await api.call(method, url, { body: broken, token: user.token })
      expect(r.status, `${url} ${JSON.stringify(broken)}`).toBe(400)
      expect((r.body as { detail: string }).detail).toMatch(/[А-Яа-яЁё]/)
    }
  })

  it('a multipart upload over the limit → 413', async () => {
    const user = await makeUser(api)
    const form = new FormData()
    form.set(
      'avatar_img',
      new File([Buffer.alloc(api.config.maxUploadBytes + 1024)], 'a.png', { type: 'image/png' }),
    )
    const res = await api.app.request('/api/auth/profile/', {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${user.token}` },
    })
    expect(res.status).toBe(413)
  })
})
