// Staff alerts opened by an event rather than found by a periodic check (issue 42): a demo staff
// account disabled at a production start, a proxy nobody declared in TRUST_PROXY, a provider
// notification refused for its address. The row in staff_alerts is the memory (every instance sees
// it, it survives restarts): an event already open is not opened again, and the runner mails it in
// its next digest. The `security` check below keeps such an alert open for EVENT_ALERT_DAYS after
// its last event, then lets the runner close it.
import { and, eq, gte, isNull, sql } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { staffAlerts } from '../../db/schema'
import type { AlertCheck } from './checks'

export const EVENT_SOURCE = 'security'
/** An event alert stays on the overview this long after its last event. */
const EVENT_ALERT_DAYS = 7

export interface EventAlert {
  cause: string
  detail: string
  link: string
  audience: 'owner' | 'staff'
}

/**
 * Opens (or reopens) an event alert; true when it was not open already, so the caller can log the
 * event once for every instance. An open one keeps its opening and only counts as seen again.
 */
export async function openEventAlert(db: Db | Tx, alert: EventAlert): Promise<boolean> {
  const [row] = await db
    .insert(staffAlerts)
    .values({ ...alert, source: EVENT_SOURCE })
    .onConflictDoUpdate({
      target: staffAlerts.cause,
      set: {
        detail: alert.detail,
        link: alert.link,
        openedAt: sql`now()`,
        notifiedAt: null,
        closedAt: null,
      },
      // only a closed one is reopened: an open one is left as it is (no write per request)
      setWhere: sql`${staffAlerts.closedAt} is not null`,
    })
    .returning({ cause: staffAlerts.cause })
  return row !== undefined
}

/** Keeps the event alerts of the last EVENT_ALERT_DAYS open; older ones are closed by the runner. */
export const eventAlerts: AlertCheck = {
  source: EVENT_SOURCE,
  audience: 'owner',
  async run({ db }) {
    const rows = await db
      .select()
      .from(staffAlerts)
      .where(
        and(
          eq(staffAlerts.source, EVENT_SOURCE),
          isNull(staffAlerts.closedAt),
          gte(staffAlerts.openedAt, sql`now() - make_interval(days => ${EVENT_ALERT_DAYS})`),
        ),
      )
    return rows.map((r) => ({ cause: r.cause, detail: r.detail, link: r.link }))
  },
}
