// Issue 20, findings 3 and 7: a once-per-email code used again (two unpaid orders, a changed
// email, `name+2@`), use limits and validity re-checked when the payment starts and when it is
// paid; and code guessing throttled per address and per order, with one answer for every
// «нет такого кода».
import { eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, promoCodes, promoRedemptions } from '#api/db/schema'
import { CLIENT_IP_HEADER } from '#api/lib/client-address'
import { emailKey as promoEmailKey } from '#api/services/identity/email-key'
import { makeUser } from './orders-fixtures'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import {
  createPubgOrder,
  type Err,
  hex,
  makePubgStock,
  makeSandboxMethod,
  pay,
  pressOnCheckout,
  status,
} from './payments-fixtures'

type PromoResult = { total_with_promocode: string; total_to_pay: string; promo_code: unknown }

let api: TestApi
let gameId: number
let productId: number
let method: string
let addressSeq = 0
/** Each check from an address of its own, unless the test is about addresses. */
const freshAddress = () => `10.20.${Math.floor(++addressSeq / 250)}.${addressSeq % 250}`

beforeAll(async () => {
  api = await createTestApi()
  const stock = await makePubgStock(api, { codes: 40, price: 10000 })
  productId = stock.product.id
  gameId = stock.game.id
  method = (await makeSandboxMethod(api, 'redirect')).method.name
})
afterAll(() => api.close())

const activate = (id: string, code: string, address = freshAddress()) =>
  api.call<PromoResult & Err>('POST', `/api/orders/${id}/activate_promo_code/`, {
    body: { code },
    headers: { [CLIENT_IP_HEADER]: address },
  })
const show = (id: string, code: string, address = freshAddress()) =>
  api.call<PromoResult & Err>('POST', `/api/orders/${id}/show_promo_code/`, {
    body: { code },
    headers: { [CLIENT_IP_HEADER]: address },
  })

async function addPromo(values: Partial<typeof promoCodes.$inferInsert> = {}) {
  const [p] = await api.db
    .insert(promoCodes)
    .values({ code: `ONCE${hex(4)}`, kind: 'PromoCode', percent: 10, gameId, ...values })
    .returning()
  return p!
}

const usedCount = async (id: number) =>
  (await api.db.select().from(promoCodes).where(eq(promoCodes.id, id)))[0]!.usedCount
const redemptions = async (id: number) =>
  api.db.select().from(promoRedemptions).where(eq(promoRedemptions.promoCodeId, id))

async function payAndConfirm(orderId: string) {
  const p = await pay(api, method, orderId)
  expect(p.status, JSON.stringify(p.body)).toBe(200)
  return pressOnCheckout(api, p.body.payment_id, 'confirm')
}

describe('once per email (finding 3)', () => {
  it('two unpaid orders with one email: the second is re-priced before its payment, and told why', async () => {
    const promo = await addPromo()
    const email = `twice-${hex()}@example.com`
    const a = await createPubgOrder(api, productId, { email })
    const b = await createPubgOrder(api, productId, { email })
    expect((await activate(a, promo.code)).status).toBe(200)
    expect((await activate(b, promo.code)).status).toBe(200)

    expect((await payAndConfirm(a)).status).toBe(303)
    expect((await status(api, a)).body.status).toBe('done')

    const second = await pay(api, method, b)
    expect(second.status).toBe(409)
    expect(second.body.code).toBe('promo_code_dropped')
    expect(second.body.detail).toContain(promo.code)
    expect(second.body.detail).toContain('вы уже использовали этот промокод')
    // the order no longer carries the code; the next payment is for the full price
    const order = await api.call<PromoResult>('GET', `/api/orders/${b}/`)
    expect(order.body.total_to_pay).toBe('100.00')
    expect((await api.call('GET', `/api/orders/${b}/active_promo_code/`)).status).toBe(404)
    const full = await pay(api, method, b)
    expect(full.body.amount).toBe('100.00')
    expect(await usedCount(promo.id)).toBe(1)
  })

  it('two payments started at the discount: only the first to be paid gets it', async () => {
    const promo = await addPromo()
    const email = `race-${hex()}@example.com`
    const a = await createPubgOrder(api, productId, { email })
    const b = await createPubgOrder(api, productId, { email })
    await activate(a, promo.code)
    await activate(b, promo.code)
    const pa = await pay(api, method, a)
    const pb = await pay(api, method, b)
    expect([pa.body.amount, pb.body.amount]).toEqual(['90.00', '90.00'])
    expect((await pressOnCheckout(api, pa.body.payment_id, 'confirm')).status).toBe(303)
    const late = await pressOnCheckout(api, pb.body.payment_id, 'confirm')
    expect(late.status).not.toBe(303)
    expect((await status(api, b)).body.status).not.toBe('done')
    const [row] = await api.db.select().from(orders).where(eq(orders.id, b))
    expect(row!.paidAt).toBeNull()
    expect(await redemptions(promo.id)).toHaveLength(1)
    expect(await usedCount(promo.id)).toBe(1)
  })

  it('changing the order’s email to one that used the code drops the discount at payment', async () => {
    const promo = await addPromo()
    const used = `changed-${hex()}@example.com`
    const first = await createPubgOrder(api, productId, { email: used })
    await activate(first, promo.code)
    expect((await payAndConfirm(first)).status).toBe(303)

    const other = await createPubgOrder(api, productId, { email: `fresh-${hex()}@example.com` })
    expect((await activate(other, promo.code)).status).toBe(200)
    const moved = await api.call('POST', `/api/orders/pubg/${other}/delivery_details/update/`, {
      body: { email: used },
    })
    expect(moved.status).toBe(200)
    const p = await pay(api, method, other)
    expect([p.status, p.body.code]).toEqual([409, 'promo_code_dropped'])
    expect((await pay(api, method, other)).body.amount).toBe('100.00')
  })

  it('name+2@ and Gmail’s dots are the same buyer', async () => {
    const promo = await addPromo()
    const first = await createPubgOrder(api, productId, { email: 'ivan.petrov@gmail.com' })
    await activate(first, promo.code)
    expect((await payAndConfirm(first)).status).toBe(303)
    for (const alias of [
      'ivanpetrov+2@gmail.com',
      'I.Van.Petrov@googlemail.com',
      'ivan.petrov+x@GMAIL.com',
    ]) {
      const o = await createPubgOrder(api, productId, { email: alias })
      const r = await activate(o, promo.code)
      expect([r.status, r.body.code], alias).toEqual([400, 'promo_code_already_used'])
    }
    const plus = await addPromo()
    const y = await createPubgOrder(api, productId, { email: 'shopper@yandex.ru' })
    await activate(y, plus.code)
    expect((await payAndConfirm(y)).status).toBe(303)
    const tagged = await createPubgOrder(api, productId, { email: 'shopper+2@ya.ru' })
    expect((await activate(tagged, plus.code)).body.code).toBe('promo_code_already_used')
  })

  it('the use limit holds when two buyers pay at once', async () => {
    const promo = await addPromo({ maxUses: 1 })
    const a = await createPubgOrder(api, productId)
    const b = await createPubgOrder(api, productId)
    await activate(a, promo.code)
    await activate(b, promo.code)
    const pa = await pay(api, method, a)
    const pb = await pay(api, method, b)
    expect((await pressOnCheckout(api, pa.body.payment_id, 'confirm')).status).toBe(303)
    expect((await pressOnCheckout(api, pb.body.payment_id, 'confirm')).status).not.toBe(303)
    expect(await usedCount(promo.id)).toBe(1)
    // and a third order is told at payment start, re-priced
    const c = await createPubgOrder(api, productId)
    await api.db.update(promoCodes).set({ maxUses: 2 }).where(eq(promoCodes.id, promo.id))
    await activate(c, promo.code)
    await api.db.update(promoCodes).set({ maxUses: 1 }).where(eq(promoCodes.id, promo.id))
    const pc = await pay(api, method, c)
    expect([pc.status, pc.body.code]).toEqual([409, 'promo_code_dropped'])
  })

  it('a code that expired or was switched off after it was applied comes off at payment start', async () => {
    for (const change of [{ expiresAt: new Date(Date.now() - 1000) }, { isActive: false }] as Array<
      Partial<typeof promoCodes.$inferInsert>
    >) {
      const promo = await addPromo()
      const o = await createPubgOrder(api, productId)
      expect((await activate(o, promo.code)).body.total_to_pay).toBe('90.00')
      await api.db.update(promoCodes).set(change).where(eq(promoCodes.id, promo.id))
      const p = await pay(api, method, o)
      expect([p.status, p.body.code]).toEqual([409, 'promo_code_dropped'])
      expect(p.body.detail).toMatch(/[а-яё]/i)
      expect((await pay(api, method, o)).body.amount).toBe('100.00')
    }
  })
})

describe('guessing (finding 7)', () => {
  it('unknown, switched off, expired and used-up codes get one answer', async () => {
    const off = await addPromo({ isActive: false })
    const out = await addPromo({ maxUses: 2, usedCount: 2 })
    const old = await addPromo({ expiresAt: new Date(Date.now() - 60_000) })
    const answers = new Set<string>()
    for (const code of [`NOPE${hex()}`, off.code, out.code, old.code, 'OLD2020', 'SOLDOUT5']) {
      const o = await createPubgOrder(api, productId)
      for (const r of [
        await show(o, code),
        await activate(o, code),
        await api.call<Err>('POST', '/api/promo_codes/show/', {
          body: { code },
          headers: { [CLIENT_IP_HEADER]: freshAddress() },
        }),
      ]) {
        expect([r.status, r.body.code], code).toEqual([404, 'promo_code_unknown'])
        answers.add(r.body.detail)
      }
    }
    expect([...answers]).toEqual(['Такого промокода нет'])
  })

  it('checks from one address are limited: a clear 429 with Retry-After, other addresses unaffected', async () => {
    const address = '192.0.2.77'
    const { perAddress } = api.config.promoLimits
    const statuses: number[] = []
    let last: Awaited<ReturnType<typeof show>> | null = null
    for (let i = 0; i <= perAddress; i++) {
      last = await api.call<PromoResult & Err>('POST', '/api/promo_codes/show/', {
        body: { code: `GUESS${i}` },
        headers: { [CLIENT_IP_HEADER]: address },
      })
      statuses.push(last.status)
    }
    expect(statuses.slice(0, perAddress).every((s) => s === 404)).toBe(true)
    expect(last!.status).toBe(429)
    expect(last!.body.code).toBe('rate_limited')
    expect(last!.body.detail).toMatch(/Слишком много попыток/)
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0)
    // even the right code waits, from that address; another address is not held up
    const o = await createPubgOrder(api, productId)
    expect((await show(o, 'WELCOME10', address)).status).toBe(429)
    expect(
      (await api.call('POST', '/api/promo_codes/show/', { body: { code: 'WELCOME10' } })).status,
    ).not.toBe(429)
  })

  it('checks on one order are limited whatever the address', async () => {
    const o = await createPubgOrder(api, productId)
    const { perTarget } = api.config.promoLimits
    for (let i = 0; i < perTarget; i++) expect((await show(o, `G${i}${hex()}`)).status).toBe(404)
    const promo = await addPromo()
    const over = await activate(o, promo.code)
    expect(over.status).toBe(429)
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/)
    // another order is not
    const other = await createPubgOrder(api, productId)
    expect((await activate(other, promo.code)).status).toBe(200)
  })

  it("a stranger's guesses on a signed-in buyer's order do not spend the buyer's checks", async () => {
    const owner = await makeUser(api)
    const stranger = await makeUser(api)
    const o = await createPubgOrder(api, productId, { token: owner.token })
    const { perTarget } = api.config.promoLimits
    for (let i = 0; i <= perTarget + 2; i++) {
      const r = await api.call<Err>('POST', `/api/orders/${o}/show_promo_code/`, {
        body: { code: `G${i}${hex()}` },
        token: stranger.token,
        headers: { [CLIENT_IP_HEADER]: freshAddress() },
      })
      expect(r.status).toBe(404)
      expect(r.body.code).toBe('order_not_found')
    }
    const promo = await addPromo()
    const mine = await api.call<PromoResult>('POST', `/api/orders/${o}/activate_promo_code/`, {
      body: { code: promo.code },
      token: owner.token,
      headers: { [CLIENT_IP_HEADER]: freshAddress() },
    })
    expect(mine.status).toBe(200)
    expect(mine.body.promo_code).not.toBeNull()
  })
})

describe('promoEmailKey', () => {
  it.each([
    ['Name@Example.com', 'name@example.com'],
    ['name+tag@example.com', 'name@example.com'],
    ['i.van+a@gmail.com', 'ivan@gmail.com'],
    ['ivan@googlemail.com', 'ivan@gmail.com'],
    ['ivan.petrov@yandex.ru', 'ivan-petrov@yandex.ru'],
    ['ivan-petrov+1@ya.ru', 'ivan-petrov@yandex.ru'],
    ['first.last@example.com', 'first.last@example.com'],
    ['+only@example.com', '+only@example.com'],
  ])('%s → %s', (email, key) => {
    expect(promoEmailKey(email)).toBe(key)
  })

  it('is what the redemption stores', async () => {
    const promo = await addPromo()
    const o = await createPubgOrder(api, productId, { email: 'Stored.Key+x@GMail.com' })
    await activate(o, promo.code)
    expect((await payAndConfirm(o)).status).toBe(303)
    const [r] = await api.db
      .select()
      .from(promoRedemptions)
      .where(sql`${promoRedemptions.promoCodeId} = ${promo.id}`)
    expect(r!.email).toBe('storedkey@gmail.com')
  })
})
