// The 'telegram.send' job: one message (or one edit) within Telegram's limits — about one message a
// second per chat and thirty a second in all. The limits are clocks in telegram_state shared by every
// instance: a send takes its chat's slot and the overall slot by compare-and-set, or comes back when
// the slot is free (not a failure). A 429 answer moves the chat's clock by its retry_after and the job
// comes back then; other failures are retried with the queue's backoff.
import { and, eq, sql } from 'drizzle-orm'
import type { ApiDeps } from '../../context'
import type { Db } from '../../db/client'
import { telegramMessages, telegramPrompts, telegramState } from '../../db/schema'
import type { JobHandler } from '../../jobs/worker'
import { log } from '../../lib/log'
import { callBot, TelegramError, type TgMessage } from './bot-api'
import { unfollowChat } from './follow'
import type { TelegramSend } from './outbox'
import { staffOrderView } from './texts'

/** Per chat: one message a second. Overall: thirty a second (a little under, to be safe). */
export const CHAT_GAP_MS = 1000
export const ALL_GAP_MS = 35
/** 429s a message may meet before it is given up (each waits its retry_after, so hours in all). */
const MAX_FLOOD_WAITS = 20
/** How long a reason question stays open. */
export const PROMPT_MINUTES = 15

/**
 * Takes the slot `key` (its clock moves `gapMs` on from now) when it is free; otherwise answers
 * when it will be. One statement, so two instances never take the same slot.
 */
async function takeSlot(db: Db, key: string, gapMs: number): Promise<Date | null> {
  const taken = await db
    .insert(telegramState)
    .values({ key, at: sql`now() + make_interval(secs => ${gapMs / 1000})` })
    .onConflictDoUpdate({
      target: telegramState.key,
      set: { at: sql`now() + make_interval(secs => ${gapMs / 1000})` },
      where: sql`${telegramState.at} is null or ${telegramState.at} <= now()`,
    })
    .returning({ key: telegramState.key })
  if (taken.length) return null
  const [row] = await db
    .select({ at: telegramState.at })
    .from(telegramState)
    .where(eq(telegramState.key, key))
  return row?.at ?? new Date()
}

/** Keeps a chat quiet until `until` (Telegram's retry_after). */
async function holdChat(db: Db, key: string, seconds: number) {
  await db
    .insert(telegramState)
    .values({ key, at: sql`now() + make_interval(secs => ${seconds})` })
    .onConflictDoUpdate({
      target: telegramState.key,
      set: { at: sql`greatest(${telegramState.at}, now() + make_interval(secs => ${seconds}))` },
    })
}

const isNotModified = (e: TelegramError) => e.code === 400 && /not modified/i.test(e.message)
const isGone = (e: TelegramError) =>
  e.code === 403 || (e.code === 400 && /chat not found|message to edit not found/i.test(e.message))

async function deliver(deps: ApiDeps, msg: TelegramSend) {
  const { db } = deps
  if (msg.op === 'text') {
    const sent = await callBot<TgMessage>(deps, 'sendMessage', {
      chat_id: msg.chatId,
      text: msg.text,
      link_preview_options: { is_disabled: true },
      ...(msg.markup ? { reply_markup: msg.markup } : {}),
    })
    if (msg.prompt)
      await db
        .insert(telegramPrompts)
        .values({
          chatId: msg.chatId,
          ...msg.prompt,
          expiresAt: sql`now() + make_interval(mins => ${PROMPT_MINUTES})`,
        })
        .onConflictDoUpdate({
          target: telegramPrompts.chatId,
          set: { ...msg.prompt, expiresAt: sql`now() + make_interval(mins => ${PROMPT_MINUTES})` },
        })
    return sent
  }
  const view = await staffOrderView(db, msg.orderId, msg.purpose, deps.config.publicUrl)
  if (!view) return
  const [known] = await db
    .select({ messageId: telegramMessages.messageId })
    .from(telegramMessages)
    .where(
      and(
        eq(telegramMessages.orderId, msg.orderId),
        eq(telegramMessages.chatId, msg.chatId),
        eq(telegramMessages.purpose, msg.purpose),
      ),
    )
  const params = {
    chat_id: msg.chatId,
    text: view.text,
    link_preview_options: { is_disabled: true },
    // an edit without a keyboard removes the buttons (the order no longer waits)
    reply_markup: view.markup ?? { inline_keyboard: [] },
  }
  if (known) return callBot(deps, 'editMessageText', { ...params, message_id: known.messageId })
  const sent = await callBot<TgMessage>(deps, 'sendMessage', params)
  await db
    .insert(telegramMessages)
    .values({ orderId: msg.orderId, chatId: msg.chatId, purpose: msg.purpose, messageId: sent.message_id })
    .onConflictDoNothing()
  return sent
}

export const telegramSendJob: JobHandler = async (job, deps) => {
  const msg = job.payload as unknown as TelegramSend & { floodWaits?: number }
  if (!deps.config.telegram) throw new Error('telegram message not sent: TELEGRAM_BOT_TOKEN is not set')
  const chatKey = `chat:${msg.chatId}`
  const wait = (await takeSlot(deps.db, chatKey, CHAT_GAP_MS)) ?? (await takeSlot(deps.db, 'all', ALL_GAP_MS))
  if (wait) return { again: wait }
  try {
    await deliver(deps, msg)
  } catch (err) {
    if (!(err instanceof TelegramError)) throw err
    if (err.code === 429 && err.retryAfter !== null) {
      const floodWaits = (msg.floodWaits ?? 0) + 1
      if (floodWaits > MAX_FLOOD_WAITS) throw err
      await holdChat(deps.db, chatKey, err.retryAfter)
      log.warn({ job: job.id, retryAfter: err.retryAfter }, 'telegram asked to slow down')
      return { again: new Date(Date.now() + err.retryAfter * 1000), payload: { ...msg, floodWaits } }
    }
    if (isNotModified(err)) return
    if (isGone(err)) {
      // the person blocked the bot or the chat is gone: a buyer's chat stops following
      await unfollowChat(deps.db, msg.chatId)
      log.info({ job: job.id, code: err.code }, 'telegram chat unreachable: message dropped')
      return
    }
    throw err
  }
}
