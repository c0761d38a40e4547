// Guests find their orders: the same answer for every email, one mail with a 24-hour link for an
// email with orders (none for one without), the list behind the link, limits, and tokens refused
// when expired, altered, or made for anything else.
import { randomUUID } from 'node:crypto'
import { EncryptJWT } from 'jose'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { jobs, rateLimits } from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { CLIENT_IP_HEADER } from '#api/lib/client-address'
import { purposeKey, signLookupToken, verifyLookupToken } from '#api/services/mail/lookup-token'
import { closeMailTransport } from '#api/services/mail/send-job'
import { startTestSmtp, type TestSmtp } from '#tests/helpers/smtp'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import {
  createPubgOrder,
  hex,
  makePubgStock,
  makeSandboxMethod,
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
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com', PUBLIC_URL: 'https://shop.example' },
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
  await api.db.delete(jobs)
  await api.db.delete(rateLimits)
  smtp.received.length = 0
})

const worker = () => createJobWorker(deps, { handlers: JOB_HANDLERS, onError: () => {} })
const ask = (email: string, address = '203.0.113.7') =>
  api.call<{ detail: string; code?: string }>('POST', '/api/orders/lookup/', {
    body: { email },
    headers: { [CLIENT_IP_HEADER]: address },
  })
type ListAnswer = {
  email: string
  expires: string
  results: Array<{ id: string; status: string; order_products?: Array<{ codes?: Array<{ code: string }> }> }>
  account_order_ids: string[]
  detail?: string
  code?: string
}
const open = (token: string, address = '203.0.113.7') =>
  api.call<ListAnswer>('GET', `/api/orders/lookup/${token}/`, { headers: { [CLIENT_IP_HEADER]: address } })

async function paidOrder(email: string) {
  const { product } = await makePubgStock(api, { codes: 1 })
  const id = await createPubgOrder(api, product.id, { quantity: 1, email })
  const started = await pay(api, method, id)
  await pressOnCheckout(api, started.body.payment_id, 'confirm')
  return id
}

/** The token of the link in a look-up mail. */
function tokenIn(text: string): string {
  const m = /https:\/\/shop\.example\/orders\/lookup\/([A-Za-z0-9_.-]+)/.exec(text)
  expect(m, 'a look-up link in the mail').toBeTruthy()
  return m![1]!
}

describe('asking for the list', () => {
  it('answers the same whether or not the email has orders, and mails only the one that has', async () => {
    const buyer = `lookup-${hex()}@example.com`
    const stranger = `nobody-${hex()}@example.com`
    const paid = await paidOrder(buyer)
    const unpaid = await createPubgOrder(api, (await makePubgStock(api, { codes: 1 })).product.id, {
      email: buyer,
    })
    await api.db.delete(jobs) // the order's own mail is not under test here

    const [a, b] = [await ask(buyer), await ask(stranger)]
    expect(a.status).toBe(202)
    expect(b.status).toBe(202)
    expect(a.body).toEqual(b.body)
    expect(a.body.detail).toContain('Если на этот адрес оформлялись заказы')
    // the same work for both: one queued mail job each
    const queued = await api.db.select().from(jobs)
    expect(queued.map((j) => (j.payload as { template: string }).template)).toEqual([
      'order_lookup',
      'order_lookup',
    ])
    expect(queued.every((j) => !j.dedupeKey!.includes('@'))).toBe(true)

    await worker().runDue()
    const [mail] = await smtp.waitFor(1)
    await new Promise((r) => setTimeout(r, 100))
    expect(smtp.received).toHaveLength(1)
    expect(mail!.envelopeTo).toEqual([buyer])
    // a shop whose owner has not named it yet is «Магазин» outside the demo (issue 37)
    expect(mail!.subject).toBe('Ваши заказы в магазине Магазин')
    expect(mail!.text).toContain('24 часа')
    expect((await api.db.select().from(jobs)).every((j) => j.status === 'done')).toBe(true)

    const list = await open(tokenIn(mail!.text))
    expect(list.status).toBe(200)
    expect(list.headers.get('cache-control')).toBe('private, no-store')
    expect(list.body.email).toBe(buyer)
    expect(list.body.results.map((o) => o.id)).toEqual([unpaid, paid])
    expect(list.body.results.map((o) => o.status)).toEqual(['created', 'done'])
    const codes = list.body.results[1]!.order_products!.flatMap((l) => l.codes ?? [])
    expect(codes).toHaveLength(1)
    expect(new Date(list.body.expires).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000)
    expect(list.body.account_order_ids).toEqual([])
  })

  it('finds orders whatever the case of the address, and marks orders placed while signed in', async () => {
    const email = `Case-${hex()}@Example.com`
    await createPubgOrder(api, (await makePubgStock(api, { codes: 1 })).product.id, { email })
    const member = await api.call<{ access: string }>('POST', '/api/auth/jwt/create/', {
      body: { email: email.toLowerCase(), password: 'correct horse battery' },
    })
    const mine = await createPubgOrder(api, (await makePubgStock(api, { codes: 1 })).product.id, {
      token: member.body.access,
    })
    const token = await signLookupToken(api.config.jwtSecret, email.toLowerCase())
    const list = await open(token)
    expect(list.body.results).toHaveLength(2)
    expect(list.body.account_order_ids).toEqual([mine])
  })

  it('sends one mail for repeated requests within minutes', async () => {
    const email = `twice-${hex()}@example.com`
    await paidOrder(email)
    await api.db.delete(jobs)
    expect((await ask(email)).status).toBe(202)
    expect((await ask(email)).status).toBe(202)
    expect(await api.db.select().from(jobs)).toHaveLength(1)
    await worker().runDue()
    await smtp.waitFor(1)
    expect(smtp.received).toHaveLength(1)
  })

  it('limits requests per email (3 an hour) and per client address (10 an hour)', async () => {
    const email = `limited-${hex()}@example.com`
    // issue 38, finding 6: strangers asking for someone's email from several addresses…
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) expect((await ask(email, `198.51.100.${i + 1}`)).status).toBe(202)
    expect((await ask(email, '198.51.100.1')).status).toBe(429)
    // …never refuse its owner at their own address
    for (let i = 0; i < 3; i++) expect((await ask(email, '198.51.100.9')).status).toBe(202)
    const refused = await ask(email, '198.51.100.9')
    expect(refused.status).toBe(429)
    expect(refused.body.code).toBe('rate_limited')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)

    for (let i = 0; i < 10; i++)
      expect((await ask(`a${i}-${hex()}@example.com`, '192.0.2.50')).status).toBe(202)
    expect((await ask(`late-${hex()}@example.com`, '192.0.2.50')).status).toBe(429)
    expect((await ask(`late-${hex()}@example.com`, '192.0.2.51')).status).toBe(202)
    // no addresses in the counters
    const keys = (await api.db.select().from(rateLimits)).map((r) => r.key)
    expect(keys.some((k) => k.includes('@'))).toBe(false)
  })

  it('refuses a malformed email with a field message', async () => {
    const r = await ask('not-an-email')
    expect(r.status).toBe(400)
    expect(JSON.stringify(r.body)).toContain('Неверный адрес электронной почты')
  })
})

describe('the link', () => {
  const email = 'holder@example.com'

  it('expires after 24 hours', async () => {
    const issued = new Date(Date.now() - 24 * 3600_000 - 5_000)
    const old = await signLookupToken(api.config.jwtSecret, email, issued)
    expect(
      await verifyLookupToken(api.config.jwtSecret, old, new Date(issued.getTime() + 23 * 3600_000)),
    ).not.toBeNull()
    const r = await open(old)
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('order_lookup_link_invalid')
    expect(r.body.detail).toContain('Запросите новую')
  })

  it('is refused when made for another purpose, with another secret, or altered', async () => {
    const secret = api.config.jwtSecret
    const now = Math.floor(Date.now() / 1000)
    const claims = { email, iat: now, exp: now + 3600 }
    // the same machinery, another purpose (e.g. a password-reset link): another key, does not open
    const otherPurpose = await new EncryptJWT({ ...claims, pur: 'password_reset' })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(purposeKey(secret, 'password_reset'))
    // this purpose's key but another purpose inside
    const wrongClaim = await new EncryptJWT({ ...claims, pur: 'password_reset' })
      .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
      .encrypt(purposeKey(secret, 'order_lookup'))
    const otherSecret = await signLookupToken('another-secret-another-secret-another!', email)
    const good = await signLookupToken(secret, email)
    const parts = good.split('.')
    parts[3] = `${parts[3]!.slice(0, -2)}${parts[3]!.endsWith('AA') ? 'BB' : 'AA'}`
    const altered = parts.join('.')
    // a sign-in token of the shop is not a look-up link either
    const signIn = await api.call<{ access: string }>('POST', '/api/auth/jwt/create/', {
      body: { email: `${randomUUID()}@example.com`, password: 'correct horse battery' },
    })
    for (const token of [otherPurpose, wrongClaim, otherSecret, altered, signIn.body.access]) {
      const r = await open(token)
      expect(r.status, token.slice(0, 20)).toBe(400)
    }
    expect((await open(good)).status).toBe(200)
  })

  it('does not carry the email in the clear', async () => {
    const token = await signLookupToken(api.config.jwtSecret, email)
    const decoded = token
      .split('.')
      .map((p) => Buffer.from(p, 'base64url').toString('latin1'))
      .join(' ')
    expect(decoded).not.toContain('holder')
  })

  it('limits how often one address opens links', async () => {
    const token = await signLookupToken(api.config.jwtSecret, email)
    await api.db
      .insert(rateLimits)
      .values({ key: 'lookup:view:192.0.2.99', count: 120, windowStart: new Date() })
    const r = await open(token, '192.0.2.99')
    expect(r.status).toBe(429)
    expect(r.headers.get('retry-after')).toMatch(/^[1-9]\d*$/)
    expect((await open(token, '192.0.2.98')).status).toBe(200)
    await api.db.delete(rateLimits).where(eq(rateLimits.key, 'lookup:view:192.0.2.99'))
  })
})
