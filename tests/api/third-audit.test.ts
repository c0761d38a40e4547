// Issue 42, the third outside audit, replayed against the real API on both databases: roles of
// unconfirmed accounts (1), Standoff listing prices held by unpaid orders (3), a /64 taken as many
// clients (4), email aliases past the block list and the limits (5), gift orders past the guard (6),
// a provider notification refused for its address (7). The process parts (admin:grant, a
// production SEED_DEMO start, an undeclared proxy) are in tests/process/third-audit.test.ts.
import { randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { auditLog, gifts, orders, payments, rateLimits, staffAlerts, staffRoles, users } from '#api/db/schema'
import { CLIENT_IP_HEADER } from '#api/lib/client-address'
import { GrantRefused, grantRole } from '#api/services/admin/roles'
import { runAlerts } from '#api/services/alerts/run'
import { emailKey } from '#api/services/identity/email-key'
import { emailKeySql } from '#api/services/identity/email-key-sql'
import { startSession } from '#api/services/auth/tokens'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { makeStaff } from '#tests/helpers/fixtures'
import { ensureSettings, makeGame, makeProduct, type makeUser } from './orders-fixtures'
import { type Err, hex, makePubgStock, makeSandboxMethod, pressOnCheckout } from './payments-fixtures'
import schema from '../../openapi/schema.json' with { type: 'json' }

/** Sign-ups hash passwords and loops make many requests: seconds each on a loaded machine. */
const SLOW = 120_000

let api: TestApi
let owner: Awaited<ReturnType<typeof makeUser>>
let method: string
let pubg: number

beforeAll(async () => {
  api = await createTestApi({
    env: {
      ORDER_LIMIT_PER_ADDRESS: '30',
      ORDER_LIMIT_PER_EMAIL: '10',
      PAYMENT_LIMIT_PER_ADDRESS: '1000',
      PAYMENT_LIMIT_PER_EMAIL: '1000',
      SIGNIN_LIMIT_PER_ADDRESS: '30',
      SIGNIN_LIMIT_PER_ACCOUNT: '1000',
      SIGNIN_LIMIT_PER_PAIR: '1000',
      SIGNIN_SLOWDOWN_MAX_MS: '0',
      STOCK_HOLD_MAX_CODES: '2',
      STOCK_HOLD_MAX_LISTINGS: '2',
    },
  })
  await ensureSettings(api)
  owner = await makeStaff(api, 'owner')
  method = (await makeSandboxMethod(api, 'redirect')).method.name
  pubg = (await makePubgStock(api, { codes: 60, price: 9900 })).product.id
})
afterAll(() => api?.close())
beforeEach(async () => {
  await api.db.delete(rateLimits)
})

let n = 0
/** A fresh IPv4 client. */
const v4 = () => `10.42.${Math.floor(++n / 250)}.${n % 250}`
const from = (ip: string) => ({ [CLIENT_IP_HEADER]: ip })
const pubgOrder = (email: string, ip = v4(), productId = pubg) =>
  api.call<{ id: string } & Err>('POST', '/api/orders/pubg/', {
    body: { products: [{ product_id: productId, quantity: 1 }], email },
    headers: from(ip),
  })
const startPay = (orderId: string, ip = v4()) =>
  api.call<{ payment_id: string } & Err>('POST', `/api/payments/${method}/`, {
    body: { order_id: orderId, currency: 'RUB', email: null, phone: null },
    headers: from(ip),
  })
const block = (kind: string, value: string) =>
  api.call<Err>('POST', '/api/admin/blocks/', { body: { kind, value }, token: owner.token })

describe('finding 1: a role needs a confirmed email', () => {
  it(
    'a role row of an unconfirmed account is not honoured: the token issued before the grant is no staff',
    async () => {
      // the attacker signed up first with the manager's address, never confirmed it
      const email = `manager-${hex()}@example.com`
      const [u] = await api.db.insert(users).values({ email, passwordHash: 'x' }).returning()
      const { access } = await startSession(api.db, api.config, u!.id)
      // a grant made before the fix (or a row written by hand)
      await api.db.insert(staffRoles).values({ userId: u!.id, role: 'owner', grantedBy: 'cli' })
      const me = await api.call<{ role?: string }>('GET', '/api/admin/me/', { token: access })
      expect(me.status).toBe(404)
      expect((await api.call('GET', '/api/admin/blocks/', { token: access })).status).toBe(404)
      // the real manager confirms: the role counts from then on
      await api.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, u!.id))
      expect((await api.call<{ role: string }>('GET', '/api/admin/me/', { token: access })).body.role).toBe(
        'owner',
      )
    },
    SLOW,
  )

  it(
    'grantRole refuses an unconfirmed account and an unknown address, audited; grants a confirmed one',
    async () => {
      const email = `squat-${hex()}@example.com`
      const [u] = await api.db.insert(users).values({ email, passwordHash: 'x' }).returning()
      await expect(grantRole(api.db, email, 'owner', 'cli')).rejects.toThrow(/has not confirmed its email/)
      await expect(grantRole(api.db, `none-${hex()}@example.com`, 'owner', 'cli')).rejects.toBeInstanceOf(
        GrantRefused,
      )
      expect(await api.db.select().from(staffRoles).where(eq(staffRoles.userId, u!.id))).toEqual([])
      const refused = await api.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'staff.role_refused'), eq(auditLog.entityId, String(u!.id))))
      expect(refused.map((r) => r.after)).toEqual([{ role: 'owner', email, reason: 'email_unconfirmed' }])
      await api.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.id, u!.id))
      await grantRole(api.db, email, 'support', 'cli')
      const { access } = await startSession(api.db, api.config, u!.id)
      expect((await api.call<{ role: string }>('GET', '/api/admin/me/', { token: access })).body.role).toBe(
        'support',
      )
    },
    SLOW,
  )
})

describe('finding 3: Standoff listing prices are held like stock', () => {
  let product: number

  beforeAll(async () => {
    const g = await makeGame(api, 'StandoffGame', { supplier: 'manual' })
    product = (await makeProduct(api, g.id, 'StandoffProduct', { price: 10000, gold: 333 })).id
  }, SLOW)

  async function standoffOrder(ip = v4(), email = `so-${hex()}@example.com`) {
    const r = await api.call<{ id: string; surplus: string } & Err>('POST', '/api/orders/standoff/', {
      body: {
        products: [{ product_id: product, quantity: 1 }],
        email,
        game_account_id: '51234567',
        surplus: '0.07',
      },
      headers: from(ip),
    })
    expect(r.status).toBe(201)
    await api.db.update(orders).set({ gameAvatar: '/media/a.png' }).where(eq(orders.id, r.body.id))
    return r.body.id
  }
  const listing = async (id: string) =>
    (await api.call<{ listing_price: string | null }>('GET', `/api/orders/${id}/`)).body.listing_price

  it(
    '24 unpaid orders hold nothing; 24 payment starts hold every price, the 25th is told the true wait; a failed payment or an ended hold gives a price back',
    async () => {
      const ids: string[] = []
      for (let i = 0; i < 26; i++) ids.push(await standoffOrder())
      // created, not paying: no price held, every order is accepted
      expect(await listing(ids[0]!)).toBeNull()
      // eight at a time: concurrent claims of one pack, within a small pool on a loaded machine
      const starts: number[] = []
      for (let i = 0; i < 24; i += 8)
        starts.push(
          ...(await Promise.all(ids.slice(i, i + 8).map((id) => startPay(id)))).map((r) => r.status),
        )
      expect(starts).toEqual(Array(24).fill(200))
      const prices = await Promise.all(ids.slice(0, 24).map(listing))
      expect(new Set(prices).size).toBe(24)
      expect(prices.every((p) => p !== null)).toBe(true)
      const busy = await startPay(ids[24]!)
      expect(busy.status).toBe(409)
      expect(busy.body.code).toBe('standoff_listing_busy')
      // the holds run STOCK_HOLD_MINUTES (30) from now: the first ends in 30 minutes at most
      expect(busy.body.detail).toMatch(/через (29|30) мин/)

      // staff are alerted: the pack is over 80 % held
      const run = await runAlerts(api.deps)
      expect(run.opened.some((c) => c.startsWith('listing_claims_high:'))).toBe(true)
      const [alert] = await api.db
        .select()
        .from(staffAlerts)
        .where(sql`${staffAlerts.cause} like 'listing_claims_high:%'`)
      expect(alert?.detail).toMatch(/заняты 24 из 24/)

      // a payment that failed gives its price back at once
      const declined = await api.db.select().from(payments).where(eq(payments.orderId, ids[0]!))
      expect((await pressOnCheckout(api, declined[0]!.id, 'decline')).status).toBe(303)
      expect((await startPay(ids[24]!)).status).toBe(200)
      // a hold that ended (STOCK_HOLD_MINUTES, issue 38's cap) gives its price back too
      await api.db
        .update(orders)
        .set({ listingHeldUntil: new Date(Date.now() - 1000) })
        .where(eq(orders.id, ids[1]!))
      expect((await startPay(ids[25]!)).status).toBe(200)
      expect(new Set(await Promise.all(ids.slice(2, 26).map(listing))).size).toBe(24)
    },
    SLOW,
  )

  it(
    'one address (or email) holds at most STOCK_HOLD_MAX_LISTINGS prices; refused with a message',
    async () => {
      const ip = v4()
      const mine = [await standoffOrder(ip), await standoffOrder(ip), await standoffOrder(ip)]
      await api.db.delete(orders).where(
        sql`${orders.kind} = 'StandoffOrder' and ${orders.id} not in (${sql.join(
          mine.map((m) => sql`${m}::uuid`),
          sql`, `,
        )})`,
      )
      expect((await startPay(mine[0]!, ip)).status).toBe(200)
      expect((await startPay(mine[1]!, ip)).status).toBe(200)
      const third = await startPay(mine[2]!, ip)
      expect(third.status).toBe(409)
      expect(third.body.code).toBe('listing_hold_limit')
      expect(third.body.detail).toMatch(/не больше 2/)
      // the same buyer by email from elsewhere
      const email = `same-${hex()}@gmail.com`
      const a = await standoffOrder(v4(), email)
      const b = await standoffOrder(v4(), email)
      const c = await standoffOrder(v4(), email.replace('same', 'sa.me'))
      expect((await startPay(a)).status).toBe(200)
      expect((await startPay(b)).status).toBe(200)
      expect((await startPay(c)).body.code).toBe('listing_hold_limit')
    },
    SLOW,
  )
})

describe('finding 4: one IPv6 /64 is one client', () => {
  const net = (i: number) => `2001:db8:42:${n}::${(0x10 + i).toString(16)}`

  it(
    '40 orders from 40 addresses of one /64: 30 pass, then 429; another /64 is unaffected',
    async () => {
      n++
      const answers: number[] = []
      for (let i = 0; i < 40; i++) answers.push((await pubgOrder(`v6-${hex()}@example.com`, net(i))).status)
      expect(answers.filter((s) => s === 201)).toHaveLength(30)
      expect(answers.slice(30).every((s) => s === 429)).toBe(true)
      expect((await pubgOrder(`v6-${hex()}@example.com`, `2001:db8:43:${n}::1`)).status).toBe(201)
    },
    SLOW,
  )

  it(
    'sign-in attempts from 34 addresses of one /64 reach 429',
    async () => {
      n++
      const answers: number[] = []
      for (let i = 0; i < 34; i++) {
        const r = await api.call('POST', '/api/auth/jwt/create/', {
          body: { email: `si-${hex()}@example.com`, password: 'wrong-password-1' },
          headers: from(net(i)),
        })
        answers.push(r.status)
      }
      expect(answers.slice(30)).toEqual(answers.slice(30).map(() => 429))
      expect(answers.slice(0, 30)).not.toContain(429)
    },
    SLOW,
  )

  it(
    'three guest orders paid from three addresses of one /64 cannot hold more than the cap; the payment keeps its network',
    async () => {
      n++
      const few = (await makePubgStock(api, { codes: 3 })).product.id
      const ids = [] as string[]
      for (let i = 0; i < 3; i++) ids.push((await pubgOrder(`h-${hex()}@example.com`, net(i), few)).body.id)
      expect((await startPay(ids[0]!, net(0))).status).toBe(200)
      expect((await startPay(ids[1]!, net(1))).status).toBe(200)
      const third = await startPay(ids[2]!, net(2))
      expect(third.status).toBe(409)
      expect(third.body.code).toBe('hold_limit')
      const [p] = await api.db.select().from(payments).where(eq(payments.orderId, ids[0]!))
      expect(p?.clientAddress).toBe(`2001:db8:42:${n}::10`)
      expect(p?.clientNetwork).toBe(`2001:db8:42:${n}::/64`)
    },
    SLOW,
  )

  it(
    'a blocked IPv6 address blocks its /64',
    async () => {
      n++
      expect((await block('network', net(1))).status).toBe(200)
      const r = await pubgOrder(`b-${hex()}@example.com`, net(9))
      expect(r.status).toBe(403)
      expect(r.body.code).toBe('buyer_blocked')
    },
    SLOW,
  )
})

describe('finding 5: one email key for every rule', () => {
  it(
    'Fraud.Ster@Gmail.com blocked: its aliases are refused too',
    async () => {
      const local = `fraud.ster${hex()}`
      expect((await block('email', `${local.replace('f', 'F')}@Gmail.com`)).status).toBe(200)
      const plain = local.replace('.', '')
      for (const alias of [`${plain}@gmail.com`, `${local}+1@gmail.com`, `${local}@googlemail.com`]) {
        const r = await pubgOrder(alias)
        expect(r.status, alias).toBe(403)
        expect(r.body.code).toBe('buyer_blocked')
      }
    },
    SLOW,
  )

  it(
    'the 10-per-email limit counts aliases as one mailbox',
    async () => {
      const local = `bu.yer${hex()}`
      const answers: number[] = []
      for (let i = 0; i < 12; i++) {
        const alias =
          i % 3 === 0
            ? `${local}+${i}@gmail.com`
            : i % 3 === 1
              ? `${local.replace('.', '')}@googlemail.com`
              : `${local}@GMAIL.com`
        answers.push((await pubgOrder(alias)).status)
      }
      expect(answers.slice(0, 10).every((s) => s === 201)).toBe(true)
      expect(answers.slice(10)).toEqual([429, 429])
    },
    SLOW,
  )

  it(
    'the SQL key the risk rules and holds use equals the one the gate uses',
    async () => {
      const samples = [
        'Fraud.Ster+x@GoogleMail.com',
        ' a.b.c@gmail.com ',
        '...@gmail.com',
        '+tag@example.com',
        'Name+Tag@Example.ORG',
        'i.van-ov@ya.ru',
        'plain@mail.ru',
        'no-at-sign',
      ]
      for (const e of samples) {
        const [row] = await api.db
          .execute<{ k: string }>(sql`select ${emailKeySql(sql`${e}::text`)} as k`)
          .then((r) => ((r as { rows?: unknown }).rows ?? r) as Array<{ k: string }>)
        expect(row?.k, e).toBe(emailKey(e))
      }
    },
    SLOW,
  )
})

describe('finding 6: gift orders pass the guard, as every order-creation operation of the contract', () => {
  const creations = Object.entries(schema.paths as Record<string, Record<string, { responses?: object }>>)
    .filter(([, ops]) => ops.post?.responses && '201' in ops.post.responses)
    .map(([p]) => p)
    .sort()

  it(
    'every operation that creates an order refuses a blocked email with 403 and documents 403 and 429',
    async () => {
      const [gift] = await api.db.select().from(gifts).where(eq(gifts.isActive, true)).limit(1)
      const email = `blocked-${hex()}@example.com`
      expect((await block('email', email)).status).toBe(200)
      const bodies: Record<string, unknown> = {
        '/api/orders/pubg/': { products: [{ product_id: pubg, quantity: 1 }], email },
        '/api/orders/rokky/': { gift: gift!.id, email },
        '/api/orders/standoff/': { products: [{ product_id: 1, quantity: 1 }], email, game_account_id: '1' },
        '/api/orders/steam/': { amount: '500', email, steam_account_id: 'x' },
        '/api/orders/supply_channel/': { products: [{ product_id: 1, quantity: 1 }], email },
      }
      // a new order route must be added here, and so be seen guarded
      expect(creations).toEqual(Object.keys(bodies).sort())
      for (const path of creations) {
        const r = await api.call<Err>('POST', path, { body: bodies[path], headers: from(v4()) })
        expect([path, r.status, r.body.code]).toEqual([path, 403, 'buyer_blocked'])
        const documented = Object.keys(
          (schema.paths as unknown as Record<string, { post: { responses: object } }>)[path]!.post.responses,
        )
        expect(documented).toEqual(expect.arrayContaining(['403', '429']))
      }
    },
    SLOW,
  )

  it(
    '40 gift orders from one address: 429 after 30',
    async () => {
      const [gift] = await api.db.select().from(gifts).where(eq(gifts.isActive, true)).limit(1)
      const ip = v4()
      const answers: number[] = []
      for (let i = 0; i < 40; i++) {
        const r = await api.call('POST', '/api/orders/rokky/', {
          body: { gift: gift!.id, email: `g-${hex()}@example.com` },
          headers: from(ip),
        })
        answers.push(r.status)
      }
      expect(answers.filter((s) => s === 201)).toHaveLength(30)
      expect(answers.slice(30).every((s) => s === 429)).toBe(true)
    },
    SLOW,
  )
})

describe('finding 7: a provider notification refused for its address', () => {
  it(
    'opens one staff alert naming the address',
    async () => {
      const yk = await createTestApi({
        seed: false,
        env: { YOOKASSA_SHOP_ID: '501234', YOOKASSA_SECRET_KEY: 'k', YOOKASSA_NOTIFY_FROM: '185.71.76.0/27' },
      })
      try {
        for (let i = 0; i < 3; i++) {
          const r = await yk.app.request('/api/payments/yookassa/notify/', {
            method: 'POST',
            headers: { 'content-type': 'application/json', [CLIENT_IP_HEADER]: '10.0.0.2' },
            body: JSON.stringify({
              type: 'notification',
              event: 'payment.succeeded',
              object: { id: randomUUID() },
            }),
          })
          expect(r.status).toBe(403)
        }
        const alerts = await yk.db
          .select()
          .from(staffAlerts)
          .where(sql`${staffAlerts.cause} like 'notify_refused:%'`)
        expect(alerts).toHaveLength(1)
        expect(alerts[0]!.detail).toMatch(/10\.0\.0\.2/)
        expect(alerts[0]!.closedAt).toBeNull()
      } finally {
        await yk.close()
      }
    },
    SLOW,
  )
})
