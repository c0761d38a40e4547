// The staff alert runner (issue 37): a recurring job runs every check (./checks.ts), keeps one
// row per cause in staff_alerts (opened, closed, reopened), and mails one digest of the causes that
// are new since the last digest. The row is the memory: a cause is mailed once per opening however
// often the job runs, whichever instance runs it, across restarts; a cause that went away and came
// back is news again. The digest is claimed (notified_at) in the transaction that queues its mails.
import { randomBytes } from 'node:crypto'
import { and, eq, inArray, isNotNull, isNull, notInArray, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Tx } from '../../db/client'
import { staffAlerts, staffRoles, users } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { log } from '../../lib/log'
import { queueMail } from '../mail/outbox'
import { ALERT_CHECKS, type AlertCheck, type AlertFound } from './checks'
import { eventAlerts } from './events'

export const ALERTS_JOB = 'alerts.check'
/** How often the checks run (each run is a handful of small aggregate queries). */
export const ALERTS_EVERY_SECONDS = 120

export interface AlertRun {
  opened: string[]
  closed: string[]
  /** Addresses a digest was queued for. */
  mailed: string[]
}

/** Owners (role rows and ADMIN_EMAILS) and support members' addresses. */
async function recipients(tx: Tx, adminEmails: readonly string[]) {
  const rows = await tx
    .select({ email: users.email, role: staffRoles.role })
    .from(staffRoles)
    .innerJoin(users, eq(users.id, staffRoles.userId))
    .where(and(isNotNull(users.email), isNull(users.deletedAt)))
  const norm = (e: string | null) => (e ?? '').toLowerCase()
  const owners = new Set([
    ...adminEmails.map(norm),
    ...rows.filter((r) => r.role === 'owner').map((r) => norm(r.email)),
  ])
  const support = new Set(rows.filter((r) => r.role === 'support').map((r) => norm(r.email)))
  for (const o of owners) support.delete(o)
  owners.delete('')
  support.delete('')
  return { owners: [...owners].sort(), support: [...support].sort() }
}

/** Runs the checks, records what opened and closed, and queues the digest of what is new. */
export async function runAlerts(
  deps: ApiDeps,
  checks: AlertCheck[] = [...ALERT_CHECKS, eventAlerts],
): Promise<AlertRun> {
  const results: Array<{ check: AlertCheck; found: AlertFound[] }> = []
  for (const check of checks) {
    try {
      results.push({ check, found: await check.run(deps) })
    } catch (err) {
      // a check that fails leaves its source's alerts as they are (neither opened nor closed)
      log.warn({ err, source: check.source }, 'alert check failed')
    }
  }
  const run: AlertRun = { opened: [], closed: [], mailed: [] }
  await deps.db.transaction(async (tx) => {
    for (const { check, found } of results) {
      const causes = found.map((f) => f.cause)
      const closed = await tx
        .update(staffAlerts)
        .set({ closedAt: sql`now()` })
        .where(
          and(
            eq(staffAlerts.source, check.source),
            isNull(staffAlerts.closedAt),
            causes.length ? notInArray(staffAlerts.cause, causes) : undefined,
          ),
        )
        .returning({ cause: staffAlerts.cause })
      run.closed.push(...closed.map((c) => c.cause))
      for (const f of found) {
        const [row] = await tx
          .insert(staffAlerts)
          .values({
            cause: f.cause,
            source: check.source,
            detail: f.detail,
            audience: check.audience,
            link: f.link,
          })
          .onConflictDoUpdate({
            target: staffAlerts.cause,
            set: {
              detail: f.detail,
              link: f.link,
              // reopened: news again; still open: only the text follows the figures
              openedAt: sql`case when ${staffAlerts.closedAt} is null then ${staffAlerts.openedAt} else now() end`,
              notifiedAt: sql`case when ${staffAlerts.closedAt} is null then ${staffAlerts.notifiedAt} else null end`,
              closedAt: null,
            },
          })
          .returning({ notifiedAt: staffAlerts.notifiedAt, openedAt: staffAlerts.openedAt })
        if (row && row.notifiedAt === null) run.opened.push(f.cause)
      }
    }
    // the digest: every open alert not mailed yet, claimed here (a concurrent run waits, then finds none)
    const fresh = await tx
      .update(staffAlerts)
      .set({ notifiedAt: sql`now()` })
      .where(and(isNull(staffAlerts.closedAt), isNull(staffAlerts.notifiedAt)))
      .returning({ cause: staffAlerts.cause, audience: staffAlerts.audience })
    if (!fresh.length) return
    const { owners, support } = await recipients(tx, deps.config.adminEmails)
    const digest = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
    const send = async (to: string, causes: string[]) => {
      if (!causes.length) return
      await queueMail(tx, {
        template: 'staff_alerts',
        to,
        data: { causes },
        key: `staff_alerts:${digest}:${to}`,
      })
      run.mailed.push(to)
    }
    const all = fresh.map((f) => f.cause).sort()
    const ofOrders = fresh
      .filter((f) => f.audience === 'staff')
      .map((f) => f.cause)
      .sort()
    for (const to of owners) await send(to, all)
    for (const to of support) await send(to, ofOrders)
  })
  if (run.mailed.length) deps.jobs?.wake()
  // the log names no person: how many digests went out, not to whom
  if (run.opened.length || run.closed.length)
    log.info({ opened: run.opened, closed: run.closed, digests: run.mailed.length }, 'staff alerts')
  return run
}

export const alertsJob: JobHandler = async (_job, deps) => {
  await runAlerts(deps)
}

/** The open alerts, newest first, for the overview. */
export async function openAlerts(db: ApiDeps['db'], audience?: 'staff') {
  const rows = await db
    .select()
    .from(staffAlerts)
    .where(
      and(isNull(staffAlerts.closedAt), audience ? inArray(staffAlerts.audience, [audience]) : undefined),
    )
    .orderBy(sql`${staffAlerts.openedAt} desc`, staffAlerts.cause)
    .limit(200)
  return rows.map((r) => ({
    cause: r.cause,
    source: r.source,
    detail: r.detail,
    link: r.link,
    opened_at: r.openedAt.toISOString(),
  }))
}
