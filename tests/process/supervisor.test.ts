// Issue 19: `npm start` is a supervisor. A worker that dies (kill -9) is replaced and the shop
// answers again; the embedded database never gets a second worker; a worker that cannot start at
// all (no database) stops the whole thing with a clear log instead of a restart loop.
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import {
  freePort,
  logLines,
  type ShopProcess,
  startShopProcess,
  waitFor,
  workerPids,
} from '#tests/helpers/shop-process'

const started: ShopProcess[] = []
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop('SIGKILL')))
})

const healthy = (url: string) =>
  fetch(`${url}/api/health/`, { signal: AbortSignal.timeout(5000) })
    .then((r) => r.status === 200)
    .catch(() => false)

describe('npm start: the supervisor', () => {
  it('runs one worker on PGlite whatever WEB_CONCURRENCY says, and replaces it after kill -9', async () => {
    const shop = await startShopProcess({
      entry: 'scripts/start.mjs',
      env: { SHOP_ROLE: 'api', SEED_DEMO: '0', WEB_CONCURRENCY: '3', SHUTDOWN_DELAY_MS: '0' },
      readyTimeoutMs: 90_000,
    })
    started.push(shop)
    const note = logLines(shop).find((l) => String(l.msg).startsWith('WEB_CONCURRENCY=3 ignored'))
    expect(note?.level).toBe('warn')
    expect(workerPids(shop)).toHaveLength(1)

    const [first] = workerPids(shop)
    // production runs compiled JavaScript: the worker is build/shop/main.js, no TypeScript loader
    const argv = readFileSync(`/proc/${first}/cmdline`, 'utf8').split('\0')
    expect(argv.some((a) => a.endsWith('build/shop/main.js'))).toBe(true)
    expect(argv.join(' ')).not.toContain('tsx')
    process.kill(first!, 'SIGKILL')
    const killedAt = Date.now()
    // the replacement is started and the shop answers again
    await waitFor('a second worker', () => workerPids(shop).length === 2, 30_000)
    await waitFor('the shop to answer again', () => healthy(shop.url), 60_000)
    console.log(
      `[supervisor] PGlite: kill -9 of the worker → health 200 again after ${Date.now() - killedAt} ms`,
    )
    const died = logLines(shop).find((l) => l.msg === 'worker died; restarting')
    expect(died).toMatchObject({ workerPid: first, signal: 'SIGKILL', level: 'error' })
    expect(Number(died?.restartInMs)).toBeGreaterThan(0)
    const games = await fetch(`${shop.url}/api/games/`)
    expect(games.status).toBe(200)
    expect(shop.alive()).toBe(true)

    // SIGTERM to the primary alone (as `docker stop` does): the worker drains, everything exits 0
    expect(await shop.stop('SIGTERM')).toEqual({ code: 0, signal: null })
    expect(logLines(shop).some((l) => l.msg === 'shut down' && l.pid === workerPids(shop)[1])).toBe(true)
  }, 150_000)

  it('waits for an unreachable database a bounded time, says so, then stops with an error', async () => {
    const closed = await freePort()
    const shop = await startShopProcess({
      entry: 'scripts/start.mjs',
      env: {
        SHOP_ROLE: 'api',
        DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/nowhere`,
        PUBLIC_URL: 'http://localhost',
        DB_STARTUP_WAIT_MS: '2500',
        WEB_CONCURRENCY: '2',
      },
      waitReady: false,
    })
    started.push(shop)
    const exit = await shop.exited
    const out = shop.output()
    expect(exit.code, out).not.toBe(0)
    expect(out).toContain('database: not reachable yet, waiting (DB_STARTUP_WAIT_MS)')
    expect(out).toContain('cannot open the database')
    expect(out).toContain('worker could not start; stopping')
  }, 60_000)
})
