// The job queue's storage operations. Jobs live in the `jobs` table of the shop database, so a job
// written in the transaction of the change that causes it (the outbox rule) is committed or rolled
// back with it, survives kill -9, and is seen by the workers of every instance.
import { and, eq, inArray, lt, lte, or, sql } from 'drizzle-orm'
import type { Db, Tx } from '../db/client'
import { jobs } from '../db/schema'

export type JobRow = typeof jobs.$inferSelect

export interface JobRequest {
  kind: string
  payload?: Record<string, unknown>
  /** One job per cause: a second enqueue with the same key is ignored (e.g. `mail:order_done:<id>`). */
  key?: string
  /** Not before this moment (default: now). */
  runAt?: Date
  maxAttempts?: number
}

/**
 * Adds a job, in the caller's transaction when given one. Returns false when a job with the same
 * key already exists (whatever its state): the cause was already handled or is being handled.
 */
export async function enqueue(db: Db | Tx, job: JobRequest): Promise<boolean> {
  const rows = await db
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload ?? {},
      dedupeKey: job.key ?? null,
      runAt: job.runAt ?? sql`now()`,
      ...(job.maxAttempts ? { maxAttempts: job.maxAttempts } : {}),
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id })
  return rows.length === 1
}

/**
 * Claims up to `limit` due jobs for `workerId`: pending ones whose time has come, and running ones
 * whose worker stopped renewing its lease (died). SKIP LOCKED lets instances claim side by side
 * without waiting on or taking each other's rows. `only` limits the claim to some job ids.
 */
export async function claimJobs(
  db: Db,
  opts: { workerId: string; limit: number; leaseSeconds: number; kinds?: string[]; only?: number[] },
): Promise<JobRow[]> {
  const due = or(
    and(eq(jobs.status, 'pending'), lte(jobs.runAt, sql`now()`)),
    and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, sql`now()`)),
  )
  const filters = [due]
  if (opts.kinds) filters.push(inArray(jobs.kind, opts.kinds))
  if (opts.only) filters.push(inArray(jobs.id, opts.only))
  const candidates = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(...filters))
    .orderBy(jobs.runAt, jobs.id)
    .limit(opts.limit)
    .for('update', { skipLocked: true })
  return db
    .update(jobs)
    .set({
      status: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: opts.workerId,
      lockedUntil: sql`now() + make_interval(secs => ${opts.leaseSeconds})`,
    })
    .where(inArray(jobs.id, candidates))
    .returning()
}

/** The job ran to its end. Ignored when the lease was lost meanwhile (another worker owns it now). */
export async function completeJob(db: Db | Tx, job: JobRow, workerId: string): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'done', finishedAt: sql`now()`, lockedUntil: null, lastError: null })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
}

/** Delay before attempt n+1: 5 s, 10 s, 20 s … capped at one hour, with ±20 % jitter. */
export function backoffSeconds(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(3600, 5 * 2 ** Math.max(0, attempts - 1))
  return Math.round(base * (0.8 + 0.4 * random()))
}

/**
 * The job failed: it is tried again after a backoff (or at `retryAt`), or, when its attempts are
 * used up, it is dead (kept for a person to look at).
 */
export async function failJob(
  db: Db | Tx,
  job: JobRow,
  workerId: string,
  error: string,
  retryAt?: Date,
): Promise<'retry' | 'dead'> {
  const dead = job.attempts >= job.maxAttempts
  const next = retryAt ?? new Date(Date.now() + backoffSeconds(job.attempts) * 1000)
  await db
    .update(jobs)
    .set({
      status: dead ? 'dead' : 'pending',
      runAt: dead ? job.runAt : next,
      lockedUntil: null,
      lastError: error.slice(0, 2000),
      finishedAt: dead ? sql`now()` : null,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
  return dead ? 'dead' : 'retry'
}

/**
 * Asks for another run later without counting it as a failure (e.g. a supplier still working).
 * `payload` replaces the job's payload (a handler's own count of checks, for its own bound).
 */
export async function rescheduleJob(
  db: Db | Tx,
  job: JobRow,
  workerId: string,
  runAt: Date,
  payload?: Record<string, unknown>,
): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: 'pending',
      runAt,
      lockedUntil: null,
      attempts: sql`${jobs.attempts} - 1`,
      ...(payload ? { payload } : {}),
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
}

/** Extends the lease of a long-running job, so that no other worker takes it over. */
export async function renewLease(db: Db, ids: number[], workerId: string, leaseSeconds: number) {
  if (ids.length === 0) return
  await db
    .update(jobs)
    .set({ lockedUntil: sql`now() + make_interval(secs => ${leaseSeconds})` })
    .where(and(inArray(jobs.id, ids), eq(jobs.lockedBy, workerId), eq(jobs.status, 'running')))
}
