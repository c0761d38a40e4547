// Issue 38, finding 3: the storefront's form routes read any body — a 120 MB urlencoded post to
// /orders/find (no sign-in, its own Origin) took a worker from 0.70 to 2.13 GB. A real shop process
// is sent 100 MB posts, with Content-Length and chunked without one, while its memory is sampled:
// each is answered 413 with the Russian page and the process grows by less than 50 MB.
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ShopProcess, startShopProcess } from '#tests/helpers/shop-process'

let shop: ShopProcess

beforeAll(async () => {
  shop = await startShopProcess({ env: { SEED_DEMO: '1' }, readyTimeoutMs: 280_000 })
}, 300_000)
afterAll(async () => {
  await shop?.stop('SIGKILL')
})

/** The process's resident memory, in bytes (Linux). */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return Number(m?.[1] ?? 0) * 1024
}

const MB = 1024 * 1024

/**
 * Posts `size` bytes of a form to `path` in 1 MB chunks, honouring back-pressure, declared by
 * Content-Length or chunked; resolves with the answer (whatever the server did to the upload).
 */
function bigPost(
  path: string,
  size: number,
  opts: { chunked: boolean; contentType: string },
): Promise<{ status: number; body: string; sent: number }> {
  return new Promise((resolve, reject) => {
    let sent = 0
    let status = 0
    let body = ''
    let settled = false
    const finish = () => {
      if (settled) return
      settled = true
      req.destroy()
      resolve({ status, body, sent })
    }
    const headers: Record<string, string> = {
      'content-type': opts.contentType,
      origin: shop.url,
    }
    if (!opts.chunked) headers['content-length'] = String(size)
    const req = request(`${shop.url}${path}`, { method: 'POST', headers }, (res) => {
      status = res.statusCode ?? 0
      res.setEncoding('utf8')
      res.on('data', (d) => {
        body += d
      })
      res.on('end', finish)
      res.on('close', finish)
      res.on('error', finish)
    })
    req.on('error', (e) => {
      // the server closes the connection once it has answered: the answer may be in already
      if (status) finish()
      else setTimeout(() => (status ? finish() : reject(e)), 2000)
    })
    const chunk = Buffer.alloc(MB, 'a')
    chunk.write('email=')
    const pump = () => {
      while (sent < size && !req.destroyed) {
        const ok = req.write(chunk.subarray(0, Math.min(MB, size - sent)))
        sent += Math.min(MB, size - sent)
        if (!ok) {
          req.once('drain', pump)
          return
        }
      }
      if (!req.destroyed) req.end()
    }
    pump()
  })
}

/** Runs `work` while sampling the process's memory every 20 ms; the largest growth over the start. */
async function growthDuring<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const pid = shop.child.pid!
  const start = rss(pid)
  let peak = start
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rss(pid))
    } catch {}
  }, 20)
  try {
    const result = await work()
    peak = Math.max(peak, rss(pid))
    return { result, growth: peak - start }
  } finally {
    clearInterval(timer)
  }
}

describe('storefront bodies are bounded (finding 3)', () => {
  it('an ordinary look-up form still works', async () => {
    const res = await fetch(`${shop.url}/orders/find`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: shop.url },
      body: 'email=buyer%40example.com',
      redirect: 'manual',
    })
    expect(res.status).toBeLessThan(400)
  })

  for (const chunked of [false, true])
    it(`a 100 MB urlencoded post to /orders/find (${chunked ? 'chunked' : 'Content-Length'}) is a 413, memory +<50 MB`, async () => {
      // warm the route first, so its code and caches are not counted as growth
      await fetch(`${shop.url}/orders/find`).then((r) => r.text())
      const { result, growth } = await growthDuring(() =>
        bigPost('/orders/find', 100 * MB, { chunked, contentType: 'application/x-www-form-urlencoded' }),
      )
      console.info(
        `[body-limit] 100 MB post (${chunked ? 'chunked' : 'Content-Length'}): ${result.status}, ` +
          `memory +${(growth / MB).toFixed(1)} MB, ${(result.sent / MB).toFixed(0)} MB written before the answer`,
      )
      expect(result.status).toBe(413)
      expect(result.body).toContain('Слишком большой запрос')
      expect(growth).toBeLessThan(50 * MB)
      // and the process serves the next shopper at once
      expect((await fetch(`${shop.url}/api/health/`)).status).toBe(200)
    }, 120_000)

  it('multipart bodies are bounded by the upload cap (a 30 MB post to the profile is refused)', async () => {
    const { result, growth } = await growthDuring(() =>
      bigPost('/profile/settings', 30 * MB, {
        chunked: false,
        contentType: 'multipart/form-data; boundary=----x',
      }),
    )
    expect(result.status).toBe(413)
    expect(growth).toBeLessThan(50 * MB)
  }, 120_000)
})
