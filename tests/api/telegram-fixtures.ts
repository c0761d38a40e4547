// The Telegram tests' bench (issue 49): a real API whose bot talks to the local fake Bot API
// (tests/fakes/telegram-bot.ts), a job worker to run the bot's jobs, and the updates a person's
// Telegram would send (a text, a button press) posted to the webhook as Telegram posts them.
import { randomUUID } from 'node:crypto'
import { and, eq, inArray, like } from 'drizzle-orm'
import { expect } from 'vitest'
import type { ApiDeps } from '#api/context'
import { jobs, orders, payments } from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { settlePaymentSucceeded } from '#api/services/payments/settle'
import { FAKE_BOT_USERNAME, startFakeTelegram } from '#tests/fakes/telegram-bot'
import { createTestApi } from '#tests/helpers/test-api'

export type Err = { detail: string; code: string }
type Button = { text: string; callback_data: string }

export async function telegramBench(env: Record<string, string> = {}) {
  const fake = await startFakeTelegram()
  const api = await createTestApi({
    env: { ...fake.env, PUBLIC_URL: 'https://shop.example', SANDBOX_PAYMENTS: '0', ...env },
  })
  const deps: ApiDeps = api.deps
  const worker = createJobWorker(deps, { handlers: JOB_HANDLERS, onError: () => {} })
  deps.jobs = { wake() {} }
  let updateId = 1000

  const post = (update: Record<string, unknown>) =>
    api.call<{ ok: boolean; repeat: boolean } & Err>('POST', '/api/telegram/webhook/', {
      body: update,
      headers: { 'x-telegram-bot-api-secret-token': api.config.telegram!.webhookSecret },
    })
  /** A text from a person in their private chat with the bot (chat id = their user id). */
  const text = (from: number, body: string) => {
    const id = ++updateId
    return post({
      update_id: id,
      message: {
        message_id: id,
        date: 0,
        chat: { id: from, type: 'private' },
        from: { id: from, is_bot: false, first_name: `User ${from}` },
        text: body,
      },
    })
  }
  /** A press of an inline button, on the message it was under (when given). */
  const press = (from: number, data: string, msg?: { chatId: number; messageId: number }) => {
    const id = ++updateId
    return post({
      update_id: id,
      callback_query: {
        id: `cb${id}`,
        from: { id: from, is_bot: false, first_name: `User ${from}` },
        chat_instance: '1',
        data,
        ...(msg
          ? { message: { message_id: msg.messageId, date: 0, chat: { id: msg.chatId, type: 'private' } } }
          : {}),
      },
    })
  }

  /** Runs due jobs until no bot job is left, waiting for Telegram's per-chat pace when it must. */
  async function drain(maxMs = 30_000) {
    const until = Date.now() + maxMs
    for (;;) {
      await worker.runDue()
      const left = await api.db
        .select({ runAt: jobs.runAt })
        .from(jobs)
        .where(and(like(jobs.kind, 'telegram.%'), inArray(jobs.status, ['pending', 'running'])))
      if (!left.length) return
      if (Date.now() > until) throw new Error(`telegram jobs still pending: ${left.length}`)
      const next = Math.min(...left.map((l) => l.runAt.getTime()))
      await new Promise((r) => setTimeout(r, Math.max(50, Math.min(1500, next - Date.now() + 20))))
    }
  }

  const lastAnswer = () =>
    [...fake.calls].reverse().find((c) => c.method === 'answerCallbackQuery')?.body.text as string | undefined

  /** A staff member links Telegram account `tgId` from the back-office's one-time link. */
  async function linkStaff(user: { token: string }, tgId: number) {
    const r = await api.call<{ url: string } & Err>('POST', '/api/admin/telegram/link/', {
      token: user.token,
    })
    expect(r.status, r.body.detail).toBe(200)
    const m = new RegExp(`^https://t\\.me/${FAKE_BOT_USERNAME}\\?start=(s[A-Za-z0-9_-]{24})$`).exec(
      r.body.url,
    )
    expect(m).not.toBeNull()
    expect((await text(tgId, `/start ${m![1]}`)).status).toBe(200)
  }

  /** The payment provider says the order's payment succeeded (the settlement every provider uses). */
  async function payOrder(orderId: string) {
    const [o] = await api.db.select().from(orders).where(eq(orders.id, orderId))
    const paymentId = randomUUID()
    await api.db.insert(payments).values({
      id: paymentId,
      orderId,
      methodName: 'card',
      provider: 'payselection',
      amount: o!.totalToPay,
      currency: 'RUB',
    })
    const r = await settlePaymentSucceeded(deps, {
      paymentId,
      provider: 'payselection',
      eventKey: `test-${paymentId}`,
      amount: o!.totalToPay,
      currency: 'RUB',
    })
    expect(r.outcome).toBe('applied')
  }

  /** The bot's message about an order in a chat (as it is now, after its edits). */
  const orderMessage = (chatId: number, orderId: string, title = /./) =>
    fake
      .chat(chatId)
      .find(
        (m) =>
          (JSON.stringify(m.markup ?? '').includes(orderId) || m.text.includes(orderId)) &&
          title.test(m.text),
      )
  const buttonsOf = (m: { markup: unknown } | undefined): Button[] =>
    ((m?.markup as { inline_keyboard?: Button[][] })?.inline_keyboard ?? []).flat()
  const button = (m: { markup: unknown } | undefined, name: string) => {
    const b = buttonsOf(m).find((x) => x.text === name)
    expect(b, `button «${name}»`).toBeDefined()
    return b!.callback_data
  }
  /** Every text a chat got, oldest first. */
  const texts = (chatId: number) => fake.chat(chatId).map((m) => m.text)

  const close = async () => {
    await api.close()
    await fake.close()
  }

  return {
    fake,
    api,
    deps,
    worker,
    post,
    text,
    press,
    drain,
    lastAnswer,
    linkStaff,
    payOrder,
    orderMessage,
    buttonsOf,
    button,
    texts,
    close,
  }
}
export type TelegramBench = Awaited<ReturnType<typeof telegramBench>>
