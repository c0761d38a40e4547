// Issue 19: one GET of an uploaded avatar ended the process (a Node file stream cast to a web
// stream). Every way a browser or a script fetches media must leave the process running.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'

// a 1×1 GIF, recognised by its bytes
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAICRAEAOw==', 'base64')

let shop: ShopProcess
let mediaPath: string

/** A raw GET that hangs up after the first chunk of the body (a shopper leaving mid-download). */
function abortedGet(url: string, headers: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve) => {
    const req = request(url, { headers }, (res) => {
      res.once('data', () => {
        req.destroy()
        resolve()
      })
      res.once('end', resolve)
    })
    req.on('error', () => resolve())
    req.end()
  })
}

async function createStandoffOrderWithAvatar(base: string): Promise<string> {
  const game = (await (await fetch(`${base}/api/games/3/`)).json()) as { products: { id: number }[] }
  const created = await fetch(`${base}/api/orders/standoff/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      products: [{ product_id: game.products[0]?.id, quantity: 1 }],
      email: 'media@example.com',
      game_account_id: '12345678',
      surplus: '0.10',
    }),
  })
  const order = (await created.json()) as { id: string }
  const form = new FormData()
  form.set('game_avatar', new Blob([GIF], { type: 'image/gif' }), 'a.gif')
  const up = await fetch(`${base}/api/orders/standoff/avatar/${order.id}/`, { method: 'POST', body: form })
  const body = (await up.json()) as { game_avatar: string }
  expect(up.status).toBe(200)
  return body.game_avatar
}

beforeAll(async () => {
  shop = await startShopProcess({ env: { SHOP_ROLE: 'api', SEED_DEMO: '1' } })
  mediaPath = await createStandoffOrderWithAvatar(shop.url)
}, 90_000)
afterAll(async () => {
  await shop?.stop('SIGKILL')
})

describe('media responses never end the process', () => {
  it('serves the avatar whole, again and again, with its type and long caching', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await fetch(shop.url + mediaPath)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('image/gif')
      expect(res.headers.get('cache-control')).toContain('immutable')
      expect(Buffer.from(await res.arrayBuffer()).equals(GIF)).toBe(true)
    }
    expect(shop.alive()).toBe(true)
  })

  it('answers HEAD, Range and downloads abandoned half-way, and stays up', async () => {
    const head = await fetch(shop.url + mediaPath, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
    const ranged = await fetch(shop.url + mediaPath, { headers: { range: 'bytes=0-5' } })
    expect([200, 206]).toContain(ranged.status)
    await ranged.arrayBuffer()
    for (let i = 0; i < 10; i++) await abortedGet(shop.url + mediaPath)
    await Promise.all(Array.from({ length: 20 }, () => abortedGet(shop.url + mediaPath)))
    // give a crash, if any, the time to happen
    await new Promise((r) => setTimeout(r, 300))
    expect(shop.alive()).toBe(true)
    const health = await fetch(`${shop.url}/api/health/`)
    expect(health.status).toBe(200)
  })

  it('answers an unknown or malformed media name with 404 and stays up', async () => {
    for (const p of ['/media/0000.gif', '/media/..%2f..%2fetc%2fpasswd.png', '/media/x.exe']) {
      const res = await fetch(shop.url + p)
      expect(res.status).toBe(404)
      await res.arrayBuffer()
    }
    expect(shop.alive()).toBe(true)
  })
})
