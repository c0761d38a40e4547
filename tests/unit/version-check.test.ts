import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startVersionCheck } from '#app/lib/version-check'

let server: Server | undefined
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())))

/** A latest-version endpoint that answers `versions[n]` to the n-th request (then the last one). */
async function versionServer(versions: string[]) {
  const requests: string[] = []
  server = createServer((req, res) => {
    requests.push(req.url ?? '')
    const v = versions[Math.min(requests.length - 1, versions.length - 1)]
    res.writeHead(v === 'fail' ? 500 : 200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ version: v }))
  })
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}/version.json`, requests }
}

describe('new-version check (§4, §9)', () => {
  it('checks after the first delay, then on the interval, with a cache-busting query, until a new build is out', async () => {
    const { url, requests } = await versionServer(['v1', 'fail', 'v1', 'v2'])
    const seen = await new Promise<string>((resolve) => {
      startVersionCheck({ current: 'v1', url, firstDelayMs: 5, intervalMs: 10, onNewVersion: resolve })
    })
    expect(seen).toBe('v2')
    expect(requests).toHaveLength(4)
    for (const r of requests) expect(r).toMatch(/^\/version\.json\?t=\d+$/)
    // it stops once told
    await new Promise((r) => setTimeout(r, 50))
    expect(requests).toHaveLength(4)
  })

  it('waits the first delay before asking, and stop() ends it', async () => {
    const { url, requests } = await versionServer(['v1'])
    const stop = startVersionCheck({
      current: 'v1',
      url,
      firstDelayMs: 40,
      intervalMs: 10,
      onNewVersion: () => {},
    })
    await new Promise((r) => setTimeout(r, 20))
    expect(requests).toHaveLength(0)
    await expect.poll(() => requests.length).toBeGreaterThanOrEqual(1)
    stop()
    await new Promise((r) => setTimeout(r, 15)) // a request already on its way may still arrive
    const count = requests.length
    await new Promise((r) => setTimeout(r, 60))
    expect(requests.length).toBe(count)
  })
})
