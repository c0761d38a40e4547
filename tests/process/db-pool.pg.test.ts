// Issue 18: a transaction whose BEGIN meets a dead connection must not keep its pool client. With
// one connection in the pool, a BEGIN that gets no answer (a silent network, then the read timeout)
// used to leave that client checked out for good: every later request waited for a free client
// and answered 503 until the process was restarted.
import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { cleanupAfterAll } from '#tests/helpers/cleanup'
import { openDatabase } from '#api/db/client'
import { startFaultProxy } from '#tests/helpers/fault-proxy'
import { createPgDatabase } from '#tests/helpers/pg-database'

const rows = (r: unknown) => (r as { rows: unknown[] }).rows

const cleanup = cleanupAfterAll()

describe('the PostgreSQL pool', () => {
  it('gets its client back when a transaction cannot even begin', async () => {
    const target = await createPgDatabase('shop_pool')
    cleanup.push(() => target.drop())
    const proxy = await startFaultProxy({ host: '127.0.0.1', port: 5432 })
    cleanup.push(() => proxy.close())
    const database = await openDatabase({
      url: proxy.via(target.url),
      migrate: false,
      pg: { poolMax: 1, connectTimeoutMs: 1500, queryTimeoutMs: 700, startupWaitMs: 5000 },
    })
    cleanup.push(() => database.close())
    const { db } = database
    expect(rows(await db.execute(sql`select 1 as one`))).toEqual([{ one: 1 }])

    proxy.setSilent(true)
    await expect(db.transaction((tx) => tx.execute(sql`select 2`))).rejects.toThrow()
    proxy.setSilent(false)

    // the only client was handed back as broken: a new connection serves the next transactions
    for (let i = 0; i < 3; i++) {
      const r = await db.transaction((tx) => tx.execute(sql`select 3 as three`))
      expect(rows(r)).toEqual([{ three: 3 }])
    }
    expect(database.pool!.waitingCount).toBe(0)
  }, 30_000)
})
