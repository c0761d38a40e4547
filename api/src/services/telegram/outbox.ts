// The bot's outgoing messages go through the jobs table (the outbox rule): queued in the
// transaction of the change that causes them, sent by the 'telegram.send' job (./send-job.ts)
// within Telegram's limits, retried on 429 after its retry_after, kept across kill -9 and shared
// by every instance.
import type { Db, Tx } from '../../db/client'
import { enqueue } from '../../jobs/queue'
import type { ReplyMarkup } from './bot-api'

export const TELEGRAM_SEND_JOB = 'telegram.send'

export type TelegramSend =
  /** A text, written when queued (a buyer's news, a forwarded staff mail, a bot's answer). */
  | { op: 'text'; chatId: number; text: string; markup?: ReplyMarkup; prompt?: PromptNote }
  /**
   * A staff message about an order, written when sent from the order as it is then: sent the
   * first time, edited afterwards (telegram_messages remembers its message_id).
   */
  | { op: 'staff_order'; chatId: number; orderId: string; purpose: 'waiting' | 'review' }

/** A question whose reply is a reason (the prompt row is written when the question is sent). */
export interface PromptNote {
  tgUserId: number
  orderId: string
  action: 'not_delivered' | 'reject'
  stamp: string
}

export async function queueTelegram(db: Db | Tx, msg: TelegramSend, key?: string): Promise<boolean> {
  return enqueue(db, {
    kind: TELEGRAM_SEND_JOB,
    payload: { ...msg },
    key: key ? `tg:${key}` : undefined,
    maxAttempts: 8,
  })
}
