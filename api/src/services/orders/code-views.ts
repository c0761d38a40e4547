// Evidence for disputes (issue 34, decision 092): every answer that shows a delivered code (the
// order — the pay page and the mails' order links —, the order history, the lookup link) leaves a
// row in code_views with the time, the client address, the user agent and the account. A repeat of
// the same view within a minute (a page polling, a reload) is one row, so a client cannot grow the
// table faster than once a minute per order and browser.
import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client'
import { codeViews, orders, payments } from '../../db/schema'
import { message } from '../../lib/errors'
import { log, serializeError } from '../../lib/log'
import { toMoney } from '../../lib/money'
import type { Actor } from '../actor'

export type CodeViewPlace = 'order' | 'history' | 'lookup'

const SAME_VIEW_MS = 60_000
const UA_MAX = 400

/** Whether a serialized order (detail or history item) shows a delivered code. */
export function showsCode(order: { id: string }): boolean {
  type Lines = Array<{ codes?: unknown[] }> | undefined
  const o = order as { code?: unknown; products?: Lines; order_products?: Lines }
  if (typeof o.code === 'string' && o.code !== '') return true
  return [...(o.products ?? []), ...(o.order_products ?? [])].some((l) => (l.codes?.length ?? 0) > 0)
}

/** Logs one view of each order in `shown` that shows a code. Never fails the answer. */
export async function logCodeViews(
  db: Db,
  actor: Actor,
  place: CodeViewPlace,
  shown: ReadonlyArray<{ id: string }>,
): Promise<void> {
  const ids = shown.filter(showsCode).map((o) => o.id)
  if (ids.length === 0) return
  const address = actor.address
  const userAgent = actor.userAgent?.slice(0, UA_MAX) || null
  try {
    const recent = await db
      .select({ orderId: codeViews.orderId })
      .from(codeViews)
      .where(
        and(
          inArray(codeViews.orderId, ids),
          eq(codeViews.place, place),
          eq(codeViews.clientAddress, address),
          userAgent === null ? sql`${codeViews.userAgent} is null` : eq(codeViews.userAgent, userAgent),
          gte(codeViews.created, new Date(Date.now() - SAME_VIEW_MS)),
        ),
      )
    const seen = new Set(recent.map((r) => r.orderId))
    const rows = ids
      .filter((id) => !seen.has(id))
      .map((orderId) => ({ orderId, place, clientAddress: address, userAgent, userId: actor.userId }))
    if (rows.length) await db.insert(codeViews).values(rows)
  } catch (err) {
    log.warn({ err: serializeError(err) }, 'code view not logged')
  }
}

/** An order's code views, newest first (the back-office order page and the dispute export). */
export const codeViewsOf = (db: Db, orderId: string, limit = 500) =>
  db.select().from(codeViews).where(eq(codeViews.orderId, orderId)).orderBy(desc(codeViews.id)).limit(limit)

const line = (k: string, v: string | null | undefined) => `${k}: ${v ?? '—'}`

/**
 * The plain-text evidence for a provider's dispute form: the order, its payments (address,
 * country, card reference — never the number) and every view of its codes. Null: no such order.
 */
export async function disputeText(db: Db, orderId: string): Promise<string | null> {
  const [o] = await db.select().from(orders).where(eq(orders.id, orderId))
  if (!o) return null
  const paid = await db.select().from(payments).where(eq(payments.orderId, orderId)).orderBy(payments.created)
  const views = (await codeViewsOf(db, orderId, 5000)).reverse()
  const out = [
    message('dispute_order', { id: o.id }),
    line(message('dispute_created'), o.created.toISOString()),
    line(message('dispute_paid'), o.paidAt?.toISOString()),
    line(message('dispute_status'), o.status),
    line(message('dispute_email'), o.email),
    line(message('dispute_total'), toMoney(o.total)),
    '',
    message('dispute_payments', { n: paid.length }),
  ]
  for (const p of paid)
    out.push(
      [
        `- ${p.created.toISOString()}`,
        `${p.provider} ${p.externalId ?? '—'}`,
        `${toMoney(p.amount)} ${p.currency}`,
        p.status,
        line(message('dispute_address'), p.clientAddress),
        line(message('dispute_country'), p.countryCode),
        line(message('dispute_card'), p.cardHash ? p.cardHash.slice(0, 16) : null),
        line(message('dispute_card_country'), p.cardCountry),
      ].join('; '),
    )
  out.push('', message('dispute_views', { n: views.length }))
  for (const v of views)
    out.push(
      [
        `- ${v.created.toISOString()}`,
        message(`dispute_place_${v.place as CodeViewPlace}`),
        line(message('dispute_view_address'), v.clientAddress),
        line(message('dispute_account'), v.userId === null ? message('dispute_guest') : `#${v.userId}`),
        line(message('dispute_browser'), v.userAgent),
      ].join('; '),
    )
  return `${out.join('\n')}\n`
}
