// The desk in Telegram (issue 49), against a local fake of the Bot API (tests/fakes/telegram-bot.ts):
// staff link their Telegram with a one-time deep link and get a waiting order's message with
// buttons; «Взять» then «Выдано» through callbacks deliver it with the desk's services and edit the
// message for everyone; two staff pressing «Взять» at once — one wins; a stranger's press, a
// replayed update and a stale button change nothing; a buyer follows an order and /stop ends it;
// 429 with retry_after holds the chat and the message comes later; long polling and the webhook.
import { randomUUID } from 'node:crypto'
import { and, desc, eq, inArray, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import {
  auditLog,
  jobs,
  orders,
  payments,
  telegramFollowers,
  telegramLinkCodes,
  telegramStaff,
} from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { settlePaymentSucceeded } from '#api/services/payments/settle'
import { callBot } from '#api/services/telegram/bot-api'
import { pollOnce, telegramSetupJob } from '#api/services/telegram/receive'
import {
  FAKE_BOT_TOKEN,
  FAKE_BOT_USERNAME,
  type FakeTelegram,
  startFakeTelegram,
} from '#tests/fakes/telegram-bot'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { ensureSettings, makeGame, makeProduct, type makeUser } from './orders-fixtures'

type Err = { detail: string; code: string }

let fake: FakeTelegram
let api: TestApi
let deps: ApiDeps
let worker: ReturnType<typeof createJobWorker>
let support: Awaited<ReturnType<typeof makeUser>>
let support2: Awaited<ReturnType<typeof makeUser>>
let goldProduct: Awaited<ReturnType<typeof makeProduct>>
let updateId = 1000
/** Telegram accounts (private chat id = user id) of the two staff members. */
const TG_A = 7001
const TG_B = 7002

beforeAll(async () => {
  fake = await startFakeTelegram()
  api = await createTestApi({
    env: { ...fake.env, PUBLIC_URL: 'https://shop.example', SANDBOX_PAYMENTS: '0' },
  })
  deps = api.deps
  worker = createJobWorker(deps, { handlers: JOB_HANDLERS, onError: () => {} })
  deps.jobs = { wake() {} }
  await ensureSettings(api)
  support = await makeStaff(api, 'support')
  support2 = await makeStaff(api, 'support')
  const game = await makeGame(api, 'StandoffGame', { supplier: 'manual', deliveryMinutes: 20 })
  goldProduct = await makeProduct(api, game.id, 'StandoffProduct', { price: 10000, gold: 100 })
})
afterAll(async () => {
  await api?.close()
  await fake?.close()
})

const secret = () => api.config.telegram!.webhookSecret
const post = (update: Record<string, unknown>, token: string | null = secret()) =>
  api.call<{ ok: boolean; repeat: boolean } & Err>('POST', '/api/telegram/webhook/', {
    body: update,
    headers: token === null ? {} : { 'x-telegram-bot-api-secret-token': token },
  })
const textUpdate = (from: number, text: string, id = ++updateId) => ({
  update_id: id,
  message: {
    message_id: id,
    date: 0,
    chat: { id: from, type: 'private' },
    from: { id: from, is_bot: false, first_name: `User ${from}` },
    text,
  },
})
const pressUpdate = (
  from: number,
  data: string,
  msg?: { chatId: number; messageId: number },
  id = ++updateId,
) => ({
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

/** Runs the bot's jobs until none is left, waiting for Telegram's per-chat pace when it must. */
async function drain(maxMs = 20_000) {
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

const lastAnswer = () => [...fake.calls].reverse().find((c) => c.method === 'answerCallbackQuery')?.body.text

async function linkStaff(user: { token: string }, tgId: number) {
  const r = await api.call<{ url: string } & Err>('POST', '/api/admin/telegram/link/', { token: user.token })
  expect(r.status, r.body.detail).toBe(200)
  const m = new RegExp(`^https://t\\.me/${FAKE_BOT_USERNAME}\\?start=(s[A-Za-z0-9_-]{24})$`).exec(r.body.url)
  expect(m).not.toBeNull()
  expect((await post(textUpdate(tgId, `/start ${m![1]}`))).status).toBe(200)
  return m![1]!
}

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

async function standoffOrder() {
  const r = await api.call<{ id: string } & Err>('POST', '/api/orders/standoff/', {
    body: {
      products: [{ quantity: 1, product_id: goldProduct.id }],
      email: `tg-${randomUUID().slice(0, 6)}@example.com`,
      game_account_id: '51234567',
      surplus: '0.05',
    },
  })
  expect(r.status, r.body.detail).toBe(201)
  return r.body.id
}

/** The bot's message about an order in a chat (its newest version). */
const orderMessage = (chatId: number, orderId: string) =>
  fake.chat(chatId).find((m) => JSON.stringify(m.markup ?? '').includes(orderId) || m.text.includes(orderId))
const buttonsOf = (m: { markup: unknown } | undefined) =>
  (
    (m?.markup as { inline_keyboard?: Array<Array<{ text: string; callback_data: string }>> })
      ?.inline_keyboard ?? []
  ).flat()
const statusOf = async (id: string) =>
  (
    await api.db
      .select({ status: orders.status, takenBy: orders.takenBy })
      .from(orders)
      .where(eq(orders.id, id))
  )[0]!

describe('the webhook', () => {
  it('refuses an update without the secret token or with a wrong one, and handles nothing', async () => {
    const u = textUpdate(TG_A, '/start')
    expect((await post(u, null)).status).toBe(403)
    const wrong = await post(u, `${secret()}x`)
    expect(wrong.status).toBe(403)
    expect(wrong.body.detail).toBe('Неверный секретный токен')
    await drain()
    expect(fake.chat(TG_A)).toHaveLength(0)
    // the right one: handled (the greeting)
    expect((await post(u)).body).toEqual({ ok: true, repeat: false })
    await drain()
    expect(fake.chat(TG_A).at(-1)?.text).toMatch(/бот магазина/)
  })

  it('is set with setWebhook and its secret_token (the daily setup job); polling mode deletes it', async () => {
    await telegramSetupJob({} as never, deps)
    expect(fake.webhook).toEqual({
      url: 'https://shop.example/api/telegram/webhook/',
      secret_token: secret(),
    })
    const polling = {
      ...deps,
      config: { ...deps.config, telegram: { ...deps.config.telegram!, mode: 'polling' as const } },
    }
    await telegramSetupJob({} as never, polling)
    expect(fake.webhook).toBeNull()
  })
})

describe('staff in Telegram', () => {
  it('a staff member links Telegram with a one-time deep link; the code works once', async () => {
    const code = await linkStaff(support, TG_A)
    await linkStaff(support2, TG_B)
    await drain()
    expect(fake.chat(TG_A).at(-1)?.text).toContain(support.email)
    const [row] = await api.db.select().from(telegramStaff).where(eq(telegramStaff.userId, support.id))
    expect(row).toMatchObject({ tgUserId: TG_A, chatId: TG_A })
    // the same code again, from another account: refused, nothing linked
    await post(textUpdate(7999, `/start ${code}`))
    await drain()
    expect(fake.chat(7999).at(-1)?.text).toMatch(/недействительна/)
    expect(await api.db.select().from(telegramStaff).where(eq(telegramStaff.tgUserId, 7999))).toHaveLength(0)
    // the back-office shows the link (and never the token)
    const status = await api.call<{ configured: boolean; me: { alerts: string[] } | null }>(
      'GET',
      '/api/admin/telegram/',
      {
        token: support.token,
      },
    )
    expect(status.body).toMatchObject({
      configured: true,
      me: { alerts: ['waiting', 'review', 'staff_mail', 'alerts'] },
    })
    expect(JSON.stringify(status.body)).not.toContain(FAKE_BOT_TOKEN)
  })

  it('an expired code links nothing; codes are rate-limited per staff member', async () => {
    const r = await api.call<{ url: string }>('POST', '/api/admin/telegram/link/', { token: support2.token })
    const start = new URL(r.body.url).searchParams.get('start')!
    await api.db.update(telegramLinkCodes).set({ expiresAt: new Date(Date.now() - 1000) })
    await post(textUpdate(7998, `/start ${start}`))
    expect(await api.db.select().from(telegramStaff).where(eq(telegramStaff.tgUserId, 7998))).toHaveLength(0)
    // support2 made 2 links so far (5 an hour)
    for (let i = 0; i < 3; i++)
      expect((await api.call('POST', '/api/admin/telegram/link/', { token: support2.token })).status).toBe(
        200,
      )
    const over = await api.call<Err>('POST', '/api/admin/telegram/link/', { token: support2.token })
    expect(over.status).toBe(429)
  })

  it('a waiting order comes with its facts and buttons; «Взять» then «Выдано» deliver it and edit the message for both', async () => {
    const id = await standoffOrder()
    await payOrder(id)
    await drain()
    const a = orderMessage(TG_A, id)
    const b = orderMessage(TG_B, id)
    for (const m of [a, b]) {
      expect(m?.text).toMatch(/ждёт выдачи/)
      expect(m?.text).toMatch(/Игра: Test StandoffGame/)
      expect(m?.text).toMatch(/Сумма: /)
      expect(m?.text).toContain('ID игрока: 51234567')
      // a Russian number, as on the desk («105,27 G», issue 50)
      expect(m?.text).toMatch(/Цена выставления: 105,\d\d G/)
      expect(m?.text).toMatch(/Ждёт: \d+ мин \(обещано до 20 мин\)/)
      expect(buttonsOf(m).map((x) => x.text)).toEqual(['Взять', 'Выдано', 'Не выдано'])
    }
    const take = buttonsOf(a).find((x) => x.text === 'Взять')!.callback_data
    expect((await post(pressUpdate(TG_A, take, { chatId: TG_A, messageId: a!.messageId }))).status).toBe(200)
    expect(lastAnswer()).toBe('Заказ взят в работу')
    expect((await statusOf(id)).takenBy).toBe(support.id)
    await drain()
    expect(orderMessage(TG_B, id)?.text).toContain(`Взял: ${support.email}`)
    const done = buttonsOf(a).find((x) => x.text === 'Выдано')!.callback_data
    await post(pressUpdate(TG_A, done, { chatId: TG_A, messageId: a!.messageId }))
    expect((await statusOf(id)).status).toBe('done')
    await drain()
    for (const chat of [TG_A, TG_B]) {
      const m = orderMessage(chat, id)!
      expect(m.text).toContain(`✅ Выдано — ${support.email}`)
      expect(buttonsOf(m)).toHaveLength(0)
      expect(m.edits).toBeGreaterThanOrEqual(2)
    }
    // the desk's audit entries, made by the same services
    const audits = await api.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entityId, id))
    expect(audits.map((x) => x.action).sort()).toEqual(['order.delivery_delivered', 'order.delivery_take'])
  })

  it('two staff pressing «Взять» at once: one takes it, the other is told who has it', async () => {
    const id = await standoffOrder()
    await payOrder(id)
    await drain()
    const take = buttonsOf(orderMessage(TG_A, id)).find((x) => x.text === 'Взять')!.callback_data
    const [ra, rb] = await Promise.all([post(pressUpdate(TG_A, take)), post(pressUpdate(TG_B, take))])
    expect([ra.status, rb.status]).toEqual([200, 200])
    const answers = fake.calls
      .filter((c) => c.method === 'answerCallbackQuery')
      .slice(-2)
      .map((c) => String(c.body.text))
    expect(answers.filter((t) => t === 'Заказ взят в работу')).toHaveLength(1)
    expect(answers.filter((t) => /взял|работе/i.test(t) && t !== 'Заказ взят в работу')).toHaveLength(1)
    const { takenBy } = await statusOf(id)
    expect([support.id, support2.id]).toContain(takenBy)
    const takes = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'order.delivery_take')))
    expect(takes).toHaveLength(1)
  })

  it('a stranger’s press, a replayed update and a stale button change nothing', async () => {
    const id = await standoffOrder()
    await payOrder(id)
    await drain()
    const take = buttonsOf(orderMessage(TG_A, id)).find((x) => x.text === 'Взять')!.callback_data
    // a Telegram account linked to no staff role
    await post(pressUpdate(5555, take))
    expect(lastAnswer()).toMatch(/только сотрудникам/)
    expect((await statusOf(id)).takenBy).toBeNull()
    // the same update delivered twice: handled once
    const u = pressUpdate(TG_A, take)
    expect((await post(u)).body.repeat).toBe(false)
    const again = await post(u)
    expect(again.body).toEqual({ ok: true, repeat: true })
    const takes = await api.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'order.delivery_take')))
    expect(takes).toHaveLength(1)
    // a button made for another waiting period (the order waited again since): stale
    const stale = take.replace(/:[0-9a-z]+$/, ':abc123')
    await post(pressUpdate(TG_A, stale.replace(/^tk/, 'dl')))
    expect(lastAnswer()).toMatch(/устарела/)
    expect((await statusOf(id)).status).toBe('sent')
  })

  it('«Не выдано» asks for the reason; the reply fails the order with it', async () => {
    const id = await standoffOrder()
    await payOrder(id)
    await drain()
    const nd = buttonsOf(orderMessage(TG_B, id)).find((x) => x.text === 'Не выдано')!.callback_data
    await post(pressUpdate(TG_B, nd, { chatId: TG_B, messageId: orderMessage(TG_B, id)!.messageId }))
    await drain()
    expect(fake.chat(TG_B).at(-1)?.text).toMatch(/Почему заказ .* не выдан/)
    expect(fake.chat(TG_B).at(-1)?.markup).toEqual({ force_reply: true })
    await post(textUpdate(TG_B, 'Аккаунт игрока не найден'))
    const [o] = await api.db.select().from(orders).where(eq(orders.id, id))
    expect(o).toMatchObject({ status: 'failed', rejectReason: 'Аккаунт игрока не найден' })
    await drain()
    expect(orderMessage(TG_A, id)?.text).toContain(
      `❌ Не выдано — ${support2.email}: Аккаунт игрока не найден`,
    )
  })

  it('the owner chooses which alerts go to whom: without «waiting» no order message comes', async () => {
    const owner = await makeStaff(api, 'owner')
    const put = await api.call<{ alerts: string[] }>('PUT', `/api/admin/telegram/staff/${support2.id}/`, {
      token: owner.token,
      body: { alerts: ['alerts'] },
    })
    expect(put.status).toBe(200)
    expect(put.body.alerts).toEqual(['alerts'])
    // support may not choose
    const denied = await api.call('PUT', `/api/admin/telegram/staff/${support.id}/`, {
      token: support.token,
      body: { alerts: [] },
    })
    expect(denied.status).toBe(403)
    const id = await standoffOrder()
    await payOrder(id)
    await drain()
    expect(orderMessage(TG_A, id)).toBeDefined()
    expect(orderMessage(TG_B, id)).toBeUndefined()
  })
})

describe('buyers in Telegram', () => {
  it('a buyer follows an order: paid, waiting with the usual time, delivered (no codes), and /stop', async () => {
    const id = await standoffOrder()
    const link = await api.call<{ url: string } & Err>('POST', `/api/orders/${id}/telegram/`)
    expect(link.status, link.body.detail).toBe(200)
    const start = new URL(link.body.url).searchParams.get('start')!
    expect(start).toMatch(/^o[A-Za-z0-9_-]{24}$/)
    const BUYER = 9101
    await post(textUpdate(BUYER, `/start ${start}`))
    await drain()
    expect(fake.chat(BUYER).at(-1)?.text).toMatch(/сообщу, как идёт заказ/)
    await payOrder(id)
    await drain()
    const texts = fake.chat(BUYER).map((m) => m.text)
    expect(texts.some((t) => /оплачен\. https:\/\/shop\.example\/orders\/.+\/pay/.test(t))).toBe(true)
    expect(texts.some((t) => /ждёт выдачи сотрудником — обычно до 20 мин/.test(t))).toBe(true)
    const take = buttonsOf(orderMessage(TG_A, id)).find((x) => x.text === 'Выдано')!.callback_data
    await post(pressUpdate(TG_A, take))
    await drain()
    expect(fake.chat(BUYER).at(-1)?.text).toMatch(/выполнен\. Коды и подробности — только на странице заказа/)
    await post(textUpdate(BUYER, '/stop'))
    await drain()
    expect(fake.chat(BUYER).at(-1)?.text).toMatch(/Больше не пишу/)
    expect(
      await api.db.select().from(telegramFollowers).where(eq(telegramFollowers.chatId, BUYER)),
    ).toHaveLength(0)
  })

  it('a failed order says why and the refund says how much and how', async () => {
    const id = await standoffOrder()
    const link = await api.call<{ url: string }>('POST', `/api/orders/${id}/telegram/`)
    const BUYER = 9102
    await post(textUpdate(BUYER, `/start ${new URL(link.body.url).searchParams.get('start')}`))
    await payOrder(id)
    await drain()
    const nd = buttonsOf(orderMessage(TG_A, id)).find((x) => x.text === 'Не выдано')!.callback_data
    await post(pressUpdate(TG_A, nd, { chatId: TG_A, messageId: orderMessage(TG_A, id)!.messageId }))
    await drain()
    await post(textUpdate(TG_A, 'Нет такого игрока'))
    await worker.runDue()
    await drain()
    const texts = fake.chat(BUYER).map((m) => m.text)
    expect(texts).toContainEqual(expect.stringMatching(/не выполнен: Нет такого игрока/))
    expect(texts).toContainEqual(expect.stringMatching(/возвра[\s\S]*₽|₽[\s\S]*возвра/))
  })

  it('an unknown order or a malformed id gets a clear error', async () => {
    expect((await api.call<Err>('POST', `/api/orders/${randomUUID()}/telegram/`)).status).toBe(404)
    expect((await api.call<Err>('POST', '/api/orders/nope/telegram/')).status).toBe(400)
  })
})

describe('Telegram’s limits and errors', () => {
  it('a 429 holds the chat for retry_after and the message comes after it', async () => {
    fake.flood = { count: 1, retryAfter: 2 }
    const CHAT = 9201
    const started = Date.now()
    await post(textUpdate(CHAT, '/start'))
    await drain()
    const sends = fake.calls.filter((c) => c.method === 'sendMessage' && Number(c.body.chat_id) === CHAT)
    expect(sends.map((s) => s.status)).toEqual([429, 200])
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000)
    expect(fake.chat(CHAT)).toHaveLength(1)
    // the wait came back when Telegram said, and was not counted as a failed attempt
    expect(sends[1]!.at - sends[0]!.at).toBeGreaterThanOrEqual(1900)
    const [job] = await api.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'telegram.send'), eq(jobs.status, 'done')))
      .orderBy(desc(jobs.id))
      .limit(1)
    expect(job?.attempts).toBe(1)
  })

  it('a chat gets at most one message a second', async () => {
    const CHAT = 9202
    for (let i = 0; i < 3; i++) await post(textUpdate(CHAT, '/start'))
    await drain()
    const times = fake.calls
      .filter((c) => c.method === 'sendMessage' && Number(c.body.chat_id) === CHAT && c.status === 200)
      .map((c) => c.at)
    expect(times).toHaveLength(3)
    // a second apart, not three at once: each message takes its slot a second after the last at
    // the database's clock (shared by every instance); the call then leaves with its own latency,
    // which on a loaded machine brought one arrival 747 ms after the last, hence the margin (three
    // at once would arrive under 50 ms apart)
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(600)
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(600)
    expect(times[2]! - times[0]!).toBeGreaterThanOrEqual(1600)
  })

  it('the token never appears in an error', async () => {
    const broken = {
      ...deps,
      config: { ...deps.config, telegram: { ...deps.config.telegram!, apiUrl: 'http://127.0.0.1:9' } },
    }
    const err = await callBot(broken, 'getMe', {}).catch((e: Error) => e)
    expect(String((err as Error).message)).not.toContain(FAKE_BOT_TOKEN)
    const wrong = {
      ...deps,
      config: { ...deps.config, telegram: { ...deps.config.telegram!, token: `${FAKE_BOT_TOKEN}x` } },
    }
    const refused = await callBot(wrong, 'getMe', {}).catch((e: Error) => e)
    expect((refused as Error).message).toMatch(/401 Unauthorized/)
    expect((refused as Error).message).not.toContain(FAKE_BOT_TOKEN)
  })
})

describe('long polling', () => {
  it('getUpdates handles each update once and keeps the offset in the database', async () => {
    const polling = {
      ...deps,
      config: { ...deps.config, telegram: { ...deps.config.telegram!, mode: 'polling' as const } },
    }
    const CHAT = 9301
    fake.webhook = null
    const u = textUpdate(CHAT, '/start', 50_000)
    fake.push(u)
    expect(await pollOnce(polling, 1)).toBe(1)
    // confirmed: the next poll asks from update_id + 1 and gets nothing; a replay is not handled again
    expect(await pollOnce(polling, 1)).toBe(0)
    const gets = fake.calls.filter((c) => c.method === 'getUpdates')
    expect(gets.at(-1)?.body.offset).toBe(50_001)
    expect((await post(u)).body.repeat).toBe(true)
    await drain()
    expect(fake.chat(CHAT)).toHaveLength(1)
  })
})
