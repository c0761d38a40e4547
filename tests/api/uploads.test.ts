// Uploads (issue 19 «uploads every instance sees», issue 20 finding 5 «uploads fill the disk"):
// images live in the database and any instance serves them; one avatar per order and per account
// (a new one deletes the old); per-address and per-order limits; type by content; metadata gone
// from what is stored and served; an owner's deletion takes its upload along.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApi } from '#api/app'
import { orders, uploads, users } from '#api/db/schema'
import { loadApiConfig } from '#api/env'
import { importLegacyUploads } from '#api/services/uploads/legacy-import'
import {
  GIF,
  gifWithMetadata,
  JPEG,
  jpegWithMetadata,
  PNG,
  pngWithMetadata,
  SECRET,
  WEBP,
  webpWithMetadata,
} from '#tests/helpers/images'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { ensureSettings, makeGame, makeProduct, makeUser, onlyActive } from './orders-fixtures'

const PER_TARGET = 3
const PER_ADDRESS = 5

let api: TestApi
/** A second instance of the API over the same database, with a data folder of its own. */
let second: ReturnType<typeof createApi>
let addressSeq = 0

/** A client address of its own for each caller, so the limits of one test never touch another's. */
const newAddress = () => `198.51.100.${++addressSeq}`

const LIMITS = { UPLOAD_LIMIT_PER_TARGET: String(PER_TARGET), UPLOAD_LIMIT_PER_ADDRESS: String(PER_ADDRESS) }

beforeAll(async () => {
  api = await createTestApi({ env: LIMITS })
  const otherDir = mkdtempSync(path.join(tmpdir(), 'shop-second-'))
  const config = loadApiConfig(
    {
      NODE_ENV: 'test',
      JWT_SECRET: 'test-secret-test-secret-test-secret!',
      SANDBOX_PAYMENTS: '1',
      ...LIMITS,
    },
    { dataDir: otherDir, port: 3001 },
  )
  second = createApi({ db: api.db, config, fetch: globalThis.fetch })
  await ensureSettings(api)
  const standoff = await makeGame(api, 'StandoffGame')
  await onlyActive(api, 'StandoffGame', standoff.id)
  standoffId = standoff.id
  await makeProduct(api, standoff.id, 'StandoffProduct', { price: 12000, gold: 100 })
})
afterAll(() => api.close())

let standoffId: number
let packs = 0

async function newOrder(token?: string): Promise<string> {
  // a pack of its own per order: open orders of one listing price have only 24 surpluses (issue 31)
  const pack = await makeProduct(api, standoffId, 'StandoffProduct', { price: 12000, gold: 100 + ++packs })
  const r = await api.call<{ id: string }>('POST', '/api/orders/standoff/', {
    body: {
      products: [{ quantity: 1, product_id: pack.id }],
      game_account_id: '12345678',
      surplus: 0.05,
      ...(token ? {} : { email: 'guest@example.com' }),
    },
    token,
  })
  expect(r.status).toBe(201)
  return r.body.id
}

type Answer = { status: number; body: Record<string, unknown>; headers: Headers }

async function uploadAvatar(
  orderId: string,
  bytes: Uint8Array | null,
  opts: { address?: string; token?: string; history?: string; app?: typeof second } = {},
): Promise<Answer> {
  const form = new FormData()
  if (bytes) form.set('game_avatar', new File([Buffer.from(bytes)], 'screenshot.png', { type: 'image/png' }))
  if (opts.history) form.set('history_order_id', opts.history)
  const headers: Record<string, string> = { 'x-shop-client-ip': opts.address ?? newAddress() }
  if (opts.token) headers.authorization = `Bearer ${opts.token}`
  const res = await (opts.app ?? api.app).request(`/api/orders/standoff/avatar/${orderId}/`, {
    method: 'POST',
    body: form,
    headers,
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers }
}

async function uploadProfileAvatar(
  token: string,
  bytes: Uint8Array,
  address = newAddress(),
): Promise<Answer> {
  const form = new FormData()
  form.set('avatar_img', new File([Buffer.from(bytes)], 'me.jpg', { type: 'image/jpeg' }))
  const res = await api.app.request('/api/auth/profile/', {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}`, 'x-shop-client-ip': address },
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers }
}

async function media(url: string, app = api.app, init?: RequestInit) {
  const res = await app.request(url, init)
  return { res, bytes: Buffer.from(await res.arrayBuffer()) }
}

const rowsOfOrder = (orderId: string) => api.db.select().from(uploads).where(eq(uploads.orderId, orderId))

function expectRefusal(r: Answer, status: number, code: string) {
  expect({ status: r.status, code: r.body.code }).toEqual({ status, code })
  expect(r.body.detail).toMatch(/[А-Яа-яЁё]/)
}

describe('uploads are in the database: every instance serves them', () => {
  it('an avatar uploaded through one instance is served by another, with its headers', async () => {
    const orderId = await newOrder()
    const up = await uploadAvatar(orderId, PNG)
    expect(up.status).toBe(200)
    const url = up.body.game_avatar as string
    expect(url).toMatch(/^\/media\/[0-9a-f]{32}\.png$/)

    const { res, bytes } = await media(url, second)
    expect(res.status).toBe(200)
    expect(bytes.equals(PNG)).toBe(true)
    expect(res.headers.get('content-type')).toBe('image/png')
    expect(res.headers.get('content-length')).toBe(String(PNG.length))
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="${url.slice('/media/'.length)}"`)
    const etag = res.headers.get('etag')
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)

    // the browser's copy is still good: 304 without a body, from either instance
    for (const app of [api.app, second]) {
      const again = await media(url, app, { headers: { 'if-none-match': etag! } })
      expect(again.res.status).toBe(304)
      expect(again.bytes.length).toBe(0)
    }
    const head = await media(url, second, { method: 'HEAD' })
    expect([head.res.status, head.bytes.length]).toEqual([200, 0])

    // and nothing was written to either instance's disk
    expect(readdirSync(path.dirname(api.config.uploadDir))).not.toContain('uploads')
  })

  it('an unknown or malformed media name is a 404, never a file-system look-up', async () => {
    for (const p of [
      `/media/${'0'.repeat(32)}.png`,
      '/media/..%2f..%2fetc%2fpasswd.png',
      '/media/x.exe',
      `/media/${'A'.repeat(32)}.png`,
    ]) {
      const { res } = await media(p)
      expect(res.status, p).toBe(404)
    }
  })
})

describe('one avatar per order (finding 5)', () => {
  it('a new upload replaces the old one and deletes it', async () => {
    const orderId = await newOrder()
    const address = newAddress()
    const first = (await uploadAvatar(orderId, PNG, { address })).body.game_avatar as string
    const secondUp = await uploadAvatar(orderId, GIF, { address, app: second })
    expect(secondUp.status).toBe(200)
    const latest = secondUp.body.game_avatar as string
    expect(latest).not.toBe(first)
    expect((await media(first)).res.status).toBe(404)
    expect((await media(first, second)).res.status).toBe(404)
    expect((await media(latest)).bytes.equals(GIF)).toBe(true)
    const rows = await rowsOfOrder(orderId)
    expect(rows.map((r) => `/media/${r.name}`)).toEqual([latest])
    const [order] = await api.db.select().from(orders).where(eq(orders.id, orderId))
    expect(order!.gameAvatar).toBe(latest)
  })

  it('the avatar of an earlier order is copied: replacing either leaves the other', async () => {
    const user = await makeUser(api)
    const earlier = await newOrder(user.token)
    const earlierUrl = (await uploadAvatar(earlier, JPEG, { token: user.token })).body.game_avatar as string
    const later = await newOrder(user.token)
    const copied = await uploadAvatar(later, null, { token: user.token, history: earlier })
    expect(copied.status).toBe(200)
    const copyUrl = copied.body.game_avatar as string
    expect(copyUrl).not.toBe(earlierUrl)
    await uploadAvatar(later, PNG, { token: user.token })
    expect((await media(copyUrl)).res.status).toBe(404)
    const kept = await media(earlierUrl)
    expect([kept.res.status, kept.bytes.equals(JPEG)]).toEqual([200, true])
  })

  it('a new profile avatar replaces the old one; account deletion deletes it', async () => {
    const user = await makeUser(api)
    const first = await uploadProfileAvatar(user.token, JPEG)
    const next = await uploadProfileAvatar(user.token, PNG)
    expect([first.status, next.status]).toEqual([200, 200])
    expect((await media(first.body.avatar_img as string)).res.status).toBe(404)
    expect((await media(next.body.avatar_img as string)).res.status).toBe(200)

    // the account's orders keep their avatars (delivery needs them), the account's own goes
    const orderId = await newOrder(user.token)
    const orderAvatar = (await uploadAvatar(orderId, GIF, { token: user.token })).body.game_avatar as string
    const del = await api.app.request('/api/auth/profile/delete/', {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}` },
    })
    expect(del.status).toBe(204)
    expect((await media(next.body.avatar_img as string)).res.status).toBe(404)
    expect(await api.db.select().from(uploads).where(eq(uploads.userId, user.id))).toEqual([])
    expect((await media(orderAvatar)).res.status).toBe(200)
  })

  it("an order's deletion deletes its avatar (the row goes with its owner)", async () => {
    const orderId = await newOrder()
    const url = (await uploadAvatar(orderId, PNG)).body.game_avatar as string
    await api.db.delete(orders).where(eq(orders.id, orderId))
    expect((await media(url)).res.status).toBe(404)
    expect(await rowsOfOrder(orderId)).toEqual([])
  })
})

describe('upload limits (finding 5)', () => {
  it(`per order: after ${PER_TARGET} uploads a 429 with Retry-After, from any address`, async () => {
    const orderId = await newOrder()
    for (let i = 0; i < PER_TARGET; i++) expect((await uploadAvatar(orderId, PNG)).status).toBe(200)
    const over = await uploadAvatar(orderId, PNG)
    expectRefusal(over, 429, 'rate_limited')
    expect(over.body.detail).toMatch(/^Слишком много попыток/)
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    // the other instance shares the counter
    expectRefusal(await uploadAvatar(orderId, PNG, { app: second }), 429, 'rate_limited')
    // another order is not affected
    expect((await uploadAvatar(await newOrder(), PNG)).status).toBe(200)
  })

  it(`per address: after ${PER_ADDRESS} uploads a 429, whatever the order`, async () => {
    const address = newAddress()
    for (let i = 0; i < PER_ADDRESS; i++)
      expect((await uploadAvatar(await newOrder(), PNG, { address })).status).toBe(200)
    const over = await uploadAvatar(await newOrder(), PNG, { address })
    expectRefusal(over, 429, 'rate_limited')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await uploadAvatar(await newOrder(), PNG)).status).toBe(200)
  })

  it("a stranger's refused attempts do not spend the owner's uploads", async () => {
    const owner = await makeUser(api)
    const stranger = await makeUser(api)
    const orderId = await newOrder(owner.token)
    for (let i = 0; i < PER_TARGET + 2; i++)
      expectRefusal(await uploadAvatar(orderId, PNG, { token: stranger.token }), 404, 'order_not_found')
    expect((await uploadAvatar(orderId, PNG, { token: owner.token })).status).toBe(200)
  })

  it(`per account for the profile avatar: after ${PER_TARGET} uploads a 429`, async () => {
    const user = await makeUser(api)
    for (let i = 0; i < PER_TARGET; i++) expect((await uploadProfileAvatar(user.token, PNG)).status).toBe(200)
    const over = await uploadProfileAvatar(user.token, PNG)
    expectRefusal(over, 429, 'rate_limited')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('metadata is stripped; the type is read from the bytes', () => {
  const cases = [
    [
      'PNG (tEXt, iTXt, zTXt, tIME, eXIf, a private chunk, bytes after IEND)',
      pngWithMetadata(),
      PNG,
      'image/png',
    ],
    ['JPEG (EXIF, XMP, Photoshop, a comment, bytes after EOI)', jpegWithMetadata(), JPEG, 'image/jpeg'],
    ['GIF (a comment, XMP, bytes after the trailer)', gifWithMetadata(), GIF, 'image/gif'],
    ['WebP (EXIF and XMP chunks, bytes after the container)', webpWithMetadata(), WEBP, 'image/webp'],
  ] as const

  it.each(cases)('%s: what is stored and served is the image alone', async (_name, dirty, clean, type) => {
    expect(dirty.includes(SECRET)).toBe(true)
    const orderId = await newOrder()
    const up = await uploadAvatar(orderId, dirty)
    expect(up.status).toBe(200)
    const { res, bytes } = await media(up.body.game_avatar as string, second)
    expect(res.headers.get('content-type')).toBe(type)
    expect(bytes.includes(SECRET)).toBe(false)
    expect(bytes.equals(clean)).toBe(true)
    const [row] = await rowsOfOrder(orderId)
    expect(row!.bytes.includes(SECRET)).toBe(false)
    expect(row!.size).toBe(clean.length)
  })

  it('the profile avatar is stripped too', async () => {
    const user = await makeUser(api)
    const up = await uploadProfileAvatar(user.token, jpegWithMetadata())
    expect(up.status).toBe(200)
    const { bytes } = await media(up.body.avatar_img as string)
    expect(bytes.equals(JPEG)).toBe(true)
  })

  it('broken or disguised images and oversized files are refused with a Russian message, nothing stored', async () => {
    const badCrc = Buffer.from(PNG)
    badCrc[badCrc.length - 20] = (badCrc[badCrc.length - 20] as number) ^ 0xff
    const refused: Array<[string, Uint8Array]> = [
      ['a PNG with a broken chunk', badCrc],
      ['a PNG cut short', PNG.subarray(0, PNG.length - 12)],
      ['a JPEG cut short', JPEG.subarray(0, 200)],
      ['a GIF without its image', GIF.subarray(0, 19)],
      [
        'a WebP whose size lies',
        Buffer.concat([WEBP.subarray(0, 4), Buffer.from([0xff, 0xff, 0xff, 0x7f]), WEBP.subarray(8)]),
      ],
      ['HTML after a GIF header', Buffer.from('GIF89a<script>alert(1)</script>')],
      ['an SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
    ]
    const orderId = await newOrder()
    for (const [what, bytes] of refused) {
      // each on an order of its own: the per-order limit is not what this test is about
      const target = await newOrder()
      const r = await uploadAvatar(target, bytes)
      expect({ what, status: r.status, code: r.body.code }).toEqual({
        what,
        status: 400,
        code: 'avatar_not_image',
      })
      expect(r.body.detail).toMatch(/[А-Яа-яЁё]/)
      expect(await rowsOfOrder(target)).toEqual([])
    }
    const big = Buffer.alloc(2 * 1024 * 1024 + 1)
    PNG.copy(big)
    expectRefusal(await uploadAvatar(orderId, big), 413, 'avatar_too_large')
    expect(await rowsOfOrder(orderId)).toEqual([])
  })
})

describe('uploads stored on disk by an older version', () => {
  it('are imported once at start-up: linked files become rows, stripped; others are left out', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'shop-legacy-')), 'uploads')
    mkdirSync(dir)
    const name = (n: number, ext: string) => `${String(n).padStart(32, 'a')}.${ext}`
    const [one, two, shared] = [await newOrder(), await newOrder(), await newOrder()]
    const user = await makeUser(api)
    const files = {
      [name(1, 'png')]: pngWithMetadata(),
      [name(2, 'jpg')]: JPEG,
      [name(3, 'gif')]: GIF,
      [name(4, 'png')]: PNG, // replaced long ago: nobody links it
    }
    for (const [n, bytes] of Object.entries(files)) writeFileSync(path.join(dir, n), bytes)
    await api.db
      .update(orders)
      .set({ gameAvatar: `/media/${name(1, 'png')}` })
      .where(eq(orders.id, one))
    await api.db
      .update(users)
      .set({ avatarImg: name(2, 'jpg') })
      .where(eq(users.id, user.id))
    // two orders that shared one file («avatar of an earlier order» before copies were made)
    for (const id of [two, shared])
      await api.db
        .update(orders)
        .set({ gameAvatar: `/media/${name(3, 'gif')}` })
        .where(eq(orders.id, id))

    expect(await importLegacyUploads(api.db, dir)).toEqual({ imported: 3, skipped: 1 })
    const served = await media(`/media/${name(1, 'png')}`, second)
    expect([served.res.status, served.bytes.equals(PNG)]).toEqual([200, true])
    expect((await media(`/media/${name(2, 'jpg')}`)).bytes.equals(JPEG)).toBe(true)
    expect((await media(`/media/${name(4, 'png')}`)).res.status).toBe(404)
    const [a, b] = await Promise.all([rowsOfOrder(two), rowsOfOrder(shared)])
    expect(a).toHaveLength(1)
    expect(b).toHaveLength(1)
    expect(a[0]!.name).not.toBe(b[0]!.name)
    const [sharedOrder] = await api.db.select().from(orders).where(eq(orders.id, shared))
    expect((await media(sharedOrder!.gameAvatar!)).bytes.equals(GIF)).toBe(true)

    // the folder is set aside, so the next start has nothing to do
    expect(readdirSync(path.dirname(dir)).sort()).toEqual(['uploads.imported'])
    expect(await importLegacyUploads(api.db, dir)).toBeNull()
  })
})
