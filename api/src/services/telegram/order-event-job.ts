// The 'telegram.order_event' job (queued by ./follow.ts) and the 'telegram.staff_mail' job: who is
// told what about an order, decided from the database as it is when the job runs. Buyers following
// the order get short news with the order's link; staff who chose it get a message with buttons for
// an order waiting for a person or held for review, edited for everyone who got it as the order
// moves on; staff mails are said in the recipient's Telegram.
import { and, asc, eq, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db, Tx } from '../../db/client'
import {
  games,
  orders,
  refunds,
  socialAccounts,
  type TelegramAlert,
  telegramAccountFollowers,
  telegramFollowers,
  telegramMessages,
  telegramStaff,
  users,
} from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { staffMember } from '../admin/roles'
import { isMailTemplate, renderMail } from '../mail/render'
import { fill, formatRub } from '../mail/messages'
import type { EventNews } from './follow'
import { queueTelegram } from './outbox'
import { buyerUrl, orderNo, T } from './texts'

/** The linked staff who chose `alert` and still hold a staff role (a role taken away ends it). */
export async function staffChats(db: Db | Tx, adminEmails: readonly string[], alert: TelegramAlert) {
  const rows = await db.select().from(telegramStaff).orderBy(asc(telegramStaff.userId))
  const out: Array<typeof telegramStaff.$inferSelect> = []
  for (const r of rows)
    if (r.alerts.includes(alert) && (await staffMember(db, r.userId, adminEmails))) out.push(r)
  return out
}

type Ctx = { db: Db | Tx; config: ApiDeps['config'] }

async function buyerNews(
  { db, config }: Ctx,
  orderId: string,
  news: EventNews,
  payload: Record<string, unknown>,
) {
  const [row] = await db
    .select({ o: orders, minutes: games.deliveryMinutes })
    .from(orders)
    .leftJoin(games, eq(games.id, orders.gameId))
    .where(eq(orders.id, orderId))
  if (!row) return
  const { o } = row
  const followers = await buyerChats(db, o)
  if (!followers.length) return
  const base = { number: orderNo(o), url: buyerUrl(config.publicUrl, o.id) }
  let text: string | null = null
  if (news === 'paid') text = fill(T.buyer.paid, base)
  else if (news === 'waiting') text = fill(T.buyer.waiting, { ...base, minutes: row.minutes ?? 30 })
  else if (news === 'held') text = fill(T.buyer.held, base)
  else if (news === 'done') text = fill(T.buyer.done, base)
  else if (news === 'failed' && o.paidAt !== null)
    text = fill(T.buyer.failed, { ...base, reason: (o.rejectReason ?? '—').replace(/\.$/, '') })
  else if (news === 'refunded') {
    const [r] = await db
      .select({ amount: refunds.amount, toBalance: refunds.toBalance, method: refunds.method })
      .from(refunds)
      .where(and(eq(refunds.orderId, orderId), eq(refunds.kind, 'order')))
    if (r) {
      const manual = payload.status === 'manual'
      const toBalance = r.method === 'balance'
      const amount = formatRub(toBalance ? r.toBalance || r.amount : r.amount)
      text = fill(
        manual ? T.buyer.refund_manual : toBalance ? T.buyer.refunded_balance : T.buyer.refunded_payment,
        { ...base, amount },
      )
    }
  }
  if (!text) return
  for (const chatId of followers) await queueTelegram(db, { op: 'text', chatId, text })
}

/**
 * The chats told of an order: those following the order, and the chat of its account when the
 * buyer linked the account — only while the Telegram account that linked it is still bound to the
 * shop account (a sign-in unbound, or the account deleted, ends it).
 */
export async function buyerChats(db: Db | Tx, o: Pick<typeof orders.$inferSelect, 'id' | 'userId'>) {
  const byOrder = await db
    .select({ chatId: telegramFollowers.chatId })
    .from(telegramFollowers)
    .where(eq(telegramFollowers.orderId, o.id))
  const chats = new Set(byOrder.map((f) => f.chatId))
  if (o.userId !== null) {
    const byAccount = await db
      .select({ chatId: telegramAccountFollowers.chatId })
      .from(telegramAccountFollowers)
      .innerJoin(
        socialAccounts,
        and(
          eq(socialAccounts.userId, telegramAccountFollowers.userId),
          eq(socialAccounts.provider, 'telegram'),
          eq(socialAccounts.providerUserId, sql`${telegramAccountFollowers.tgUserId}::text`),
        ),
      )
      .where(eq(telegramAccountFollowers.userId, o.userId))
    for (const f of byAccount) chats.add(f.chatId)
  }
  return [...chats].sort((a, b) => a - b)
}

async function staffNews({ db, config }: Ctx, orderId: string, news: EventNews) {
  if (news === 'waiting' || news === 'held') {
    const purpose = news === 'waiting' ? 'waiting' : 'review'
    const chats = await staffChats(db, config.adminEmails, purpose)
    // keyed by the moment: an order waiting again (a retried delivery) is news again
    const at = Date.now().toString(36)
    for (const c of chats)
      await queueTelegram(
        db,
        { op: 'staff_order', chatId: c.chatId, orderId, purpose },
        `${purpose}:${orderId}:${c.chatId}:${at}`,
      )
    return
  }
  // anything else that happened to it: every message about it is written again as it is now
  const sent = await db
    .select({ chatId: telegramMessages.chatId, purpose: telegramMessages.purpose })
    .from(telegramMessages)
    .where(eq(telegramMessages.orderId, orderId))
  for (const m of sent)
    await queueTelegram(db, { op: 'staff_order', chatId: m.chatId, orderId, purpose: m.purpose })
}

export const telegramOrderEventJob: JobHandler = async (job, deps) => {
  const { orderId, news, ...rest } = job.payload as { orderId: string; news: EventNews }
  // queued by an API with a bot (the switch in ./follow.ts is per process): this one has none
  if (!deps.config.telegram) return
  await deps.db.transaction(async (tx) => {
    const d = { db: tx, config: deps.config }
    if (news !== 'staff_action') await buyerNews(d, orderId, news, rest)
    await staffNews(d, orderId, news)
  })
  deps.jobs?.wake()
}

export const telegramStaffMailJob: JobHandler = async (job, deps) => {
  const { template, to, data } = job.payload as {
    template: string
    to: string
    data: Record<string, unknown>
  }
  if (!deps.config.telegram || !isMailTemplate(template)) return
  const alert: TelegramAlert = template === 'staff_alerts' ? 'alerts' : 'staff_mail'
  const rows = await deps.db
    .select({ userId: telegramStaff.userId, chatId: telegramStaff.chatId, alerts: telegramStaff.alerts })
    .from(telegramStaff)
    .innerJoin(users, eq(users.id, telegramStaff.userId))
    .where(sql`lower(${users.email}) = ${to.toLowerCase()}`)
  const linked = rows.find((r) => r.alerts.includes(alert))
  if (!linked || !(await staffMember(deps.db, linked.userId, deps.config.adminEmails))) return
  const mail = await renderMail(template, data as never, {
    db: deps.db,
    config: deps.config,
    to,
    now: new Date(),
    demo: deps.config.demo,
  })
  if (!mail) return
  const body = mail.text.length > 1500 ? `${mail.text.slice(0, 1500)}…` : mail.text
  await queueTelegram(deps.db, {
    op: 'text',
    chatId: linked.chatId,
    text: `${fill(T.staff.mail_forward, { subject: mail.subject })}\n\n${body}`,
  })
  deps.jobs?.wake()
}
