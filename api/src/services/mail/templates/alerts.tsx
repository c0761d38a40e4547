// The staff alert digest (issue 37): the causes that are new since the last digest, each once,
// read fresh when the mail is sent (one that closed meanwhile is left out; none left, no mail).
import { and, inArray, isNull, sql } from 'drizzle-orm'
import { staffAlerts } from '../../../db/schema'
import { fill, M } from '../messages'
import { Action, Layout, P } from './layout'
import type { Template } from './types'

export const staffAlertsDigest: Template<'staff_alerts'> = async (data, ctx) => {
  const causes = data.causes.slice(0, 200)
  if (!causes.length) return null
  const [rows, [total]] = await Promise.all([
    ctx.db
      .select({ cause: staffAlerts.cause, detail: staffAlerts.detail, link: staffAlerts.link })
      .from(staffAlerts)
      .where(and(inArray(staffAlerts.cause, causes), isNull(staffAlerts.closedAt)))
      .orderBy(staffAlerts.openedAt, staffAlerts.cause),
    ctx.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(staffAlerts)
      .where(isNull(staffAlerts.closedAt)),
  ])
  if (!rows.length) return null
  const shop = ctx.shop ?? M.shop
  return {
    subject: fill(M.staff_alerts.subject, { shop, n: rows.length }),
    body: (
      <Layout
        preview={M.staff_alerts.preview}
        heading={M.staff_alerts.heading}
        publicUrl={ctx.config.publicUrl}
      >
        <P>{M.staff_alerts.intro}</P>
        {rows.map((r) => (
          <P key={r.cause}>
            {'• '}
            {r.detail} — {`${ctx.config.publicUrl}${r.link}`}
          </P>
        ))}
        <P>{fill(M.staff_alerts.still_open, { n: total?.n ?? rows.length })}</P>
        <Action href={`${ctx.config.publicUrl}/admin`}>{M.staff_alerts.open}</Action>
      </Layout>
    ),
  }
}
