// What an order's timeline tells the bot (called by recordOrderEvent in the event's transaction):
// the events that make news for a buyer or a staff chat become one 'telegram.order_event' job,
// committed with the event or rolled back with it. The job (./order-event-job.ts) decides, from
// the database as it is then, who is told what. Nothing is queued while the shop has no bot.
import { eq } from 'drizzle-orm'
import type { Db, Tx } from '../../db/client'
import { telegramAccountFollowers, telegramFollowers } from '../../db/schema'
import { enqueue } from '../../jobs/queue'

export const TELEGRAM_EVENT_JOB = 'telegram.order_event'
export const TELEGRAM_MAIL_JOB = 'telegram.staff_mail'

/** Set when an API with a bot is built (createApi): without one, no statement is spent here. */
let botConfigured = false
export function enableTelegramNews(on: boolean) {
  botConfigured = botConfigured || on
}

export type EventNews = 'paid' | 'waiting' | 'held' | 'done' | 'failed' | 'refunded' | 'staff_action'

/** The news an order event makes, or null (most events make none). */
export function newsOf(kind: string, data: Record<string, unknown>): EventNews | null {
  if (kind === 'status') {
    if (data.to === 'paid') return 'paid'
    if (data.to === 'done') return 'done'
    if (data.to === 'failed') return 'failed'
    return null
  }
  if (kind === 'fulfilment' && data.manual === true) return 'waiting'
  if (kind === 'attention' && Array.isArray(data.rules)) return 'held'
  if (kind === 'refund' && (data.status === 'done' || data.status === 'manual')) return 'refunded'
  if (kind === 'admin_action' && /^(delivery|review)\./.test(String(data.action ?? ''))) return 'staff_action'
  return null
}

export async function followOrderEvent(
  db: Db | Tx,
  orderId: string,
  kind: string,
  data: Record<string, unknown>,
): Promise<void> {
  if (!botConfigured) return
  const news = newsOf(kind, data)
  if (!news) return
  await enqueue(db, {
    kind: TELEGRAM_EVENT_JOB,
    payload: { orderId, news, ...(news === 'refunded' ? { method: data.method, status: data.status } : {}) },
    maxAttempts: 8,
  })
}

/** Mails that are a buyer's own (never forwarded to a staff member's Telegram). */
const BUYER_MAILS = new Set([
  'order_paid',
  'order_held',
  'order_done',
  'order_failed',
  'order_refunded',
  'order_lookup',
  'confirm_email',
  'password_reset',
  'password_changed',
  'social_bound',
  'data_request_confirm',
  'data_request_accepted',
])

/**
 * A staff mail (the overdue notices, the alert digest, and any staff mail added later) is also
 * said in the Telegram of its recipient when they linked one and chose it. Called by queueMail.
 */
export async function followStaffMail(
  db: Db | Tx,
  mail: { template: string; to: string; data: Record<string, unknown>; key: string },
): Promise<void> {
  if (!botConfigured || BUYER_MAILS.has(mail.template)) return
  await enqueue(db, {
    kind: TELEGRAM_MAIL_JOB,
    key: `tgmail:${mail.key}`,
    payload: { template: mail.template, to: mail.to, data: mail.data },
    maxAttempts: 5,
  })
}

/** Ends everything a chat follows (orders and accounts): /stop, or a chat that blocked the bot. */
export async function unfollowChat(db: Db | Tx, chatId: number): Promise<boolean> {
  const byOrder = await db.delete(telegramFollowers).where(eq(telegramFollowers.chatId, chatId)).returning()
  const byAccount = await db
    .delete(telegramAccountFollowers)
    .where(eq(telegramAccountFollowers.chatId, chatId))
    .returning()
  return byOrder.length + byAccount.length > 0
}
