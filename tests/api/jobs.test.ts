// The job queue (outbox): written with the change that causes it, run once across workers,
// retried with backoff, taken over when a worker dies, recurring jobs once per period.
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import type { Database } from '#api/db/client'
import { jobs } from '#api/db/schema'
import { loadApiConfig } from '#api/env'
import { backoffSeconds, claimJobs, enqueue } from '#api/jobs/queue'
import { createJobWorker, type JobHandler } from '#api/jobs/worker'
import { openTestDatabase } from '#tests/helpers/test-db'

let database: Database
let deps: ApiDeps
beforeAll(async () => {
  database = await openTestDatabase()
  const config = loadApiConfig(
    { NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32) },
    { dataDir: '/tmp', port: 3000 },
  )
  deps = { db: database.db, config, fetch }
})
afterAll(() => database?.close())
beforeEach(async () => {
  await database.db.delete(jobs)
})

const allJobs = () => database.db.select().from(jobs).orderBy(jobs.id)

describe('enqueue', () => {
  it('is part of the transaction: a rolled-back change leaves no job, a committed one does', async () => {
    await database.db
      .transaction(async (tx) => {
        await enqueue(tx, { kind: 'test.a', key: 'k-rolled-back' })
        throw new Error('rollback')
      })
      .catch(() => {})
    await database.db.transaction(async (tx) => {
      await enqueue(tx, { kind: 'test.a', key: 'k-committed', payload: { n: 1 } })
    })
    const rows = await allJobs()
    expect(rows.map((r) => r.dedupeKey)).toEqual(['k-committed'])
    expect(rows[0]?.payload).toEqual({ n: 1 })
    expect(rows[0]?.status).toBe('pending')
  })

  it('makes one job per key, whatever the number of enqueues', async () => {
    expect(await enqueue(database.db, { kind: 'test.a', key: 'same' })).toBe(true)
    expect(await enqueue(database.db, { kind: 'test.a', key: 'same' })).toBe(false)
    expect(await enqueue(database.db, { kind: 'test.a' })).toBe(true)
    expect(await enqueue(database.db, { kind: 'test.a' })).toBe(true)
    expect(await allJobs()).toHaveLength(3)
  })
})

describe('the worker', () => {
  it('runs each due job once and marks it done; a job due later waits', async () => {
    const seen: unknown[] = []
    const handlers: Record<string, JobHandler> = {
      'test.a': async (job) => {
        seen.push(job.payload.n)
      },
    }
    for (const n of [1, 2, 3]) await enqueue(database.db, { kind: 'test.a', payload: { n } })
    await enqueue(database.db, { kind: 'test.a', payload: { n: 9 }, runAt: new Date(Date.now() + 60_000) })
    const worker = createJobWorker(deps, { handlers })
    expect(await worker.runDue()).toBe(3)
    expect(seen.sort()).toEqual([1, 2, 3])
    expect(await worker.runDue()).toBe(0)
    const rows = await allJobs()
    expect(rows.map((r) => r.status)).toEqual(['done', 'done', 'done', 'pending'])
    expect(rows.slice(0, 3)).toEqual(
      Array.from({ length: 3 }, () => expect.objectContaining({ finishedAt: expect.any(Date), attempts: 1 })),
    )
  })

  it('retries a failing job after a growing backoff, then gives up and keeps it as dead', async () => {
    let calls = 0
    const handlers: Record<string, JobHandler> = {
      'test.fail': async () => {
        calls++
        throw new Error('smtp refused')
      },
    }
    await enqueue(database.db, { kind: 'test.fail', maxAttempts: 2 })
    const worker = createJobWorker(deps, { handlers, onError: () => {} })
    await worker.runDue()
    let [row] = await allJobs()
    expect(row?.status).toBe('pending')
    expect(row?.lastError).toBe('smtp refused')
    expect(row!.runAt.getTime()).toBeGreaterThan(Date.now() + 2_000)
    // not due yet: nothing runs
    expect(await worker.runDue()).toBe(0)
    await database.db.update(jobs).set({ runAt: sql`now()` })
    await worker.runDue()
    ;[row] = await allJobs()
    expect(row?.status).toBe('dead')
    expect(row?.attempts).toBe(2)
    expect(calls).toBe(2)
    // a dead job is never claimed again
    await database.db.update(jobs).set({ runAt: sql`now()` })
    expect(await worker.runDue()).toBe(0)
  })

  it('grows the backoff and caps it at an hour', () => {
    const mid = () => 0.5
    expect(backoffSeconds(1, mid)).toBe(5)
    expect(backoffSeconds(2, mid)).toBe(10)
    expect(backoffSeconds(4, mid)).toBe(40)
    expect(backoffSeconds(30, mid)).toBe(3600)
    expect(backoffSeconds(1, () => 0)).toBe(4)
    expect(backoffSeconds(1, () => 1)).toBe(6)
  })

  it('hands a job whose worker died (lease expired) to another worker', async () => {
    await enqueue(database.db, { kind: 'test.a', payload: { n: 7 } })
    // a worker claims it with a 1 s lease, then is killed before finishing
    const [claimed] = await claimJobs(database.db, { workerId: 'dead-worker', limit: 1, leaseSeconds: 1 })
    expect(claimed?.status).toBe('running')
    const seen: unknown[] = []
    const worker = createJobWorker(deps, {
      handlers: { 'test.a': async (j) => void seen.push(j.payload.n) },
    })
    expect(await worker.runDue()).toBe(0) // still leased
    await new Promise((r) => setTimeout(r, 1_100))
    expect(await worker.runDue()).toBe(1)
    expect(seen).toEqual([7])
    const [row] = await allJobs()
    expect(row?.status).toBe('done')
    expect(row?.attempts).toBe(2)
  })

  it('runs each of many jobs exactly once when several workers race for them', async () => {
    const runs = new Map<number, number>()
    const handlers: Record<string, JobHandler> = {
      'test.race': async (job) => {
        const n = job.payload.n as number
        runs.set(n, (runs.get(n) ?? 0) + 1)
        await new Promise((r) => setTimeout(r, 2))
      },
    }
    for (let n = 0; n < 60; n++) await enqueue(database.db, { kind: 'test.race', payload: { n } })
    const workers = [1, 2, 3].map(() => createJobWorker(deps, { handlers, concurrency: 4 }))
    const counts = await Promise.all(workers.map((w) => w.runDue()))
    expect(counts.reduce((a, b) => a + b, 0)).toBe(60)
    expect(runs.size).toBe(60)
    expect([...runs.values()].every((v) => v === 1)).toBe(true)
    const done = await database.db.select().from(jobs).where(eq(jobs.status, 'done'))
    expect(done).toHaveLength(60)
  })

  it('lets a handler ask for a later run without counting a failure', async () => {
    let calls = 0
    const later = new Date(Date.now() + 30_000)
    const handlers: Record<string, JobHandler> = {
      'test.poll': async () => {
        calls++
        return { again: later }
      },
    }
    await enqueue(database.db, { kind: 'test.poll', maxAttempts: 1 })
    const worker = createJobWorker(deps, { handlers })
    await worker.runDue()
    const [row] = await allJobs()
    expect(calls).toBe(1)
    expect(row?.status).toBe('pending')
    expect(row?.attempts).toBe(0)
    expect(Math.abs(row!.runAt.getTime() - later.getTime())).toBeLessThan(1000)
  })

  it('schedules a recurring job once per period, whichever instances try', async () => {
    const ran: string[] = []
    const handlers: Record<string, JobHandler> = { 'test.sweep': async (j) => void ran.push(j.dedupeKey!) }
    const recurring = [{ kind: 'test.sweep', everySeconds: 3600 }]
    const workers = [1, 2, 3].map(() => createJobWorker(deps, { handlers, recurring, pollMs: 20 }))
    for (const w of workers) w.start()
    await new Promise((r) => setTimeout(r, 400))
    await Promise.all(workers.map((w) => w.stop()))
    const rows = await allJobs()
    expect(rows).toHaveLength(1)
    expect(ran).toHaveLength(1)
    expect(rows[0]?.dedupeKey).toBe(`test.sweep@${Math.floor(Date.now() / 1000 / 3600)}`)
  })

  it('polls by itself once started, is woken early, and waits for running jobs when stopped', async () => {
    let finished = 0
    const handlers: Record<string, JobHandler> = {
      'test.slow': async () => {
        await new Promise((r) => setTimeout(r, 300))
        finished++
      },
    }
    const worker = createJobWorker(deps, { handlers, pollMs: 60_000 })
    worker.start()
    await new Promise((r) => setTimeout(r, 50))
    await enqueue(database.db, { kind: 'test.slow' })
    worker.wake()
    await new Promise((r) => setTimeout(r, 100))
    expect(worker.running()).toBe(1)
    await worker.stop(5_000)
    expect(finished).toBe(1)
    const [row] = await allJobs()
    expect(row?.status).toBe('done')
  })
})
