// A browser that leaves mid-page (a closed tab, a dropped connection, Chromium dropping a 408
// answer to retry it) destroyed the streams the page was written through; one of them had no
// 'error' listener and the process ended. Pages of every kind, plain and compressed, answered to
// clients that hang up at once, must leave the process serving.
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'

let shop: ShopProcess

/** A GET that hangs up as soon as the answer starts; resolves with the status seen. */
function hangUpGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { headers }, (res) => {
      req.destroy()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', () => resolve(0))
    req.end()
  })
}

beforeAll(async () => {
  shop = await startShopProcess({ env: { SEED_DEMO: '1' } })
}, 120_000)

afterAll(async () => {
  await shop?.stop()
})

describe('pages never end the process when the browser goes away', () => {
  it('survives clients hanging up on every kind of page, then serves the next shopper', async () => {
    const paths = ['/', '/products/1', '/gifts', '/info', '/auth', '/orders/find', '/no-such-page']
    const encodings: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'br' },
      { 'accept-encoding': 'gzip' },
    ]
    for (let round = 0; round < 3; round++) {
      for (const path of paths) {
        for (const headers of encodings) await hangUpGet(`${shop.url}${path}`, headers)
      }
    }
    await new Promise((r) => setTimeout(r, 500))
    expect(shop.child.exitCode, shop.output().slice(-2000)).toBeNull()
    expect(shop.output()).not.toMatch(/Unhandled 'error' event|ABORT_ERR/)
    const page = await fetch(`${shop.url}/products/1`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<html lang="ru"')
  }, 120_000)
})
