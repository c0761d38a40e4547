// Issue 47: every order mail's subject and figures, per order kind, in a snapshot. Each kind is
// bought the same way (a 10 % promo code where it applies, a method with a 2 % + 5 ₽ fee), then walked through the
// states its mails speak of: paid and waiting for a person (Standoff, supply channel), held for
// review, done, failed and refunded. What is kept of each mail: its subject and the lines of its
// text that carry figures (money, quantities, codes, the order number), with the volatile parts
// (UUIDs, order numbers, codes, dates, tokens) replaced, so that PGlite and PostgreSQL and every run
// write the same snapshot (tests/api/__snapshots__/mail-snapshots.test.ts.snap, one per kind).
import { asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { games, gifts, orders, promoCodes, refunds, voucherCodes } from '#api/db/schema'
import type { MailTemplate } from '#api/services/mail/outbox'
import { renderMail } from '#api/services/mail/render'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { ensureSettings, makeGame, makeProduct, makeServer, type makeUser } from './orders-fixtures'
import { hex, makeSandboxMethod, orderRow, pay, pressOnCheckout } from './payments-fixtures'

let api: TestApi
let method: string
let promo: string
let support: Awaited<ReturnType<typeof makeUser>>
const ctx = (to = 'buyer@example.com') => ({
  db: api.db,
  config: api.config,
  to,
  now: new Date(),
  demo: false,
})

beforeAll(async () => {
  api = await createTestApi()
  await ensureSettings(api)
  method = (await makeSandboxMethod(api, 'redirect', { title: 'Банковская карта', fee: 200, fixFee: 500 }))
    .method.name
  promo = `SNAP${hex(3)}`.toUpperCase()
  await api.db.insert(promoCodes).values({ code: promo, kind: 'PromoCode', percent: 10 })
  support = await makeStaff(api, 'support')
}, 180_000)
afterAll(async () => {
  await api?.close()
})

/** The mail's text with what changes from run to run (and database to database) replaced. */
function stable(s: string): string {
  return (
    s
      .replace(/[\u00a0\u202f]/g, ' ')
      .replace(/[\w.+-]+@[\w.-]+/g, '<email>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<uuid>')
      .replace(/№ ?\d+/g, '№ <number>')
      .replace(/\b[TF]-[\w-]+/g, '<code>')
      // a gift's code (the demo seed's are random: groups of five)
      .replace(/\b[A-Z0-9]{5}(-[A-Z0-9]{5})+\b/g, '<code>')
      .replace(/\bSNAP[0-9A-F]+\b/g, '<promo>')
      .replace(
        /\d{1,2} (января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря) \d{4} г\./g,
        '<date>',
      )
      .replace(/\b\d{1,2}\.\d{2}\.\d{4}(,? \d{1,2}:\d{2})?/g, '<date>')
      .replace(/\b\d{1,2}:\d{2}\b/g, '<time>')
      .replace(/([?&](token|t|sig)=)[^\s&)\]]+/g, '$1<token>')
      .replace(/\/orders\/lookup\/[^\s)]+/g, '/orders/lookup/<token>')
      .replace(/https?:\/\/[^\s/]+/g, '<origin>')
      .replace(/\b(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/g, '<hex>')
  )
}

/** An amount on a line of its own: the text of a table cell whose label is the line before. */
const AMOUNT = /^[−+-]?\d[\d ]*(,\d+)? ?(₽|G|UC)(,|$)/

/**
 * The text's lines that carry figures (money, quantities, codes, the order's number), each amount
 * with its label («Скидка по промокоду: −17,80 ₽»).
 */
function figureLines(text: string): string[] {
  const lines = stable(text)
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
  const out: string[] = []
  lines.forEach((l, i) => {
    if (AMOUNT.test(l) && i > 0) {
      if (out.at(-1) === lines[i - 1]) out.pop()
      out.push(`${lines[i - 1]}: ${l}`)
    } else if (/\d|<code>|<number>/.test(l) && !l.startsWith('<origin>')) out.push(l)
  })
  return out
}

/** One mail as the snapshot keeps it (or null: the template sends nothing for this order now). */
async function shot(template: MailTemplate, data: Record<string, unknown>, to?: string) {
  const mail = await renderMail(template, data as never, ctx(to))
  return mail ? { subject: stable(mail.subject), figures: figureLines(mail.text) } : null
}

async function paid(orderId: string) {
  const started = await pay(api, method, orderId, { email: 'buyer@example.com' })
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  await pressOnCheckout(api, started.body.payment_id, 'confirm')
}

async function withPromo(orderId: string) {
  const r = await api.call('POST', `/api/orders/${orderId}/activate_promo_code/`, { body: { code: promo } })
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  return orderId
}

async function created(kind: string, body: Record<string, unknown>, opts = { promo: true }) {
  const r = await api.call<{ id: string }>('POST', `/api/orders/${kind}/`, {
    // a promo code is once per email: a buyer of its own per order
    body: { ...body, email: `buyer-${hex()}@example.com` },
  })
  expect(r.status, JSON.stringify(r.body)).toBe(201)
  return opts.promo ? withPromo(r.body.id) : r.body.id
}

/** The refund mail of the order's refund, as the refund service queues it. */
async function refundShot(orderId: string) {
  const [refund] = await api.db.select().from(refunds).where(eq(refunds.orderId, orderId))
  expect(refund, `a refund of ${orderId}`).toBeDefined()
  return shot('order_refunded', {
    orderId,
    amount: refund!.amount,
    destination: refund!.method === 'manual' ? 'person' : 'payment',
    paymentId: refund!.paymentId,
  })
}

/** A person at the delivery desk takes the order and delivers it, or says it cannot be delivered. */
async function desk(orderId: string, outcome: 'delivered' | 'not_delivered') {
  const act = (what: string, body?: unknown) =>
    api.call('POST', `/api/admin/orders/${orderId}/${what}/`, { token: support.token, body })
  expect((await act('take')).status).toBe(200)
  const r = await (outcome === 'delivered'
    ? act('delivered')
    : act('not_delivered', { reason: 'Игрок недоступен' }))
  expect(r.status, JSON.stringify(r.body)).toBe(200)
}

/** Held for review (issue 34): the buyer's «на проверке» and the staff's notice 30 minutes on. */
async function heldShots(orderId: string) {
  return {
    order_held: await shot('order_held', { orderId }),
    review_overdue: await shot('review_overdue', { orderId }),
  }
}

/** An order delivered by the shop itself (PUBG codes, Steam, gifts): done, then one that fails. */
async function automatic(make: () => Promise<string>, failing?: () => Promise<string>) {
  const id = await make()
  await paid(id)
  expect((await orderRow(api, id)).status).toBe('done')
  const mails: Record<string, unknown> = {
    ...(await heldShots(id)),
    order_done: await shot('order_done', { orderId: id }),
  }
  if (failing) {
    const failed = await failing()
    expect((await orderRow(api, failed)).status).toBe('failed')
    mails.order_failed = await shot('order_failed', { orderId: failed })
    mails.order_refunded = await refundShot(failed)
  } else {
    // no failure of its own here: the refund mail of the done order (a refund a person made)
    mails.order_refunded = await shot('order_refunded', { orderId: id, reason: 'Покупатель передумал' })
  }
  return mails
}

/** An order a person delivers (Standoff, supply channel): waiting, delivered; another not delivered. */
async function manual(make: () => Promise<string>) {
  const id = await make()
  await paid(id)
  expect((await orderRow(api, id)).status).toBe('sent')
  const mails: Record<string, unknown> = {
    order_paid: await shot('order_paid', { orderId: id }),
    delivery_overdue: await shot('delivery_overdue', { orderId: id }),
    delivery_refund_warning: await shot('delivery_refund_warning', { orderId: id }),
    delivery_escalated: await shot('delivery_escalated', { orderId: id }),
    ...(await heldShots(id)),
  }
  await desk(id, 'delivered')
  mails.order_done = await shot('order_done', { orderId: id })
  const failed = await make()
  await paid(failed)
  await desk(failed, 'not_delivered')
  mails.order_failed = await shot('order_failed', { orderId: failed })
  mails.order_refunded = await refundShot(failed)
  return mails
}

describe('every mail’s subject and figures, per order kind', { timeout: 120_000 }, () => {
  it('PUBG codes', async () => {
    const game = await makeGame(api, 'PUBGGame', { title: 'PUBG Mobile (снимок)' })
    const product = await makeProduct(api, game.id, 'PUBGProduct', {
      title: '60 UC',
      price: 8900,
      amountUc: 60,
    })
    const mails = await automatic(
      () => created('pubg', { products: [{ product_id: product.id, quantity: 2 }] }),
      async () => {
        // the codes are sold elsewhere while the buyer pays: the order fails and is refunded
        const gone = await makeProduct(api, game.id, 'PUBGProduct', {
          title: '325 UC',
          price: 44900,
          amountUc: 325,
        })
        const id = await created('pubg', { products: [{ product_id: gone.id, quantity: 1 }] })
        const started = await pay(api, method, id, { email: 'buyer@example.com' })
        expect(started.status, JSON.stringify(started.body)).toBe(200)
        await api.db
          .update(voucherCodes)
          .set({ soldAt: new Date(), heldBy: null, heldUntil: null })
          .where(eq(voucherCodes.productId, gone.id))
        await pressOnCheckout(api, started.body.payment_id, 'confirm')
        return id
      },
    )
    expect(mails).toMatchSnapshot()
  })

  it('Steam top-up', async () => {
    const [steam] = await api.db
      .select()
      .from(games)
      .where(eq(games.kind, 'Steam'))
      .orderBy(asc(games.id))
      .limit(1)
    const mails = await automatic(() =>
      created('steam', { game: steam!.id, amount: '1000.00', steam_account_id: 'gaben_mail' }),
    )
    expect(mails).toMatchSnapshot()
  })

  it('gift', async () => {
    const [gift] = await api.db
      .select()
      .from(gifts)
      .where(eq(gifts.isActive, true))
      .orderBy(asc(gifts.id))
      .limit(1)
    // a promo code of no game is not for gifts: the gift's figures have no discount line
    const mails = await automatic(() => created('rokky', { gift: gift!.id }, { promo: false }))
    expect(mails).toMatchSnapshot()
  })

  it('Standoff gold', async () => {
    const game = await makeGame(api, 'StandoffGame', { supplier: 'manual', title: 'Standoff 2 (снимок)' })
    const pack = await makeProduct(api, game.id, 'StandoffProduct', {
      title: '100 G',
      price: 8900,
      gold: 100,
    })
    const mails = await manual(async () => {
      const id = await created('standoff', {
        products: [{ product_id: pack.id, quantity: 1 }],
        game_account_id: '51234567',
        surplus: '0.05',
      })
      // the account's avatar, uploaded (§5: a Standoff order is paid only with it)
      await api.db.update(orders).set({ gameAvatar: '/media/avatar-test.png' }).where(eq(orders.id, id))
      return id
    })
    expect(mails).toMatchSnapshot()
  })

  it('supplier channel top-up', async () => {
    const game = await makeGame(api, 'SupplyGame', {
      supplier: 'manual',
      isServerNeeded: true,
      isServerEnum: true,
      title: 'Канал поставщика (снимок)',
    })
    const server = await makeServer(api, game.id, 'Europe')
    const pack = await makeProduct(api, game.id, 'SupplyProduct', { title: '300 алмазов', price: 8900 })
    const mails = await manual(() =>
      created('supply_channel', {
        products: [{ product_id: pack.id, quantity: 2 }],
        supply_channel_user_id: '777',
        supply_channel_server: server.id,
      }),
    )
    expect(mails).toMatchSnapshot()
  })
  it('the mails about no order (accounts, personal data, a guest’s list of orders)', async () => {
    // the list of a guest's orders is mailed only to an address that has orders
    const game = await makeGame(api, 'PUBGGame', { title: 'PUBG Mobile (список)' })
    const product = await makeProduct(api, game.id, 'PUBGProduct', {
      title: '60 UC',
      price: 8900,
      amountUc: 60,
    })
    const guest = `guest-${hex()}@example.com`
    const order = await api.call('POST', '/api/orders/pubg/', {
      body: { products: [{ product_id: product.id, quantity: 1 }], email: guest },
    })
    expect(order.status, JSON.stringify(order.body)).toBe(201)
    const mails = {
      order_lookup: await shot('order_lookup', {}, guest),
      order_lookup_of_no_orders: await shot('order_lookup', {}, `nobody-${hex()}@example.com`),
      confirm_email: await shot('confirm_email', { path: '/auth/confirm', expiresInHours: 24 }),
      password_reset: await shot('password_reset', { path: '/auth/reset', expiresInMinutes: 60 }),
      password_changed: await shot('password_changed', {}),
      social_bound: await shot('social_bound', { provider: 'vk' }),
      data_request_confirm: await shot('data_request_confirm', {
        requestId: '00000000-0000-4000-8000-000000000000',
        kind: 'deletion',
        expiresInHours: 24,
      }),
    }
    expect(mails).toMatchSnapshot()
  })
})
