// Order mails through a real SMTP server started here: one mail per paid order with its codes,
// once whatever the workers, outages and restarts; failed orders; every template's rendering.
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { gifts, jobs, mailLog, orders, voucherCodes } from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { claimJobs } from '#api/jobs/queue'
import { createJobWorker } from '#api/jobs/worker'
import { transitionOrder } from '#api/services/orders/state-machine'
import { MAIL_JOB, queueMail } from '#api/services/mail/outbox'
import { renderMail } from '#api/services/mail/render'
import { closeMailTransport, sendMailJob } from '#api/services/mail/send-job'
import { messageIdFor } from '#api/services/mail/transport'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { startTestSmtp, type TestSmtp } from '#tests/helpers/smtp'
import {
  createPubgOrder,
  hex,
  makePubgStock,
  makeSandboxMethod,
  orderRow,
  pay,
  pressOnCheckout,
} from './payments-fixtures'

let api: TestApi
let smtp: TestSmtp
let deps: ApiDeps
let method: string

beforeAll(async () => {
  smtp = await startTestSmtp()
  api = await createTestApi({
    env: {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'ИгроМаркет <shop@example.com>',
      PUBLIC_URL: 'https://shop.example',
    },
  })
  deps = api.deps
  method = (await makeSandboxMethod(api, 'redirect')).method.name
})
afterAll(async () => {
  closeMailTransport(api.config.mail)
  await api?.close()
  await smtp?.stop()
})
beforeEach(async () => {
  // every test starts with an empty queue and mailbox, the server up and accepting
  await api.db.delete(jobs)
  smtp.received.length = 0
  smtp.mode = 'accept'
  await smtp.start()
})

const worker = () => createJobWorker(deps, { handlers: JOB_HANDLERS, onError: () => {} })
const mailJobs = () => api.db.select().from(jobs).where(eq(jobs.kind, MAIL_JOB)).orderBy(jobs.id)

/** A guest buys `quantity` PUBG codes and pays in the sandbox: the order is done. */
async function paidPubgOrder(quantity = 2, email = `buyer-${hex()}@example.com`) {
  const { product } = await makePubgStock(api, { codes: quantity })
  const id = await createPubgOrder(api, product.id, { quantity, email })
  const started = await pay(api, method, id)
  expect(started.status).toBe(200)
  await pressOnCheckout(api, started.body.payment_id, 'confirm')
  expect((await orderRow(api, id)).status).toBe('done')
  return { id, email, product }
}

/** The order's short number (decision 135), which its mails show. */
const numberOf = async (id: string) => (await orderRow(api, id)).number

async function codesOf(orderId: string) {
  const r = await api.call<{ products: Array<{ codes: Array<{ code: string }> }> }>(
    'GET',
    `/api/orders/${orderId}/`,
  )
  return r.body.products.flatMap((p) => p.codes.map((c) => c.code))
}

describe('a paid order', () => {
  it('produces exactly one mail to the buyer, with every code, the total and the order link', async () => {
    const { id, email } = await paidPubgOrder(2)
    // queued with the status change, not sent by the request
    const [job] = await mailJobs()
    expect(job?.dedupeKey).toBe(`mail:order_done:${id}`)
    expect(job?.payload).toEqual({ template: 'order_done', to: email, data: { orderId: id } })
    expect(smtp.received).toHaveLength(0)

    expect(await worker().runDue()).toBe(1)
    const [mail] = await smtp.waitFor(1)
    expect(smtp.received).toHaveLength(1)
    expect(mail!.envelopeTo).toEqual([email])
    expect(mail!.subject).toBe(`Заказ № ${await numberOf(id)} выполнен`)
    expect(mail!.headers.get('from')).toContain('shop@example.com')
    expect(mail!.messageId).toBe(messageIdFor(`mail:order_done:${id}`, 'example.com'))
    const codes = await codesOf(id)
    expect(codes).toHaveLength(2)
    for (const code of codes) {
      expect(mail!.text).toContain(code)
      expect(mail!.html).toContain(code)
    }
    expect(mail!.text).toContain('Как активировать UC-коды')
    expect(mail!.text).toContain('Оплачено')
    expect(mail!.text).toContain('198,00')
    expect(mail!.text).toContain('Test redirect')
    expect(mail!.text).toContain(`https://shop.example/orders/${id}/pay`)
    expect(mail!.html).toContain(`href="https://shop.example/orders/${id}/pay"`)
    // the job is done and the mail logged; running again sends nothing
    expect((await mailJobs())[0]?.status).toBe('done')
    const [logged] = await api.db.select().from(mailLog).where(eq(mailLog.orderId, id))
    expect(logged).toMatchObject({ template: 'order_done', transport: 'smtp', key: `mail:order_done:${id}` })
    expect(await worker().runDue()).toBe(0)
    expect(smtp.received).toHaveLength(1)
  })

  it('of a signed-in buyer goes to the order’s email', async () => {
    const email = `member-${hex()}@example.com`
    const signUp = await api.call<{ access: string }>('POST', '/api/auth/jwt/create/', {
      body: { email, password: 'correct horse battery' },
    })
    const { product } = await makePubgStock(api, { codes: 1 })
    const id = await createPubgOrder(api, product.id, { quantity: 1, token: signUp.body.access })
    const started = await api.call<{ payment_id: string }>('POST', `/api/payments/${method}/`, {
      body: { order_id: id, currency: 'RUB', email: null, phone: null },
      token: signUp.body.access,
    })
    await pressOnCheckout(api, started.body.payment_id, 'confirm')
    await worker().runDue()
    // the sign-up's confirmation mail goes out too
    const mail = (await smtp.waitFor(2)).find((m) => m.subject.startsWith('Заказ'))
    expect(mail!.envelopeTo).toEqual([email])
    expect(mail!.text).toContain('войдите в магазин')
  })

  it('is sent once when two workers race for it', async () => {
    const orderIds: string[] = []
    for (let i = 0; i < 6; i++) orderIds.push((await paidPubgOrder(1)).id)
    const [a, b] = [worker(), worker()]
    const counts = await Promise.all([a.runDue(), b.runDue()])
    expect(counts[0]! + counts[1]!).toBe(6)
    await smtp.waitFor(6)
    await new Promise((r) => setTimeout(r, 100))
    expect(smtp.received).toHaveLength(6)
    const subjects = smtp.received.map((m) => m.subject).sort()
    const numbers = await Promise.all(orderIds.map(numberOf))
    expect(subjects).toEqual(numbers.map((n) => `Заказ № ${n} выполнен`).sort())
  })

  it('waits out an SMTP outage and is delivered once when the server is back; the order stays done', async () => {
    const { id, email } = await paidPubgOrder(1)
    await smtp.stop()
    closeMailTransport(api.config.mail) // a fresh connection attempt, as after the outage began
    await worker().runDue()
    let [job] = await mailJobs()
    expect(job?.status).toBe('pending')
    expect(job?.attempts).toBe(1)
    expect(job?.lastError).toMatch(/ECONNECTION|ECONNREFUSED/)
    expect(job!.runAt.getTime()).toBeGreaterThan(Date.now())
    expect((await orderRow(api, id)).status).toBe('done')

    await smtp.start()
    // not due yet: the backoff holds it
    expect(await worker().runDue()).toBe(0)
    await api.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, job!.id))
    expect(await worker().runDue()).toBe(1)
    await smtp.waitFor(1)
    ;[job] = await mailJobs()
    expect(job?.status).toBe('done')
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]!.envelopeTo).toEqual([email])
  })

  it.each([
    ['refuse-temporary', '451'],
    ['refuse-permanent', '550'],
  ] as const)(
    'is retried when the server refuses it (%s) and no address reaches the error',
    async (mode, code) => {
      const { email } = await paidPubgOrder(1)
      smtp.mode = mode
      await worker().runDue()
      const [job] = await mailJobs()
      expect(job?.status).toBe('pending')
      expect(job?.lastError).toContain(code)
      expect(job?.lastError).toContain('[address]')
      expect(job?.lastError).not.toContain(email)
      smtp.mode = 'accept'
      await api.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, job!.id))
      await worker().runDue()
      await smtp.waitFor(1)
      expect(smtp.received).toHaveLength(1)
    },
  )

  it('is delivered once after a restart between the commit and the send', async () => {
    const { id } = await paidPubgOrder(1)
    // the process that committed the order stops before its worker ran: nothing was sent
    const first = worker()
    await first.stop()
    closeMailTransport(api.config.mail)
    expect(smtp.received).toHaveLength(0)
    // a new process, a new worker
    const second = createJobWorker(api.deps, { handlers: JOB_HANDLERS, onError: () => {} })
    expect(await second.runDue()).toBe(1)
    await smtp.waitFor(1)
    expect(smtp.received).toHaveLength(1)
    expect(smtp.received[0]!.subject).toContain(`№ ${await numberOf(id)}`)
  })

  it('is delivered once when the worker that claimed it dies before sending', async () => {
    await paidPubgOrder(1)
    const [claimed] = await claimJobs(api.db, { workerId: 'killed-9', limit: 1, leaseSeconds: 1 })
    expect(claimed?.kind).toBe(MAIL_JOB)
    expect(await worker().runDue()).toBe(0) // still leased to the dead worker
    await new Promise((r) => setTimeout(r, 1_100))
    expect(await worker().runDue()).toBe(1)
    await smtp.waitFor(1)
    expect(smtp.received).toHaveLength(1)
  })

  it('is not sent again when the worker died after the send, before marking the job done', async () => {
    await paidPubgOrder(1)
    const [claimed] = await claimJobs(api.db, { workerId: 'killed-after-send', limit: 1, leaseSeconds: 1 })
    await sendMailJob(claimed!, deps) // sent, then the process died: the job is still 'running'
    await smtp.waitFor(1)
    await new Promise((r) => setTimeout(r, 1_100))
    expect(await worker().runDue()).toBe(1) // taken over, finds the mail in the log
    await new Promise((r) => setTimeout(r, 100))
    expect(smtp.received).toHaveLength(1)
    expect((await mailJobs())[0]?.status).toBe('done')
  })
})

describe('a failed order', () => {
  it('that was paid mails why and what happens to the money, once', async () => {
    const { product } = await makePubgStock(api, { codes: 1 })
    const email = `unlucky-${hex()}@example.com`
    const id = await createPubgOrder(api, product.id, { quantity: 1, email })
    const started = await pay(api, method, id)
    // the held code is gone anyway (sold elsewhere after the hold): the paid order cannot be delivered
    await api.db
      .update(voucherCodes)
      .set({ soldAt: new Date() })
      .where(eq(voucherCodes.productId, product.id))
    await pressOnCheckout(api, started.body.payment_id, 'confirm')
    const order = await orderRow(api, id)
    expect(order.status).toBe('failed')
    await worker().runDue()
    const [mail] = await smtp.waitFor(1)
    expect(mail!.envelopeTo).toEqual([email])
    expect(mail!.subject).toBe(`Заказ № ${order.number} не выполнен`)
    expect(mail!.text).toContain(`Причина: ${order.rejectReason}`)
    expect(mail!.text).toMatch(/Деньги возвращаются автоматически/)
    expect(mail!.text).toContain(`https://shop.example/orders/${id}/pay`)
  })

  it('that was never paid mails nothing', async () => {
    const { product } = await makePubgStock(api, { codes: 1 })
    const id = await createPubgOrder(api, product.id, { quantity: 1 })
    await transitionOrder(api.db, id, 'failed', { rejectReason: 'expired' })
    expect(await mailJobs()).toHaveLength(0)
  })

  it('queues its mail in the transaction of the change: rolled back together', async () => {
    const { product } = await makePubgStock(api, { codes: 1 })
    const id = await createPubgOrder(api, product.id, { quantity: 1 })
    await api.db.update(orders).set({ status: 'sent', paidAt: new Date() }).where(eq(orders.id, id))
    await api.db
      .transaction(async (tx) => {
        await transitionOrder(tx, id, 'done')
        throw new Error('rolled back')
      })
      .catch(() => {})
    expect((await orderRow(api, id)).status).toBe('sent')
    expect(await mailJobs()).toHaveLength(0)
    await transitionOrder(api.db, id, 'done')
    expect((await mailJobs()).map((j) => j.dedupeKey)).toEqual([`mail:order_done:${id}`])
  })
})

describe('what the mails say', () => {
  const ctx = () => ({ db: api.db, config: api.config, to: 'someone@example.com', now: new Date() })

  it('a gift order: its code and how to activate it', async () => {
    const [gift] = await api.db.select().from(gifts).where(eq(gifts.isActive, true)).limit(1)
    const email = `gift-${hex()}@example.com`
    const created = await api.call<{ id: string }>('POST', '/api/orders/rokky/', {
      body: { gift: gift!.id, email },
    })
    expect(created.status).toBe(201)
    const started = await pay(api, method, created.body.id)
    await pressOnCheckout(api, started.body.payment_id, 'confirm')
    const order = await orderRow(api, created.body.id)
    expect(order.status).toBe('done')
    await worker().runDue()
    const [mail] = await smtp.waitFor(1)
    expect(mail!.text).toContain(order.code!)
    expect(mail!.text).toContain('Как активировать код')
    expect(mail!.text).toContain(gift!.description.slice(0, 40))
  })

  it('a Steam top-up: what was topped up, no codes', async () => {
    const [steam] = await api.db
      .execute<{ id: number }>(sql`select id from games where kind = 'Steam' limit 1`)
      .then((r) => (r as unknown as { rows: Array<{ id: number }> }).rows)
    const created = await api.call<{ id: string }>('POST', '/api/orders/steam/', {
      body: {
        game: steam!.id,
        amount: '500.00',
        steam_account_id: 'gaben_mail',
        email: `steam-${hex()}@example.com`,
      },
    })
    expect(created.status).toBe(201)
    const started = await pay(api, method, created.body.id)
    await pressOnCheckout(api, started.body.payment_id, 'confirm')
    const mail = await renderMail('order_done', { orderId: created.body.id }, ctx())
    expect(mail!.text).toContain('Кошелёк Steam аккаунта gaben_mail пополнен на 500,00')
    expect(mail!.text).not.toContain('Ваши коды')
  })

  it('a checked player: the done mail names the nickname the supplier gave (issue 17)', async () => {
    const [line] = await api.db
      .execute<{ id: number; min: number }>(
        sql`select p.id, p.min_quantity as min from products p join games g on g.id = p.game_id
            where g.kind = 'SupplyGame' and not g.is_server_needed and g.player_check is not null
              and p.is_active limit 1`,
      )
      .then((r) => (r as unknown as { rows: Array<{ id: number; min: number }> }).rows)
    const created = await api.call<{ id: string }>('POST', '/api/orders/supply_channel/', {
      body: {
        products: [{ product_id: line!.id, quantity: line!.min }],
        supply_channel_user_id: '100000001',
        email: `player-${hex()}@example.com`,
      },
    })
    expect(created.status).toBe(201)
    const mail = await renderMail('order_done', { orderId: created.body.id }, ctx())
    expect(mail!.text).toContain('Пополнение отправлено игроку с ID 100000001. Ник игрока: Тестовый игрок.')
  })

  it('a refund: the amount, the reason and where the money goes', async () => {
    const { id } = await paidPubgOrder(1)
    const toCard = await renderMail('order_refunded', { orderId: id, reason: 'Поставщик отказал' }, ctx())
    expect(toCard!.subject).toBe(`Возврат по заказу № ${await numberOf(id)}`)
    expect(toCard!.text).toContain('Причина: Поставщик отказал')
    expect(toCard!.text).toContain('99,00')
    expect(toCard!.text).toContain('тем же способом, которым вы платили (Test redirect)')
    const toBalance = await renderMail(
      'order_refunded',
      { orderId: id, reason: 'x', destination: 'balance', amount: 12345 },
      ctx(),
    )
    expect(toBalance!.text).toContain('123,45')
    expect(toBalance!.text).toContain('зачислена на баланс')
  })

  it('account mails: one layout, the link under PUBLIC_URL, Russian, HTML and text', async () => {
    const c = ctx()
    const confirm = await renderMail(
      'confirm_email',
      { path: '/auth/confirm?token=abc', expiresInHours: 24 },
      c,
    )
    const reset = await renderMail(
      'password_reset',
      { path: '/auth/reset?token=xyz', expiresInMinutes: 30 },
      c,
    )
    const changed = await renderMail('password_changed', {}, c)
    const bound = await renderMail('social_bound', { provider: 'vk_id' }, c)
    expect(confirm!.text).toContain('https://shop.example/auth/confirm?token=abc')
    expect(confirm!.text).toContain('24 ч')
    expect(reset!.html).toContain('href="https://shop.example/auth/reset?token=xyz"')
    expect(reset!.text).toContain('30 мин')
    expect(changed!.subject).toBe('Пароль изменён')
    expect(bound!.subject).toBe('Вход через VK ID привязан')
    for (const m of [confirm, reset, changed, bound]) {
      expect(m!.html).toMatch(/<html [^>]*lang="ru"/)
      expect(m!.html).toContain('ИгроМаркет')
      expect(m!.html).toContain('https://shop.example/info/contacts')
      expect(m!.text).toContain('ИгроМаркет')
    }
    // a link elsewhere is refused rather than mailed
    await expect(
      renderMail('password_reset', { path: 'https://evil.example/x', expiresInMinutes: 30 }, c),
    ).rejects.toThrow()
    await expect(
      renderMail('password_reset', { path: '//evil.example/x', expiresInMinutes: 30 }, c),
    ).rejects.toThrow()
  })

  it('queueMail makes one mail per cause', async () => {
    const mail = {
      template: 'password_changed',
      to: 'a@example.com',
      data: {},
      key: `password_changed:${hex()}`,
    } as const
    expect(await queueMail(api.db, mail)).toBe(true)
    expect(await queueMail(api.db, mail)).toBe(false)
    await worker().runDue()
    await smtp.waitFor(1)
    expect(smtp.received).toHaveLength(1)
    const rows = await api.db
      .select()
      .from(mailLog)
      .where(and(eq(mailLog.template, 'password_changed')))
    expect(rows.some((r) => r.key === `mail:${mail.key}`)).toBe(true)
  })
})
