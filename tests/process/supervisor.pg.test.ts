// Issue 19: on PostgreSQL `npm start` runs one worker per core by default; a worker killed with
// kill -9 costs only its own requests: the others keep answering and it is replaced.
import { availableParallelism } from 'node:os'
import { afterAll, describe, expect, it } from 'vitest'
import { createPgDatabase, type PgTestDatabase } from '#tests/helpers/pg-database'
import {
  logLines,
  type ShopProcess,
  startShopProcess,
  waitFor,
  workerPids,
} from '#tests/helpers/shop-process'

let db: PgTestDatabase | null = null
let shop: ShopProcess | null = null
afterAll(async () => {
  await shop?.stop('SIGKILL')
  await db?.drop()
})

describe('npm start on PostgreSQL', () => {
  it('starts a worker per core and keeps answering while one is killed and replaced', async () => {
    db = await createPgDatabase('shop_sup')
    const cores = availableParallelism()
    shop = await startShopProcess({
      entry: 'scripts/start.mjs',
      env: { SHOP_ROLE: 'api', DATABASE_URL: db.url, PUBLIC_URL: 'http://localhost', SEED_DEMO: '1' },
      readyTimeoutMs: 120_000,
    })
    const s = shop
    // every worker up (each one's health answered through the shared port)
    await waitFor(
      'every worker ready',
      () => logLines(s).filter((l) => String(l.msg).startsWith('Shop ready')).length === cores,
      120_000,
    )
    expect(workerPids(s)).toHaveLength(cores)
    expect(logLines(s).find((l) => l.msg === 'supervisor starting workers')?.workers).toBe(cores)

    // a steady trickle of reads while one worker is killed
    let stop = false
    const statuses: number[] = []
    const reader = (async () => {
      while (!stop) {
        const status = await fetch(`${s.url}/api/games/`, { signal: AbortSignal.timeout(20_000) })
          .then(async (r) => {
            await r.arrayBuffer()
            return r.status
          })
          .catch(() => 0)
        statuses.push(status)
      }
    })()
    await waitFor('some answers', () => statuses.length >= 5)
    const [victim] = workerPids(s)
    process.kill(victim!, 'SIGKILL')
    await waitFor('the replacement worker', () => workerPids(s).length === cores + 1, 60_000)
    await waitFor(
      'the replacement ready',
      () => logLines(s).filter((l) => String(l.msg).startsWith('Shop ready')).length === cores + 1,
      120_000,
    )
    const before = statuses.length
    await waitFor('more answers', () => statuses.length >= before + 5)
    stop = true
    await reader
    const failed = statuses.filter((x) => x !== 200).length
    console.log(
      `[supervisor] PostgreSQL, ${cores} workers: kill -9 of one during ${statuses.length} reads: ${failed} failed`,
    )
    // the shop never stopped answering: whatever the killed worker had in flight is all that failed
    expect(statuses.filter((x) => x === 200).length).toBeGreaterThan(failed)
    expect(statuses.slice(-5)).toEqual([200, 200, 200, 200, 200])
    expect(await s.stop('SIGTERM')).toEqual({ code: 0, signal: null })
  }, 240_000)
})
