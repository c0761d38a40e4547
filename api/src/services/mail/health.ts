// How the shop's mail is doing, for the back-office overview (issue 37): where mail goes, when a
// mail last went out, and how many are being retried or were given up on. A production shop that
// writes mail to files (no SMTP_URL) is flagged: buyers get nothing, codes sit on the server's disk.
import { and, eq, inArray, max, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { jobs, mailLog } from '../../db/schema'
import type { MailConfig } from './config'
import { MAIL_JOB } from './outbox'

/** Mails given up on within this many days count as failing. */
const DEAD_WINDOW_DAYS = 7

export interface MailHealth {
  transport: 'smtp' | 'file'
  /** Production without SMTP: every mail is a file on the server, nobody receives anything. */
  not_configured: boolean
  last_sent_at: string | null
  /** Mails whose sending failed at least once and that are still being retried. */
  retrying: number
  /** Mails given up on (every attempt failed) in the last seven days. */
  dead: number
}

export async function mailHealth(db: Db, mail: MailConfig, production: boolean): Promise<MailHealth> {
  const [[last], [queue]] = await Promise.all([
    db.select({ at: max(mailLog.sentAt) }).from(mailLog),
    db
      .select({
        // failed at least once and waiting for the next try, or on its second try or later now
        retrying: sql<number>`count(*) filter (where (${jobs.status} = 'pending' and ${jobs.attempts} >= 1)
          or (${jobs.status} = 'running' and ${jobs.attempts} >= 2))`.mapWith(Number),
        dead: sql<number>`count(*) filter (where ${jobs.status} = 'dead'
          and ${jobs.finishedAt} >= now() - make_interval(days => ${DEAD_WINDOW_DAYS}))`.mapWith(Number),
      })
      .from(jobs)
      .where(and(eq(jobs.kind, MAIL_JOB), inArray(jobs.status, ['pending', 'running', 'dead']))),
  ])
  const transport = mail.smtp ? 'smtp' : 'file'
  return {
    transport,
    not_configured: production && transport === 'file',
    last_sent_at: last?.at ? last.at.toISOString() : null,
    retrying: queue?.retrying ?? 0,
    dead: queue?.dead ?? 0,
  }
}
