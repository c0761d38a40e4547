// A local stand-in for the Telegram Bot API, written from its documentation
// (https://core.telegram.org/bots/api): POST /bot<token>/<method> with a JSON body, answered
// {ok: true, result} or {ok: false, error_code, description, parameters?}. It keeps each chat's
// messages (sendMessage numbers them, editMessageText changes them and refuses an edit that changes
// nothing with "message is not modified"), checks what Telegram checks (a known token, text of 1 to
// 4096 characters, callback_data of 1 to 64 bytes), answers 429 with parameters.retry_after when a
// test asks for it, 403 for a chat that blocked the bot, and serves getUpdates (offset, long-poll
// timeout) from updates a test queues. setWebhook / deleteWebhook / getMe as documented.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export const FAKE_BOT_TOKEN = '424242:fake-bot-token-for-tests'
export const FAKE_BOT_USERNAME = 'igromarket_test_bot'

export interface FakeMessage {
  chatId: number
  messageId: number
  text: string
  markup: unknown
  edits: number
}

export interface FakeTelegram {
  url: string
  env: Record<string, string>
  /** Every call: method and body, in order. */
  calls: Array<{ method: string; body: Record<string, unknown>; status: number; at: number }>
  /** Messages by chat, as they are now. */
  messages: FakeMessage[]
  /** The next `count` sendMessage / editMessageText calls answer 429 with this retry_after. */
  flood: { count: number; retryAfter: number }
  /** Chats that blocked the bot (403). */
  blocked: Set<number>
  webhook: { url: string; secret_token?: string } | null
  /** Updates getUpdates hands out (a test pushes them). */
  pending: Array<Record<string, unknown>>
  push(update: Record<string, unknown>): void
  chat(chatId: number): FakeMessage[]
  close(): Promise<void>
}

export async function startFakeTelegram(token = FAKE_BOT_TOKEN, listenPort = 0): Promise<FakeTelegram> {
  let nextMessage = 100
  /** Update ids handed out by the test door: growing, and above any earlier run's. */
  let nextUpdate = Date.now()
  let waiter: (() => void) | null = null
  const fake: FakeTelegram = {
    url: '',
    env: {},
    calls: [],
    messages: [],
    flood: { count: 0, retryAfter: 3 },
    blocked: new Set(),
    webhook: null,
    pending: [],
    push(update) {
      fake.pending.push(update)
      waiter?.()
    },
    chat: (chatId) => fake.messages.filter((m) => m.chatId === chatId),
    close: async () => {},
  }
  const fail = (code: number, description: string, parameters?: Record<string, unknown>) => ({
    status: code,
    json: { ok: false, error_code: code, description, ...(parameters ? { parameters } : {}) },
  })
  const ok = (result: unknown) => ({ status: 200, json: { ok: true, result } })

  function checkText(body: Record<string, unknown>) {
    const text = body.text
    if (typeof text !== 'string' || text.length === 0) return fail(400, 'Bad Request: message text is empty')
    if (text.length > 4096) return fail(400, 'Bad Request: message is too long')
    const markup = body.reply_markup as
      | { inline_keyboard?: Array<Array<{ callback_data?: string }>> }
      | undefined
    for (const row of markup?.inline_keyboard ?? [])
      for (const b of row) {
        const size = Buffer.byteLength(b.callback_data ?? '')
        if (size < 1 || size > 64) return fail(400, 'Bad Request: BUTTON_DATA_INVALID')
      }
    return null
  }

  async function answer(method: string, body: Record<string, unknown>) {
    if ((method === 'sendMessage' || method === 'editMessageText') && fake.flood.count > 0) {
      fake.flood.count--
      return fail(429, `Too Many Requests: retry after ${fake.flood.retryAfter}`, {
        retry_after: fake.flood.retryAfter,
      })
    }
    switch (method) {
      case 'getMe':
        return ok({ id: 424242, is_bot: true, first_name: 'ИгроМаркет', username: FAKE_BOT_USERNAME })
      case 'sendMessage': {
        const chatId = Number(body.chat_id)
        if (fake.blocked.has(chatId)) return fail(403, 'Forbidden: bot was blocked by the user')
        const bad = checkText(body)
        if (bad) return bad
        const m: FakeMessage = {
          chatId,
          messageId: nextMessage++,
          text: String(body.text),
          markup: body.reply_markup ?? null,
          edits: 0,
        }
        fake.messages.push(m)
        return ok({ message_id: m.messageId, chat: { id: chatId, type: 'private' }, date: 0, text: m.text })
      }
      case 'editMessageText': {
        const chatId = Number(body.chat_id)
        const m = fake.messages.find((x) => x.chatId === chatId && x.messageId === Number(body.message_id))
        if (!m) return fail(400, 'Bad Request: message to edit not found')
        const bad = checkText(body)
        if (bad) return bad
        const markup = body.reply_markup ?? null
        if (m.text === body.text && JSON.stringify(m.markup) === JSON.stringify(markup))
          return fail(
            400,
            'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
          )
        m.text = String(body.text)
        m.markup = markup
        m.edits++
        return ok({ message_id: m.messageId, chat: { id: chatId, type: 'private' }, date: 0, text: m.text })
      }
      case 'answerCallbackQuery':
        if (typeof body.callback_query_id !== 'string') return fail(400, 'Bad Request: query is too old')
        return ok(true)
      case 'setWebhook': {
        const secret = body.secret_token as string | undefined
        if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
          return fail(400, 'Bad Request: secret token contains unallowed characters')
        if (typeof body.url !== 'string' || !body.url.startsWith('https://'))
          return fail(400, 'Bad Request: bad webhook: An HTTPS URL must be provided for webhook')
        fake.webhook = { url: body.url, secret_token: secret }
        return ok(true)
      }
      case 'deleteWebhook':
        fake.webhook = null
        return ok(true)
      case 'getUpdates': {
        if (fake.webhook)
          return fail(
            409,
            "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
          )
        const offset = Number(body.offset ?? 0)
        // confirming: updates below the offset are forgotten
        fake.pending = fake.pending.filter((u) => Number(u.update_id) >= offset)
        if (!fake.pending.length && Number(body.timeout ?? 0) > 0)
          await new Promise<void>((resolve) => {
            const t = setTimeout(resolve, Math.min(Number(body.timeout), 5) * 1000)
            waiter = () => {
              clearTimeout(t)
              resolve()
            }
          })
        waiter = null
        return ok(fake.pending.slice(0, 100))
      }
      default:
        return fail(404, 'Not Found: method not found')
    }
  }

  const server: Server = createServer((req, res) => {
    let raw = ''
    req.on('data', (d) => {
      raw += d
    })
    req.on('end', async () => {
      // a test's door (the e2e suite drives the fake from another process): health, what a chat
      // got, and an update for getUpdates
      if (req.url === '/health' || req.url?.startsWith('/_test/')) {
        res.setHeader('content-type', 'application/json')
        const chat = /^\/_test\/messages\?chat=(-?\d+)$/.exec(req.url)
        if (chat) return res.end(JSON.stringify(fake.chat(Number(chat[1]))))
        // as Telegram does, the fake numbers the update (ids only grow: getUpdates' offset relies on it)
        if (req.url === '/_test/push' && req.method === 'POST')
          fake.push({ ...JSON.parse(raw || '{}'), update_id: nextUpdate++ })
        return res.end('{"ok":true}')
      }
      const m = /^\/bot([^/]+)\/(\w+)$/.exec(req.url ?? '')
      let body: Record<string, unknown> = {}
      try {
        body = raw ? JSON.parse(raw) : {}
      } catch {}
      const out = !m || m[1] !== token ? fail(401, 'Unauthorized') : await answer(m[2]!, body)
      fake.calls.push({ method: m?.[2] ?? '?', body, status: out.status, at: Date.now() })
      res.statusCode = out.status
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(out.json))
    })
  })
  await new Promise<void>((r) => server.listen(listenPort, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  fake.url = `http://127.0.0.1:${port}`
  fake.env = { TELEGRAM_BOT_TOKEN: token, TELEGRAM_API_URL: fake.url }
  fake.close = () =>
    new Promise<void>((r) => {
      waiter?.()
      server.close(() => r())
      server.closeAllConnections()
    })
  return fake
}

// Run alone (the e2e suite): `node --import tsx tests/fakes/telegram-bot.ts` (FAKE_TELEGRAM_PORT).
if (process.argv[1]?.endsWith('telegram-bot.ts')) {
  const fake = await startFakeTelegram(FAKE_BOT_TOKEN, Number(process.env.FAKE_TELEGRAM_PORT ?? 3297))
  console.log(`fake Telegram Bot API at ${fake.url}`)
}
