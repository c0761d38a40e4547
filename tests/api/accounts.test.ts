// Accounts people can trust (issue 13, items 4 and 6 of issue 20): a confirmed email, password
// reset and change by mail, the pre-account takeover closed in both orders of events, sessions that
// end at once, and a deleted account's orders kept private. Mails are read from a real SMTP server.
import { eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { ApiDeps } from '#api/context'
import { accountTokens, jobs, orders, rateLimits, socialAccounts, users } from '#api/db/schema'
import { JOB_HANDLERS } from '#api/jobs/handlers'
import { createJobWorker } from '#api/jobs/worker'
import { CLIENT_IP_HEADER } from '#api/lib/client-address'
import { staffMember } from '#api/services/admin/roles'
import { closeMailTransport } from '#api/services/mail/send-job'
import { signInWithIdentity } from '#api/services/social/accounts'
import { type ReceivedMail, startTestSmtp, type TestSmtp } from '#tests/helpers/smtp'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, hex, makePubgStock } from './payments-fixtures'

type Tokens = { access: string; refresh: string; is_signed_up: boolean }
type Err = { detail: string; code: string; fields?: Record<string, string[]> }
type Profile = { id: number; email: string | null; email_confirmed: boolean }

const PASSWORD = 'Sunny-Harbour-77'
const NEW_PASSWORD = 'Quiet-Lantern-31'

let api: TestApi
let smtp: TestSmtp
let deps: ApiDeps

beforeAll(async () => {
  smtp = await startTestSmtp()
  api = await createTestApi({
    env: { SMTP_URL: smtp.url, MAIL_FROM: 'shop@example.com', PUBLIC_URL: 'https://shop.example' },
  })
  deps = api.deps
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

const email = (name: string) => `${name}-${hex()}@example.com`
let ip = 0
const nextAddress = () => `10.9.${Math.floor(++ip / 250)}.${ip % 250}`

const signIn = (address: string, password = PASSWORD, from = nextAddress()) =>
  api.call<Tokens & Err>('POST', '/api/auth/jwt/create/', {
    body: { email: address, password },
    headers: { [CLIENT_IP_HEADER]: from },
  })
const refresh = (token: string) =>
  api.call<Tokens & Err>('POST', '/api/auth/jwt/refresh/', { body: { refresh: token } })
const profile = (token: string) => api.call<Profile & Err>('GET', '/api/auth/profile/', { token })
const post = <T = { detail: string }>(
  path: string,
  body?: unknown,
  opts: { token?: string; from?: string } = {},
) =>
  api.call<T & Err>('POST', path, {
    body,
    token: opts.token,
    headers: { [CLIENT_IP_HEADER]: opts.from ?? '10.8.0.1' },
  })

/** Runs every due job (the reset job, then the mails it queued) and returns the mails sent. */
async function deliver(): Promise<ReceivedMail[]> {
  const before = smtp.received.length
  await createJobWorker(deps, { handlers: JOB_HANDLERS, onError: () => {} }).runDue()
  return smtp.received.slice(before)
}

/** The token of the shop link `path?token=…` in a mail's text. */
function tokenIn(mail: ReceivedMail | undefined, path: string): string {
  const m = new RegExp(`https://shop\\.example${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail?.text ?? '')
  expect(m, `a ${path} link in the mail`).toBeTruthy()
  return m![1]!
}

async function signUpConfirmed(address: string) {
  const up = await signIn(address)
  expect(up.status).toBe(200)
  const mail = (await deliver()).find((m) => m.envelopeTo.includes(address))
  // opened in the browser that signed up (signed in to the account): the password stays
  const confirmed = await post(
    '/api/auth/email/confirm/',
    { token: tokenIn(mail, '/auth/confirm') },
    { token: up.body.access },
  )
  expect(confirmed.status).toBe(200)
  return up.body
}

describe('email confirmation', () => {
  it('a sign-up is unconfirmed until the mailed link is opened, once', async () => {
    const address = email('confirm')
    const up = await signIn(address)
    expect(up.status).toBe(200)
    expect(up.body.is_signed_up).toBe(true)
    expect((await profile(up.body.access)).body.email_confirmed).toBe(false)

    const mails = await deliver()
    expect(mails).toHaveLength(1)
    expect(mails[0]!.envelopeTo).toEqual([address])
    expect(mails[0]!.text).toContain('48')
    const token = tokenIn(mails[0], '/auth/confirm')
    // stored hashed: the token is nowhere in the database (neither the link row nor the mail job)
    const rows = await api.db.select().from(accountTokens)
    expect(JSON.stringify(rows)).not.toContain(token)
    expect(JSON.stringify(await api.db.select().from(jobs))).not.toContain(token)

    const ok = await post('/api/auth/email/confirm/', { token }, { token: up.body.access })
    expect(ok.status).toBe(200)
    expect(ok.body.detail).toBe('Почта подтверждена')
    expect((await profile(up.body.access)).body.email_confirmed).toBe(true)

    const again = await post('/api/auth/email/confirm/', { token })
    expect(again.status).toBe(400)
    expect(again.body.code).toBe('confirm_link_invalid')
    expect(again.body.detail).toMatch(/устарела или уже использована/)
  })

  it('an expired or altered link does nothing; a resent link replaces the old one', async () => {
    const up = await signIn(email('expired'))
    const first = tokenIn((await deliver())[0], '/auth/confirm')
    const resent = await post('/api/auth/email/confirm/resend/', undefined, { token: up.body.access })
    expect(resent.status).toBe(202)
    const second = tokenIn((await deliver())[0], '/auth/confirm')
    expect(second).not.toBe(first)
    expect((await post('/api/auth/email/confirm/', { token: first })).status).toBe(400)
    expect(
      (
        await post('/api/auth/email/confirm/', {
          token: `${second.slice(0, -1)}${second.endsWith('A') ? 'B' : 'A'}`,
        })
      ).status,
    ).toBe(400)
    await api.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.purpose, 'confirm_email'))
    expect((await post('/api/auth/email/confirm/', { token: second })).status).toBe(400)
    expect((await profile(up.body.access)).body.email_confirmed).toBe(false)
  })

  it('resending is for unconfirmed signed-in users, three times an hour', async () => {
    expect((await post('/api/auth/email/confirm/resend/')).status).toBe(401)
    const up = await signIn(email('resend'))
    for (let i = 0; i < 3; i++)
      expect(
        (await post('/api/auth/email/confirm/resend/', undefined, { token: up.body.access })).status,
      ).toBe(202)
    const limited = await post('/api/auth/email/confirm/resend/', undefined, { token: up.body.access })
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)

    const done = await signUpConfirmed(email('already'))
    const r = await post('/api/auth/email/confirm/resend/', undefined, { token: done.access })
    expect(r.status).toBe(400)
    expect(r.body.detail).toBe('Почта уже подтверждена')
  })

  it('the ADMIN_EMAILS role needs a confirmed email', async () => {
    const address = email('boss')
    const up = await signIn(address)
    const me = (await profile(up.body.access)).body
    expect(await staffMember(api.db, me.id, [address])).toBeNull()
    const token = tokenIn((await deliver())[0], '/auth/confirm')
    await post('/api/auth/email/confirm/', { token }, { token: up.body.access })
    expect(await staffMember(api.db, me.id, [address])).toMatchObject({ role: 'owner' })
  })

  it('an account promo code needs a confirmed email', async () => {
    const up = await signIn(email('promo'))
    const r = await post('/api/promo_codes/activate/', { code: 'WELCOME10' }, { token: up.body.access })
    expect(r.status).toBe(403)
    expect(r.body.detail).toBe('Сначала подтвердите почту: откройте ссылку из письма')
    const token = tokenIn((await deliver())[0], '/auth/confirm')
    await post('/api/auth/email/confirm/', { token }, { token: up.body.access })
    const ok = await post('/api/promo_codes/activate/', { code: 'WELCOME10' }, { token: up.body.access })
    expect(ok.status).toBe(200)
  })
})

describe('new passwords', () => {
  it('refuses passwords that are easy to guess, in Russian, at sign-up', async () => {
    for (const [password, text] of [
      ['password', /самых частых паролей/],
      ['qwertyuiop', /самых частых паролей|Ряды клавиш/],
      ['12345678', /самых частых паролей/],
    ] as const) {
      const r = await signIn(email('weak'), password)
      expect(r.status).toBe(400)
      expect(r.body.fields?.password?.[0]).toMatch(text)
    }
    const own = email('selfie')
    const r = await signIn(own, `${own.split('@')[0]}`)
    expect(r.status).toBe(400)
    expect(r.body.fields?.password?.[0]).toBeTruthy()
    expect(await api.db.select().from(users).where(eq(users.email, own))).toEqual([])
  })
})

describe('pre-account takeover', () => {
  const googleIdentity = (address: string) => ({ id: `g-${hex()}`, email: address, nickname: 'Алиса' })

  it('a squatter’s password account is claimed by the owner’s verified social sign-in', async () => {
    const alice = email('alice')
    const squatter = await signIn(alice, 'Squatter-Pass-99')
    expect(squatter.body.is_signed_up).toBe(true)
    const me = (await profile(squatter.body.access)).body
    await api.db
      .insert(socialAccounts)
      .values({ userId: me.id, provider: 'vk', providerUserId: `sq-${hex()}` })

    const { userId } = await signInWithIdentity(
      api.db,
      api.config.jwtSecret,
      'google',
      googleIdentity(alice),
      undefined,
    )
    expect(userId).toBe(me.id)
    // everything the squatter could get back in with is gone
    expect((await signIn(alice, 'Squatter-Pass-99')).status).toBe(401)
    expect((await refresh(squatter.body.refresh)).status).toBe(400)
    expect((await profile(squatter.body.access)).status).toBe(401)
    const bound = await api.db.select().from(socialAccounts).where(eq(socialAccounts.userId, me.id))
    expect(bound.map((b) => b.provider)).toEqual(['google'])
    const [row] = await api.db.select().from(users).where(eq(users.id, me.id))
    expect(row?.passwordHash).toBeNull()
    expect(row?.emailConfirmedAt).toBeInstanceOf(Date)
  })

  it('after the owner’s social sign-in, nobody can sign up or in with that email and a password', async () => {
    const alice = email('alice-first')
    const { userId, created } = await signInWithIdentity(
      api.db,
      api.config.jwtSecret,
      'google',
      googleIdentity(alice),
      undefined,
    )
    expect(created).toBe(true)
    const squatter = await signIn(alice, 'Squatter-Pass-99')
    expect(squatter.status).toBe(401)
    expect(squatter.body.access).toBeUndefined()
    const [row] = await api.db.select().from(users).where(eq(users.id, userId))
    expect(row).toMatchObject({ passwordHash: null, email: alice })
    expect(row?.emailConfirmedAt).toBeInstanceOf(Date)
  })

  it('a confirmed account keeps its password when the owner adds a social sign-in', async () => {
    const bob = email('bob')
    const t = await signUpConfirmed(bob)
    const me = (await profile(t.access)).body
    const { userId } = await signInWithIdentity(
      api.db,
      api.config.jwtSecret,
      'google',
      googleIdentity(bob),
      undefined,
    )
    expect(userId).toBe(me.id)
    expect((await signIn(bob)).status).toBe(200)
    expect((await profile(t.access)).status).toBe(200)
  })
})

describe('password reset', () => {
  const ask = (address: string, from = '10.7.0.1') =>
    post('/api/auth/password/reset/', { email: address }, { from })

  it('answers the same for any email, mails a 30-minute link only to an account, and ends every sign-in', async () => {
    const address = email('forgot')
    const a = await signUpConfirmed(address)
    const b = (await signIn(address)).body
    await api.db.delete(jobs)

    const [known, unknown] = [await ask(address), await ask(email('nobody'))]
    expect(known.status).toBe(202)
    expect(unknown.status).toBe(202)
    expect(known.body).toEqual(unknown.body)
    expect(known.body.detail).toMatch(/Если аккаунт с этой почтой есть/)
    // the same work for both: one queued job each, without the address in its key
    const queued = await api.db.select().from(jobs)
    expect(queued.map((j) => j.kind)).toEqual(['auth.password_reset', 'auth.password_reset'])
    expect(queued.every((j) => !j.dedupeKey!.includes('@'))).toBe(true)

    const mails = await deliver()
    expect(mails).toHaveLength(1)
    expect(mails[0]!.envelopeTo).toEqual([address])
    expect(mails[0]!.text).toContain('30')
    const token = tokenIn(mails[0], '/auth/reset')
    expect((await post('/api/auth/password/reset/check/', { token })).status).toBe(200)

    // a weak password is refused and the link keeps working
    const weak = await post('/api/auth/password/reset/confirm/', { token, password: 'password1' })
    expect(weak.status).toBe(400)
    expect(weak.body.fields?.password?.[0]).toMatch(/пароль|паролей/)

    const done = await post('/api/auth/password/reset/confirm/', { token, password: NEW_PASSWORD })
    expect(done.status).toBe(200)
    expect(done.body.detail).toMatch(/Войдите с новым паролем/)
    for (const t of [a, b]) {
      expect((await profile(t.access)).status).toBe(401)
      expect((await refresh(t.refresh)).status).toBe(400)
    }
    expect((await signIn(address)).status).toBe(401)
    expect((await signIn(address, NEW_PASSWORD)).status).toBe(200)

    const again = await post('/api/auth/password/reset/confirm/', { token, password: 'Another-Lantern-32' })
    expect(again.status).toBe(400)
    expect(again.body.code).toBe('reset_link_invalid')
    expect((await post('/api/auth/password/reset/check/', { token })).status).toBe(400)

    const notice = await deliver()
    expect(notice).toHaveLength(1)
    expect(notice[0]!.envelopeTo).toEqual([address])
  })

  it('an expired link, a link of another purpose, or garbage do nothing', async () => {
    const address = email('late')
    await signIn(address)
    const confirmToken = tokenIn((await deliver())[0], '/auth/confirm')
    await ask(address)
    const token = tokenIn((await deliver())[0], '/auth/reset')
    for (const bad of [confirmToken, 'garbage', `${token.slice(0, -2)}xx`]) {
      const r = await post('/api/auth/password/reset/confirm/', { token: bad, password: NEW_PASSWORD })
      expect(r.status).toBe(400)
      expect(r.body.detail).toMatch(/Запросите новую/)
    }
    await api.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.purpose, 'password_reset'))
    expect((await post('/api/auth/password/reset/confirm/', { token, password: NEW_PASSWORD })).status).toBe(
      400,
    )
    expect((await signIn(address)).status).toBe(200)
  })

  it('a reset of a squatted, unconfirmed account hands it to the email’s owner', async () => {
    const alice = email('reset-alice')
    const squatter = await signIn(alice, 'Squatter-Pass-99')
    const me = (await profile(squatter.body.access)).body
    await api.db
      .insert(socialAccounts)
      .values({ userId: me.id, provider: 'vk', providerUserId: `sq-${hex()}` })
    await deliver()
    await ask(alice)
    const token = tokenIn((await deliver())[0], '/auth/reset')
    expect((await post('/api/auth/password/reset/confirm/', { token, password: NEW_PASSWORD })).status).toBe(
      200,
    )
    expect((await signIn(alice, 'Squatter-Pass-99')).status).toBe(401)
    expect(await api.db.select().from(socialAccounts).where(eq(socialAccounts.userId, me.id))).toEqual([])
    const mine = await signIn(alice, NEW_PASSWORD)
    expect((await profile(mine.body.access)).body).toMatchObject({ id: me.id, email_confirmed: true })
  })

  it('is limited per email and per client address, with Retry-After', async () => {
    const address = email('spam')
    // issue 38, finding 6: strangers asking for someone's email from anywhere (three times each)…
    for (let i = 0; i < 3; i++)
      for (let j = 0; j < 3; j++) expect((await ask(address, `10.6.0.${i}`)).status).toBe(202)
    expect((await ask(address, '10.6.0.0')).status).toBe(429)
    // …never refuse the owner at their own address, and the owner's reset goes out
    await api.db.delete(jobs)
    expect((await ask(address, '10.6.0.99')).status).toBe(202)
    expect((await api.db.select().from(jobs)).map((j) => j.kind)).toEqual(['auth.password_reset'])
    for (let i = 0; i < 2; i++) expect((await ask(address, '10.6.0.99')).status).toBe(202)
    const perEmail = await ask(address, '10.6.0.99')
    expect(perEmail.status).toBe(429)
    expect(perEmail.body.detail).toMatch(/Слишком много попыток/)
    expect(Number(perEmail.headers.get('retry-after'))).toBeGreaterThan(0)

    for (let i = 0; i < 10; i++) expect((await ask(email(`many${i}`), '10.6.1.1')).status).toBe(202)
    expect((await ask(email('one-more'), '10.6.1.1')).status).toBe(429)
    // counters name no address
    const keys = (await api.db.select().from(rateLimits).where(like(rateLimits.key, 'reset:%'))).map(
      (r) => r.key,
    )
    expect(keys.some((k) => k.includes('@'))).toBe(false)
  })
})

describe('password change', () => {
  const change = (token: string, current: string, next: string) =>
    post('/api/auth/password/change/', { current_password: current, new_password: next }, { token })

  it('needs the current password, keeps this sign-in and ends the others', async () => {
    const address = email('change')
    const here = await signUpConfirmed(address)
    const elsewhere = (await signIn(address)).body
    expect(
      (await post('/api/auth/password/change/', { current_password: PASSWORD, new_password: NEW_PASSWORD }))
        .status,
    ).toBe(401)

    const wrong = await change(here.access, 'Not-The-Password-1', NEW_PASSWORD)
    expect(wrong.status).toBe(400)
    expect(wrong.body.fields?.current_password?.[0]).toBe('Нынешний пароль указан неверно')
    const weak = await change(here.access, PASSWORD, 'password1')
    expect(weak.status).toBe(400)
    expect(weak.body.fields?.new_password?.[0]).toBeTruthy()

    const ok = await change(here.access, PASSWORD, NEW_PASSWORD)
    expect(ok.status).toBe(200)
    expect(ok.body.detail).toMatch(/Остальные входы в аккаунт завершены/)
    expect((await profile(here.access)).status).toBe(200)
    expect((await refresh(here.refresh)).status).toBe(200)
    expect((await profile(elsewhere.access)).status).toBe(401)
    expect((await refresh(elsewhere.refresh)).status).toBe(400)
    expect((await signIn(address)).status).toBe(401)
    expect((await signIn(address, NEW_PASSWORD)).status).toBe(200)
    const mails = await deliver()
    expect(mails.map((m) => m.envelopeTo[0])).toEqual([address])
    expect(mails[0]!.subject).toMatch(/[Пп]ароль/)
  })

  it('allows five attempts per 15 minutes', async () => {
    const t = (await signIn(email('guesser'))).body
    for (let i = 0; i < 5; i++)
      expect((await change(t.access, `Wrong-Guess-${i}0`, NEW_PASSWORD)).status).toBe(400)
    const r = await change(t.access, PASSWORD, NEW_PASSWORD)
    expect(r.status).toBe(429)
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
  })
})

describe('sessions end at once', () => {
  it('logout refuses that sign-in’s access token at once; other sign-ins stay', async () => {
    const address = email('logout')
    const a = (await signIn(address)).body
    const b = (await signIn(address)).body
    expect((await api.call('POST', '/api/auth/logout/', { body: { refresh: a.refresh } })).status).toBe(204)
    const after = await profile(a.access)
    expect(after.status).toBe(401)
    expect(after.body.code).toBe('token_not_valid')
    expect((await profile(b.access)).status).toBe(200)
  })

  it('a deleted account’s token creates nothing, and its orders stay private', async () => {
    const t = (await signIn(email('gone'))).body
    const { product } = await makePubgStock(api, { codes: 2 })
    const orderId = await createPubgOrder(api, product.id, { token: t.access })
    expect((await api.call('POST', '/api/auth/profile/delete/', { token: t.access })).status).toBe(204)

    const create = await api.call('POST', '/api/orders/pubg/', {
      token: t.access,
      body: { products: [{ product_id: product.id, quantity: 1 }] },
    })
    expect(create.status).toBe(401)
    expect((await api.call('GET', `/api/orders/${orderId}/`)).status).toBe(404)
    const [order] = await api.db.select().from(orders).where(eq(orders.id, orderId))
    expect(order?.userId).not.toBeNull()
    expect(order?.email).toBeNull()
  })
})
