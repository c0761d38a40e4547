// The desk in Telegram, continued (issue 49), against the local fake Bot API: «Одобрить» and
// «Отклонить» on orders held for review call the desk's review services (same roles, audit entries
// and answers) and the message is edited for everyone who got it, while a stale button changes
// nothing; the staff mails (the warning before an automatic refund, the review hold past its time,
// an escalation, the shop's alert digest) reach a linked staff member's Telegram through the jobs
// table; a buyer signed in with Telegram links the account once and hears of every order of it
// until /stop.
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  auditLog,
  jobs,
  orderReviews,
  orders,
  socialAccounts,
  telegramAccountFollowers,
  telegramFollowers,
  telegramStaff,
} from '#api/db/schema'
import { message } from '#api/lib/errors'
import { grantRole, revokeRole } from '#api/services/admin/roles'
import { ALERT_CHECKS } from '#api/services/alerts/checks'
import { deleteAccount } from '#api/services/auth/delete-account'
import { runAlerts } from '#api/services/alerts/run'
import { ensureSettings, makeGame, makeProduct, makeUser } from './orders-fixtures'
import { type Err, type TelegramBench, telegramBench } from './telegram-fixtures'

let b: TelegramBench
let support: Awaited<ReturnType<typeof makeUser>>
let support2: Awaited<ReturnType<typeof makeUser>>
let owner: Awaited<ReturnType<typeof makeUser>>
let goldProduct: Awaited<ReturnType<typeof makeProduct>>
/** Telegram accounts (private chat id = user id) of the staff. */
const TG_A = 7101
const TG_B = 7102
const TG_OWNER = 7103

beforeAll(async () => {
  // a disposable mailbox holds an order for review (the other rules stay off)
  b = await telegramBench({ RISK_RULES: 'disposable_email' })
  await ensureSettings(b.api)
  support = await makeUser(b.api)
  support2 = await makeUser(b.api)
  owner = await makeUser(b.api)
  await grantRole(b.api.db, support.email, 'support', 'test')
  await grantRole(b.api.db, support2.email, 'support', 'test')
  await grantRole(b.api.db, owner.email, 'owner', 'test')
  const game = await makeGame(b.api, 'StandoffGame', { supplier: 'manual', deliveryMinutes: 20 })
  goldProduct = await makeProduct(b.api, game.id, 'StandoffProduct', { price: 10000, gold: 100 })
  await b.linkStaff(support, TG_A)
  await b.linkStaff(support2, TG_B)
  await b.linkStaff(owner, TG_OWNER)
  await b.drain()
})
afterAll(async () => {
  await b?.close()
})

async function standoffOrder(opts: { email?: string; token?: string } = {}) {
  const r = await b.api.call<{ id: string; number: number } & Err>('POST', '/api/orders/standoff/', {
    token: opts.token,
    body: {
      products: [{ quantity: 1, product_id: goldProduct.id }],
      email: opts.email ?? `tg-${randomUUID().slice(0, 6)}@example.com`,
      game_account_id: '51234567',
      surplus: '0.05',
    },
  })
  expect(r.status, r.body.detail).toBe(201)
  return r.body.id
}
const numberOf = async (id: string) =>
  (await b.api.db.select({ n: orders.number }).from(orders).where(eq(orders.id, id)))[0]!.n
/** A paid order held for review (a disposable mailbox trips the rule). */
async function heldOrder() {
  const id = await standoffOrder({ email: `tg-${randomUUID().slice(0, 6)}@mailinator.com` })
  await b.payOrder(id)
  await b.drain()
  return id
}
const review = async (id: string) =>
  (await b.api.db.select().from(orderReviews).where(eq(orderReviews.orderId, id)))[0]!
const auditsOf = async (id: string, action: string) =>
  b.api.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, id), eq(auditLog.action, action)))
const REVIEW = /на проверке/

describe('orders held for review: «Одобрить» / «Отклонить»', () => {
  it('a held order comes to every linked staff member with its rules and the two buttons', async () => {
    const id = await heldOrder()
    const n = await numberOf(id)
    for (const chat of [TG_A, TG_B, TG_OWNER]) {
      const m = b.orderMessage(chat, id, REVIEW)
      expect(m?.text).toContain(`⚠️ Заказ № ${n} на проверке`)
      expect(m?.text).toContain('Сработали правила: disposable_email')
      expect(m?.text).toMatch(/Почта покупателя: tg-.+@mailinator\.com/)
      expect(b.buttonsOf(m).map((x) => x.text)).toEqual(['Одобрить', 'Отклонить'])
    }
    expect((await b.api.db.select().from(orders).where(eq(orders.id, id)))[0]?.status).toBe('paid')
  })

  it('«Одобрить» approves through the desk’s service: its answer, its audit entry, delivery goes on, and the message is edited for everyone', async () => {
    const id = await heldOrder()
    const m = b.orderMessage(TG_A, id, REVIEW)
    const ap = b.button(m, 'Одобрить')
    expect((await b.press(TG_A, ap, { chatId: TG_A, messageId: m!.messageId })).status).toBe(200)
    // the desk's answer, word for word
    expect(b.lastAnswer()).toBe(message('review_approve_done'))
    expect(await review(id)).toMatchObject({ status: 'approved', decidedBy: support.id })
    const audits = await auditsOf(id, 'order.review_approve')
    expect(audits).toHaveLength(1)
    expect(audits[0]).toMatchObject({ actorEmail: support.email })
    // delivery went on as after the desk's «Одобрить»: a Standoff order now waits for a person
    const [o] = await b.api.db.select().from(orders).where(eq(orders.id, id))
    expect(o?.status).toBe('sent')
    await b.drain()
    for (const chat of [TG_A, TG_B, TG_OWNER]) {
      const edited = b.orderMessage(chat, id, REVIEW)!
      expect(edited.text).toContain(`✅ Одобрен — ${support.email}`)
      expect(b.buttonsOf(edited)).toHaveLength(0)
      expect(edited.edits).toBeGreaterThanOrEqual(1)
      // and the order, now waiting, comes as a delivery message with its own buttons
      expect(b.buttonsOf(b.orderMessage(chat, id, /ждёт выдачи/)).map((x) => x.text)).toEqual([
        'Взять',
        'Выдано',
        'Не выдано',
      ])
    }
  })

  it('«Отклонить» asks for the reason; the reply rejects through the desk’s service, audited, and edits the message for everyone', async () => {
    const id = await heldOrder()
    const m = b.orderMessage(TG_B, id, REVIEW)
    await b.press(TG_B, b.button(m, 'Отклонить'), { chatId: TG_B, messageId: m!.messageId })
    await b.drain()
    const n = await numberOf(id)
    const question = b.fake.chat(TG_B).find((x) => x.text.includes(`№ ${n} отклонён?`))
    expect(question?.text).toMatch(/^Почему заказ № \d+ отклонён\? Ответьте на это сообщение/)
    expect(question?.markup).toEqual({ force_reply: true })
    // nothing is decided before the reason comes
    expect((await review(id)).status).toBe('held')
    await b.text(TG_B, 'Карта из списка украденных')
    expect(await review(id)).toMatchObject({
      status: 'rejected',
      decidedBy: support2.id,
      reason: 'Карта из списка украденных',
    })
    const [o] = await b.api.db.select().from(orders).where(eq(orders.id, id))
    // the buyer sees the desk's neutral reason, never the staff's own
    expect(o).toMatchObject({ status: 'failed', rejectReason: message('review_reject_reason_neutral') })
    const audits = await auditsOf(id, 'order.review_reject')
    expect(audits).toHaveLength(1)
    expect(audits[0]).toMatchObject({ actorEmail: support2.email })
    await b.drain()
    expect(b.texts(TG_B).some((t) => t === message('review_reject_done'))).toBe(true)
    for (const chat of [TG_A, TG_B, TG_OWNER]) {
      const edited = b.orderMessage(chat, id, REVIEW)!
      expect(edited.text).toContain(`❌ Отклонён — ${support2.email}: Карта из списка украденных`)
      expect(b.buttonsOf(edited)).toHaveLength(0)
    }
  })

  it('a stale button changes nothing: an order the desk approved meanwhile, and «Отклонить» on one already approved', async () => {
    const id = await heldOrder()
    const m = b.orderMessage(TG_A, id, REVIEW)
    const ap = b.button(m, 'Одобрить')
    const rj = b.button(m, 'Отклонить')
    // the desk approves it first
    const desk = await b.api.call<{ changed: boolean } & Err>('POST', `/api/admin/orders/${id}/approve/`, {
      token: support2.token,
    })
    expect(desk.status, desk.body.detail).toBe(200)
    await b.press(TG_A, ap, { chatId: TG_A, messageId: m!.messageId })
    expect(b.lastAnswer()).toMatch(/Кнопка устарела/)
    await b.press(TG_A, rj, { chatId: TG_A, messageId: m!.messageId })
    expect(b.lastAnswer()).toMatch(/Кнопка устарела/)
    expect(await review(id)).toMatchObject({ status: 'approved', decidedBy: support2.id })
    expect(await auditsOf(id, 'order.review_approve')).toHaveLength(1)
    expect(await auditsOf(id, 'order.review_reject')).toHaveLength(0)
    await b.drain()
    // no reason was asked; the message shows how it ended instead of its buttons
    const n = await numberOf(id)
    expect(b.texts(TG_A).some((t) => t.includes(`№ ${n} отклонён?`))).toBe(false)
    const edited = b.orderMessage(TG_A, id, REVIEW)!
    expect(edited.text).toContain(`✅ Одобрен — ${support2.email}`)
    expect(b.buttonsOf(edited)).toHaveLength(0)
  })

  it('a reason that comes after the order was decided elsewhere changes nothing', async () => {
    const id = await heldOrder()
    const m = b.orderMessage(TG_B, id, REVIEW)
    await b.press(TG_B, b.button(m, 'Отклонить'), { chatId: TG_B, messageId: m!.messageId })
    await b.drain()
    const desk = await b.api.call<Err>('POST', `/api/admin/orders/${id}/approve/`, { token: support.token })
    expect(desk.status).toBe(200)
    const stale = () => b.texts(TG_B).filter((t) => /Кнопка устарела/.test(t)).length
    const before = stale()
    await b.text(TG_B, 'Слишком поздно')
    await b.drain()
    // the answer to the reply (the approval's own messages may come before or after it)
    expect(stale()).toBe(before + 1)
    expect((await review(id)).status).toBe('approved')
    expect(await auditsOf(id, 'order.review_reject')).toHaveLength(0)
  })

  it('a person whose staff role was taken away presses in vain (the role is checked at each press)', async () => {
    const id = await heldOrder()
    const m = b.orderMessage(TG_B, id, REVIEW)
    await revokeRole(b.api.db, support2.id, 'test')
    try {
      await b.press(TG_B, b.button(m, 'Одобрить'), { chatId: TG_B, messageId: m!.messageId })
      expect(b.lastAnswer()).toMatch(/только сотрудникам/)
      expect((await review(id)).status).toBe('held')
      expect(await auditsOf(id, 'order.review_approve')).toHaveLength(0)
    } finally {
      await grantRole(b.api.db, support2.email, 'support', 'test')
    }
  })
})

describe('staff mails in Telegram', () => {
  /** Makes a queued job of `kind` for the order due now and runs the queue. */
  async function runNow(kind: string, orderId: string) {
    const n = await b.api.db
      .update(jobs)
      .set({ runAt: sql`now()` })
      .where(and(eq(jobs.kind, kind), sql`${jobs.payload}->>'orderId' = ${orderId}`))
      .returning()
    expect(n, `a ${kind} job for the order`).toHaveLength(1)
    await b.drain()
  }
  const forwarded = (chat: number, subject: string) =>
    b.texts(chat).filter((t) => t.startsWith(`📨 ${subject}`))

  it('the warning before an automatic refund reaches every linked staff member who chose staff mails', async () => {
    // support2 chose not to get staff mails in Telegram
    await b.api.db
      .update(telegramStaff)
      .set({ alerts: ['waiting', 'review', 'alerts'] })
      .where(eq(telegramStaff.userId, support2.id))
    try {
      const id = await standoffOrder()
      await b.payOrder(id)
      await b.drain()
      const n = await numberOf(id)
      await runNow('delivery.refund_warning', id)
      const subject = `Заказ № ${n}: деньги вернутся сами через`
      expect(forwarded(TG_A, subject)).toHaveLength(1)
      expect(forwarded(TG_OWNER, subject)).toHaveLength(1)
      expect(forwarded(TG_B, subject)).toHaveLength(0)
      // the mail's text follows its subject (never a code: staff mails carry none)
      expect(forwarded(TG_A, subject)[0]).toMatch(/никто не взял в работу/)
      // through the jobs table: one staff_mail job per staff mail, each sent by a telegram.send job
      const mailJobs = await b.api.db
        .select()
        .from(jobs)
        .where(
          and(
            eq(jobs.kind, 'telegram.staff_mail'),
            sql`${jobs.payload}->>'template' = 'delivery_refund_warning'`,
            sql`${jobs.payload}->'data'->>'orderId' = ${id}`,
          ),
        )
      expect(mailJobs.length).toBeGreaterThanOrEqual(3)
      expect(mailJobs.every((j) => j.status === 'done')).toBe(true)
    } finally {
      await b.api.db
        .update(telegramStaff)
        .set({ alerts: ['waiting', 'review', 'staff_mail', 'alerts'] })
        .where(eq(telegramStaff.userId, support2.id))
    }
  })

  it('an order held for review past its time, and an escalation of a taken order to the owner', async () => {
    const held = await heldOrder()
    await runNow('review.overdue', held)
    const heldSubject = `Заказ № ${await numberOf(held)} ждёт проверки дольше 30 мин`
    for (const chat of [TG_A, TG_B, TG_OWNER]) expect(forwarded(chat, heldSubject)).toHaveLength(1)

    // a taken order whose refund deadline passed goes to the owner, not to support
    const id = await standoffOrder()
    await b.payOrder(id)
    await b.drain()
    const m = b.orderMessage(TG_A, id, /ждёт выдачи/)
    await b.press(TG_A, b.button(m, 'Взять'), { chatId: TG_A, messageId: m!.messageId })
    expect((await b.api.db.select().from(orders).where(eq(orders.id, id)))[0]?.takenBy).toBe(support.id)
    await runNow('delivery.auto_refund', id)
    const subject = `Заказ № ${await numberOf(id)} взят, но не выдан в срок`
    expect(forwarded(TG_OWNER, subject)).toHaveLength(1)
    expect(forwarded(TG_A, subject)).toHaveLength(0)
    expect(forwarded(TG_B, subject)).toHaveLength(0)
  })

  it('the shop’s alert digest reaches the owner who chose alerts', async () => {
    // a product with no codes left: the low-stock alert opens for the owners
    const pubg = await makeGame(b.api, 'PUBGGame')
    await makeProduct(b.api, pubg.id, 'PUBGProduct', { codes: 0 })
    const run = await runAlerts(
      b.deps,
      ALERT_CHECKS.filter((c) => c.source === 'low_stock'),
    )
    expect(run.mailed).toContain(owner.email.toLowerCase())
    await b.drain()
    expect(b.texts(TG_OWNER).some((t) => /^📨 .+: требует внимания \(\d+\)/.test(t))).toBe(true)
  })
})

describe('a buyer signed in with Telegram follows the whole account', () => {
  const BUYER_TG = 9401

  it('links the account once from an order’s «Следить в Telegram»: news of every order of it until /stop', async () => {
    const buyer = await makeUser(b.api)
    await b.api.db
      .insert(socialAccounts)
      .values({ userId: buyer.id, provider: 'telegram', providerUserId: String(BUYER_TG) })
    const first = await standoffOrder({ token: buyer.token, email: buyer.email })
    const link = await b.api.call<{ url: string } & Err>('POST', `/api/orders/${first}/telegram/`, {
      token: buyer.token,
    })
    expect(link.status, link.body.detail).toBe(200)
    const start = new URL(link.body.url).searchParams.get('start')!
    // an account link (a), not an order link (o)
    expect(start).toMatch(/^a[A-Za-z0-9_-]{24}$/)
    await b.text(BUYER_TG, `/start ${start}`)
    await b.drain()
    expect(b.texts(BUYER_TG).at(-1)).toBe(
      `Теперь я сообщу, как идут все заказы вашего аккаунта — заказ № ${await numberOf(first)} и следующие. Остановить — /stop.`,
    )
    expect(
      await b.api.db
        .select()
        .from(telegramAccountFollowers)
        .where(eq(telegramAccountFollowers.userId, buyer.id)),
    ).toMatchObject([{ tgUserId: BUYER_TG, chatId: BUYER_TG }])

    // this order and a later one nobody linked: both are told
    await b.payOrder(first)
    const second = await standoffOrder({ token: buyer.token, email: buyer.email })
    await b.payOrder(second)
    await b.drain()
    const told = b.texts(BUYER_TG).join('\n')
    for (const id of [first, second]) {
      const n = await numberOf(id)
      expect(told).toMatch(new RegExp(`Заказ № ${n} оплачен\\. https://shop\\.example/orders/${id}/pay`))
      expect(told).toMatch(new RegExp(`Заказ № ${n} оплачен и ждёт выдачи сотрудником — обычно до 20 мин`))
    }

    // the Telegram sign-in unbound: the account's news stop (the link counted only while it is bound)
    await b.api.db.delete(socialAccounts).where(eq(socialAccounts.userId, buyer.id))
    const third = await standoffOrder({ token: buyer.token, email: buyer.email })
    await b.payOrder(third)
    await b.drain()
    expect(b.texts(BUYER_TG).join('\n')).not.toContain(`№ ${await numberOf(third)}`)
    await b.api.db
      .insert(socialAccounts)
      .values({ userId: buyer.id, provider: 'telegram', providerUserId: String(BUYER_TG) })

    // /stop ends it: the next order is not told
    await b.text(BUYER_TG, '/stop')
    await b.drain()
    expect(b.texts(BUYER_TG).at(-1)).toMatch(/Больше не пишу/)
    expect(
      await b.api.db
        .select()
        .from(telegramAccountFollowers)
        .where(eq(telegramAccountFollowers.userId, buyer.id)),
    ).toHaveLength(0)
    const fourth = await standoffOrder({ token: buyer.token, email: buyer.email })
    await b.payOrder(fourth)
    await b.drain()
    expect(b.texts(BUYER_TG).join('\n')).not.toContain(`№ ${await numberOf(fourth)}`)
  })

  it('an account link used by another Telegram account follows only its order; without a Telegram sign-in the link is for the order', async () => {
    const buyer = await makeUser(b.api)
    await b.api.db
      .insert(socialAccounts)
      .values({ userId: buyer.id, provider: 'telegram', providerUserId: '9402' })
    const id = await standoffOrder({ token: buyer.token, email: buyer.email })
    const link = await b.api.call<{ url: string }>('POST', `/api/orders/${id}/telegram/`, {
      token: buyer.token,
    })
    const start = new URL(link.body.url).searchParams.get('start')!
    expect(start).toMatch(/^a/)
    // forwarded to someone else's Telegram
    const OTHER = 9499
    await b.text(OTHER, `/start ${start}`)
    await b.drain()
    expect(b.texts(OTHER).at(-1)).toMatch(/Теперь я сообщу, как идёт заказ № \d+\./)
    expect(
      await b.api.db
        .select()
        .from(telegramAccountFollowers)
        .where(eq(telegramAccountFollowers.userId, buyer.id)),
    ).toHaveLength(0)
    expect(
      await b.api.db.select().from(telegramFollowers).where(eq(telegramFollowers.chatId, OTHER)),
    ).toMatchObject([{ orderId: id }])

    // a buyer without a Telegram sign-in, and a guest: order links
    const plain = await makeUser(b.api)
    const own = await standoffOrder({ token: plain.token, email: plain.email })
    const r1 = await b.api.call<{ url: string }>('POST', `/api/orders/${own}/telegram/`, {
      token: plain.token,
    })
    expect(new URL(r1.body.url).searchParams.get('start')).toMatch(/^o/)
    const guest = await standoffOrder()
    const r2 = await b.api.call<{ url: string }>('POST', `/api/orders/${guest}/telegram/`)
    expect(new URL(r2.body.url).searchParams.get('start')).toMatch(/^o/)
  })

  it('deleting the account ends the account link', async () => {
    const TG = 9403
    const buyer = await makeUser(b.api)
    await b.api.db
      .insert(socialAccounts)
      .values({ userId: buyer.id, provider: 'telegram', providerUserId: String(TG) })
    const id = await standoffOrder({ token: buyer.token, email: buyer.email })
    const link = await b.api.call<{ url: string }>('POST', `/api/orders/${id}/telegram/`, {
      token: buyer.token,
    })
    await b.text(TG, `/start ${new URL(link.body.url).searchParams.get('start')}`)
    await b.drain()
    expect(b.texts(TG).at(-1)).toMatch(/все заказы вашего аккаунта/)
    await deleteAccount(b.api.db, buyer.id)
    expect(
      await b.api.db
        .select()
        .from(telegramAccountFollowers)
        .where(eq(telegramAccountFollowers.userId, buyer.id)),
    ).toHaveLength(0)
    // its order, still in the shop's books, is paid later: the chat is not told
    await b.payOrder(id)
    await b.drain()
    expect(b.texts(TG)).toHaveLength(1)
  })
})
