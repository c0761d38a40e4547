// The job worker: polls the queue, runs due jobs with their handlers, retries failures with
// backoff, schedules recurring jobs once per period across every instance, and stops cleanly.
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import type { ApiDeps } from '../context'
import { claimJobs, completeJob, enqueue, failJob, type JobRow, renewLease, rescheduleJob } from './queue'

/**
 * A handler answers nothing (done) or a later run that is not a failure (with, optionally, the
 * payload that run will see); it throws to fail.
 */
export type JobHandler = (
  job: JobRow,
  deps: ApiDeps,
  // biome-ignore lint/suspicious/noConfusingVoidType: most handlers return nothing
) => Promise<{ again: Date; payload?: Record<string, unknown> } | void>

export interface RecurringJob {
  kind: string
  /** Period in seconds: one job per period, whichever instance inserts it first. */
  everySeconds: number
  /** Scheduled only when this says so (e.g. a provider that is configured). */
  when?: (deps: ApiDeps) => boolean
}

export interface JobWorkerOptions {
  handlers: Record<string, JobHandler>
  recurring?: RecurringJob[]
  /** How often the queue is polled when idle. */
  pollMs?: number
  /** Jobs run at once by this worker (PGlite runs one query at a time: keep it low there). */
  concurrency?: number
  leaseSeconds?: number
  onError?: (err: unknown, job?: JobRow) => void
}

export interface JobWorker {
  readonly id: string
  /** Starts polling (separate from creation, so tests can drive `runDue` by hand). */
  start(): void
  /** Polls at once (after a request enqueued something) instead of at the next tick. */
  wake(): void
  /** Claims and runs what is due now, once; resolves with how many jobs ran. For tests and scripts. */
  runDue(opts?: { only?: number[] }): Promise<number>
  /** Stops polling and waits up to `timeoutMs` for running jobs; unfinished ones are retried elsewhere. */
  stop(timeoutMs?: number): Promise<void>
  /** Jobs running in this worker now. */
  running(): number
}

export function createJobWorker(deps: ApiDeps, opts: JobWorkerOptions): JobWorker {
  const id = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
  const pollMs = opts.pollMs ?? 1000
  const concurrency = opts.concurrency ?? 2
  const leaseSeconds = opts.leaseSeconds ?? 120
  const onError = opts.onError ?? ((err) => console.error('[jobs]', err))
  const inFlight = new Map<number, Promise<void>>()
  let timer: NodeJS.Timeout | null = null
  let stopped = true
  let polling: Promise<void> | null = null
  let lastRecurring = 0

  async function runOne(job: JobRow): Promise<void> {
    const handler = opts.handlers[job.kind]
    try {
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`)
      const outcome = await handler(job, deps)
      if (outcome && 'again' in outcome) await rescheduleJob(deps.db, job, id, outcome.again, outcome.payload)
      else await completeJob(deps.db, job, id)
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err)
      const result = await failJob(deps.db, job, id, text).catch((e) => {
        onError(e, job)
        return 'retry' as const
      })
      onError(Object.assign(err instanceof Error ? err : new Error(text), { jobResult: result }), job)
    }
  }

  async function scheduleRecurring() {
    const now = Date.now()
    if (!opts.recurring?.length || now - lastRecurring < pollMs * 5) return
    lastRecurring = now
    for (const r of opts.recurring) {
      if (r.when && !r.when(deps)) continue
      const slot = Math.floor(now / 1000 / r.everySeconds)
      await enqueue(deps.db, { kind: r.kind, key: `${r.kind}@${slot}`, maxAttempts: 3 })
    }
  }

  async function poll(only?: number[]): Promise<number> {
    const free = concurrency - inFlight.size
    if (free <= 0) return 0
    const claimed = await claimJobs(deps.db, { workerId: id, limit: free, leaseSeconds, only })
    for (const job of claimed) {
      const p = runOne(job).finally(() => inFlight.delete(job.id))
      inFlight.set(job.id, p)
    }
    return claimed.length
  }

  async function tick() {
    timer = null
    if (stopped) return
    polling = (async () => {
      try {
        await scheduleRecurring()
        await poll()
        // keep the leases of long jobs
        if (inFlight.size) await renewLease(deps.db, [...inFlight.keys()], id, leaseSeconds)
      } catch (err) {
        onError(err) // the database may be away: try again at the next tick
      }
    })()
    await polling
    polling = null
    if (!stopped) timer = setTimeout(tick, pollMs)
  }

  const worker: JobWorker = {
    id,
    wake() {
      if (stopped || polling) return
      if (timer) clearTimeout(timer)
      timer = setTimeout(tick, 0)
    },
    async runDue(o) {
      let total = 0
      for (;;) {
        const n = await poll(o?.only)
        await Promise.all(inFlight.values())
        total += n
        if (n === 0) return total
      }
    },
    async stop(timeoutMs = 10_000) {
      stopped = true
      if (timer) clearTimeout(timer)
      timer = null
      if (polling) await polling
      const all = Promise.all(inFlight.values())
      await Promise.race([all, new Promise((r) => setTimeout(r, timeoutMs).unref())])
    },
    running: () => inFlight.size,
    start() {
      if (!stopped) return
      stopped = false
      timer = setTimeout(tick, 0)
    },
  }
  return worker
}
