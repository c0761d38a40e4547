// One update from Telegram (by webhook or long polling), handled once: its update_id is claimed
// first, so a repeated delivery or a replay changes nothing. Messages: /start with a link code,
// /stop, and the reason a staff member was asked for. Button presses: only from a Telegram account
// linked to a current staff role, only while the order is in the state the button was made for,
// and through the same services (roles, races, audit, answers) as the delivery desk.
import { and, eq, gt, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db } from '../../db/client'
import {
  orders,
  TELEGRAM_ALERTS,
  telegramAccountFollowers,
  telegramFollowers,
  telegramPrompts,
  telegramStaff,
  telegramUpdates,
} from '../../db/schema'
import { ApiError } from '../../lib/errors'
import { log } from '../../lib/log'
import { type StaffMember, staffMember } from '../admin/roles'
import { markDelivered, markNotDelivered, takeOrder } from '../delivery/desk'
import { fulfilOrder } from '../fulfilment'
import { fill } from '../mail/messages'
import { approveReview, rejectReview } from '../risk/review'
import { callBot, type TgCallbackQuery, type TgMessage, type TgUpdate } from './bot-api'
import { unfollowChat } from './follow'
import { boundTelegram, takeCode } from './linking'
import { queueTelegram } from './outbox'
import { orderNo, parseCallback, reviewStamp, T, waitingStamp } from './texts'

export type UpdateOutcome = 'handled' | 'repeat'

/** Handles an update once; a failure gives the claim back, so Telegram's next delivery is handled. */
export async function handleUpdate(deps: ApiDeps, update: TgUpdate): Promise<UpdateOutcome> {
  const claimed = await deps.db
    .insert(telegramUpdates)
    .values({ updateId: update.update_id })
    .onConflictDoNothing()
    .returning({ id: telegramUpdates.updateId })
  if (!claimed.length) return 'repeat'
  try {
    if (update.callback_query) await onCallback(deps, update.callback_query)
    else if (update.message?.text) await onMessage(deps, update.message)
  } catch (err) {
    await deps.db.delete(telegramUpdates).where(eq(telegramUpdates.updateId, update.update_id))
    throw err
  }
  deps.jobs?.wake()
  return 'handled'
}

const say = (db: Db, chatId: number, text: string) => queueTelegram(db, { op: 'text', chatId, text })

/** The staff member behind a Telegram account: linked, and still holding a role. */
async function staffOfTelegram(deps: ApiDeps, tgUserId: number): Promise<StaffMember | null> {
  const [link] = await deps.db.select().from(telegramStaff).where(eq(telegramStaff.tgUserId, tgUserId))
  if (!link) return null
  return staffMember(deps.db, link.userId, deps.config.adminEmails)
}

async function onMessage(deps: ApiDeps, m: TgMessage) {
  const { db } = deps
  const text = (m.text ?? '').trim()
  const chatId = m.chat.id
  const start = /^\/start(?:@\w+)?(?:\s+(\S+))?$/.exec(text)
  if (start) {
    if (!start[1]) return void (await say(db, chatId, T.start.hello))
    return startWithCode(deps, m, start[1])
  }
  if (/^\/stop(?:@\w+)?$/.test(text)) {
    const gone = await unfollowChat(db, chatId)
    await db.delete(telegramPrompts).where(eq(telegramPrompts.chatId, chatId))
    return void (await say(db, chatId, gone ? T.buyer.stopped : T.buyer.stopped_none))
  }
  if (m.from) await onReason(deps, m, text)
}

async function startWithCode(deps: ApiDeps, m: TgMessage, payload: string) {
  const { db } = deps
  const chatId = m.chat.id
  const code = await takeCode(db, payload)
  if (!code) return void (await say(db, chatId, T.start.code_invalid))
  if ((code.purpose === 'order' || code.purpose === 'account') && code.orderId) {
    const [o] = await db
      .select({ id: orders.id, number: orders.number })
      .from(orders)
      .where(eq(orders.id, code.orderId))
    const number = o ? orderNo(o) : ''
    // an account link counts only in the private chat of the Telegram account bound to the shop
    // account (its own sign-in); anywhere else it follows just the order it was asked from
    if (code.purpose === 'account' && code.userId !== null && m.from && m.chat.type === 'private') {
      const bound = await boundTelegram(db, code.userId)
      if (bound === String(m.from.id)) {
        await db
          .insert(telegramAccountFollowers)
          .values({ userId: code.userId, tgUserId: m.from.id, chatId })
          .onConflictDoUpdate({
            target: telegramAccountFollowers.userId,
            set: { tgUserId: m.from.id, chatId, created: sql`now()` },
          })
        return void (await say(db, chatId, fill(T.buyer.linked_account, { number })))
      }
    }
    await db.insert(telegramFollowers).values({ orderId: code.orderId, chatId }).onConflictDoNothing()
    return void (await say(db, chatId, fill(T.buyer.linked, { number })))
  }
  // a staff member's link: only a person's own chat with the bot, and only while staff
  const staff = code.userId === null ? null : await staffMember(db, code.userId, deps.config.adminEmails)
  if (!m.from || m.chat.type !== 'private' || !staff)
    return void (await say(db, chatId, T.start.code_invalid))
  const name = [m.from.first_name, m.from.last_name].filter(Boolean).join(' ') || m.from.username || ''
  await db.transaction(async (tx) => {
    // one Telegram account belongs to one staff member: linking it again moves it
    await tx.delete(telegramStaff).where(eq(telegramStaff.tgUserId, m.from!.id))
    await tx
      .insert(telegramStaff)
      .values({
        userId: staff.userId,
        tgUserId: m.from!.id,
        chatId,
        tgName: name,
        alerts: [...TELEGRAM_ALERTS],
      })
      .onConflictDoUpdate({
        target: telegramStaff.userId,
        set: { tgUserId: m.from!.id, chatId, tgName: name, linkedAt: sql`now()` },
      })
  })
  log.info({ userId: staff.userId }, 'telegram linked to a staff member')
  await say(db, chatId, fill(T.staff.linked, { email: staff.email }))
}

/** A reply to «Не выдано» / «Отклонить»: the reason, when the question is still open and theirs. */
async function onReason(deps: ApiDeps, m: TgMessage, reason: string) {
  const { db } = deps
  const [prompt] = await db
    .delete(telegramPrompts)
    .where(
      and(
        eq(telegramPrompts.chatId, m.chat.id),
        eq(telegramPrompts.tgUserId, m.from!.id),
        gt(telegramPrompts.expiresAt, sql`now()`),
      ),
    )
    .returning()
  if (!prompt) return
  const staff = await staffOfTelegram(deps, m.from!.id)
  if (!staff) return strangerTried(m.from!.id, prompt.action)
  if (reason.length < 3 || reason.length > 500) return void (await say(db, m.chat.id, T.staff.reason_short))
  if (!(await stampHolds(db, prompt.action === 'reject' ? 'rj' : 'nd', prompt.orderId, prompt.stamp)))
    return void (await say(db, m.chat.id, T.staff.stale))
  const out = await attempt(() =>
    prompt.action === 'reject'
      ? rejectReview(db, staff, prompt.orderId, reason)
      : markNotDelivered(db, staff, prompt.orderId, reason),
  )
  await say(db, m.chat.id, out)
}

/** Whether the order is still in the state a button (or a question it asked) was made for. */
async function stampHolds(db: Db, action: string, orderId: string, stamp: string) {
  if (action === 'ap' || action === 'rj') return (await reviewStamp(db, orderId)) === stamp
  const [o] = await db
    .select({ status: orders.status, awaitingSince: orders.awaitingSince })
    .from(orders)
    .where(eq(orders.id, orderId))
  return !!o && waitingStamp(o) === stamp
}

function strangerTried(tgUserId: number, action: string) {
  log.warn({ tgUserId, action }, 'telegram button pressed by someone who is not staff: nothing changed')
}

/** Runs a desk service; its refusal is the answer, as the desk page shows it. */
async function attempt(run: () => Promise<{ detail: string }>): Promise<string> {
  try {
    return (await run()).detail
  } catch (err) {
    if (err instanceof ApiError) return err.message
    throw err
  }
}

async function onCallback(deps: ApiDeps, q: TgCallbackQuery) {
  const { db } = deps
  const answer = (text: string) =>
    callBot(deps, 'answerCallbackQuery', { callback_query_id: q.id, text: text.slice(0, 200) }).catch((err) =>
      log.warn({ err: err instanceof Error ? err.message : String(err) }, 'telegram callback not answered'),
    )
  const press = parseCallback(q.data)
  if (!press) return void (await answer(''))
  const staff = await staffOfTelegram(deps, q.from.id)
  if (!staff) {
    strangerTried(q.from.id, press.action)
    return void (await answer(T.staff.no_access))
  }
  if (!(await stampHolds(db, press.action, press.orderId, press.stamp))) {
    await answer(T.staff.stale)
    // the message is written again as the order is now (its buttons gone or renewed)
    if (q.message)
      await queueTelegram(db, {
        op: 'staff_order',
        chatId: q.message.chat.id,
        orderId: press.orderId,
        purpose: press.action === 'ap' || press.action === 'rj' ? 'review' : 'waiting',
      })
    return
  }
  const chatId = q.message?.chat.id
  if (press.action === 'nd' || press.action === 'rj') {
    const [o] = await db
      .select({ id: orders.id, number: orders.number })
      .from(orders)
      .where(eq(orders.id, press.orderId))
    if (chatId === undefined || !o) return void (await answer(T.staff.stale))
    await queueTelegram(db, {
      op: 'text',
      chatId,
      text: fill(press.action === 'nd' ? T.staff.ask_not_delivered : T.staff.ask_reject, {
        number: orderNo(o),
      }),
      markup: { force_reply: true },
      prompt: {
        tgUserId: q.from.id,
        orderId: press.orderId,
        action: press.action === 'nd' ? 'not_delivered' : 'reject',
        stamp: press.stamp,
      },
    })
    return void (await answer(''))
  }
  const out = await attempt(async () => {
    if (press.action === 'tk') return takeOrder(db, staff, press.orderId)
    if (press.action === 'dl') return markDelivered(db, staff, press.orderId)
    const approved = await approveReview(db, staff, press.orderId)
    if (approved.changed) await fulfilOrder(deps, press.orderId)
    return approved
  })
  await answer(out)
}
