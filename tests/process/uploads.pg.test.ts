// Issue 19 «uploads every instance sees»: two shop processes with data folders of their own on one
// PostgreSQL database. An avatar uploaded through one is served by the other; a folder of uploads
// an older version left on an instance's disk is imported into the database when it starts. A
// storefront-only process in front of the API serves the same links.
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GIF, jpegWithMetadata, JPEG, SECRET } from '#tests/helpers/images'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'
import {
  logLines,
  type ShopProcess,
  startShopProcess,
  startStorefrontProcess,
} from '#tests/helpers/shop-process'

const LEGACY = `${'b'.repeat(32)}.gif`

let db: PgTestDatabase
let first: ShopProcess
let second: ShopProcess | null = null
let storefront: ShopProcess | null = null

const env = () => ({
  SHOP_ROLE: 'api',
  DATABASE_URL: db.url,
  PUBLIC_URL: 'http://localhost',
  SEED_DEMO: '1',
  JOBS: '0',
})

async function newStandoffOrder(base: string): Promise<string> {
  const game = (await (await fetch(`${base}/api/games/3/`)).json()) as { products: { id: number }[] }
  const created = await fetch(`${base}/api/orders/standoff/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      products: [{ product_id: game.products[0]?.id, quantity: 1 }],
      email: 'uploads@example.com',
      game_account_id: '12345678',
      surplus: '0.10',
    }),
  })
  expect(created.status).toBe(201)
  return ((await created.json()) as { id: string }).id
}

beforeAll(async () => {
  db = await createPgDatabase('shop_uploads')
  first = await startShopProcess({ env: env(), readyTimeoutMs: 120_000 })
}, 150_000)
afterAll(async () => {
  await Promise.all([first, second, storefront].map((p) => p?.stop('SIGKILL')))
  await db?.drop()
})

describe('two instances on one PostgreSQL database', () => {
  it('an avatar uploaded through one is served by the other; old uploads on disk are imported', async () => {
    const orderId = await newStandoffOrder(first.url)
    const form = new FormData()
    form.set('game_avatar', new Blob([new Uint8Array(jpegWithMetadata())], { type: 'image/jpeg' }), 'me.jpg')
    const up = await fetch(`${first.url}/api/orders/standoff/avatar/${orderId}/`, {
      method: 'POST',
      body: form,
    })
    expect(up.status).toBe(200)
    const avatar = ((await up.json()) as { game_avatar: string }).game_avatar

    // the second instance's folder holds a file an older version stored for another order
    const legacyOrder = await newStandoffOrder(first.url)
    await db.query('update orders set game_avatar = $1 where id = $2', [`/media/${LEGACY}`, legacyOrder])
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shop-second-'))
    mkdirSync(path.join(dataDir, 'uploads'))
    writeFileSync(path.join(dataDir, 'uploads', LEGACY), GIF)
    second = await startShopProcess({ env: env(), dataDir, readyTimeoutMs: 120_000 })

    const served = await fetch(second.url + avatar)
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('image/jpeg')
    expect(served.headers.get('cache-control')).toContain('immutable')
    const bytes = Buffer.from(await served.arrayBuffer())
    expect(bytes.equals(JPEG)).toBe(true)
    expect(bytes.includes(SECRET)).toBe(false)

    const imported = await fetch(`${first.url}/media/${LEGACY}`)
    expect(imported.status).toBe(200)
    expect(Buffer.from(await imported.arrayBuffer()).equals(GIF)).toBe(true)
    expect(logLines(second).some((l) => l.msg === 'imported the uploads folder into the database')).toBe(true)
    expect(readdirSync(dataDir)).toContain('uploads.imported')
    expect(readdirSync(first.dataDir)).not.toContain('uploads')
  })
})

describe('a storefront-only process in front of the API (split mode)', () => {
  it('serves /media/<name> of its pages by asking the API, with the same headers', async () => {
    const orderId = await newStandoffOrder(first.url)
    const form = new FormData()
    form.set('game_avatar', new Blob([new Uint8Array(GIF)], { type: 'image/gif' }), 'a.gif')
    const up = await fetch(`${first.url}/api/orders/standoff/avatar/${orderId}/`, {
      method: 'POST',
      body: form,
    })
    const avatar = ((await up.json()) as { game_avatar: string }).game_avatar
    storefront = await startStorefrontProcess(
      first.url,
      { PUBLIC_URL: 'http://localhost', JOBS: '0' },
      120_000,
    )
    const res = await fetch(storefront.url + avatar)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('image/gif')
    expect(res.headers.get('cache-control')).toContain('immutable')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(Buffer.from(await res.arrayBuffer()).equals(GIF)).toBe(true)
    const again = await fetch(storefront.url + avatar, {
      headers: { 'if-none-match': res.headers.get('etag')! },
    })
    expect(again.status).toBe(304)
    expect((await fetch(`${storefront.url}/media/${'c'.repeat(32)}.png`)).status).toBe(404)
  })
})
