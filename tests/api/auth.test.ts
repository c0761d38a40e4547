import { eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rateLimits, refreshTokens, users } from '#api/db/schema'
import { signInKeys } from '#api/services/auth/sign-in-throttle'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

type Tokens = { access: string; refresh: string; is_signed_up: boolean }
type Err = { detail: string; code: string; fields?: Record<string, string[]> }

let api: TestApi
beforeAll(async () => {
  api = await createTestApi({
    env: {
      SIGNIN_LIMIT_PER_PAIR: '3',
      SIGNIN_LIMIT_PER_ACCOUNT: '3',
      SIGNIN_LIMIT_PER_ADDRESS: '6',
      SIGNIN_LIMIT_WINDOW: '600',
      SIGNIN_SLOWDOWN_MAX_MS: '400',
    },
  })
})
afterAll(() => api.close())

let ip = 0
/** Each call from its own address unless told, so only the per-account limit applies. */
const signIn = (email: string, password: string, address = `10.0.0.${++ip}`) =>
  api.call<Tokens & Err>('POST', '/api/auth/jwt/create/', {
    body: { email, password },
    headers: { 'x-shop-client-ip': address },
  })

describe('sign-up and sign-in by email', () => {
  it('creates an account for an unknown email and signs in with it later', async () => {
    const up = await signIn('New.Buyer@Example.com', 'correct horse')
    expect(up.status).toBe(200)
    expect(up.body.is_signed_up).toBe(true)
    // two signed tokens (header.payload.signature)
    expect(up.body.access).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(up.body.refresh).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/)

    const again = await signIn('new.buyer@example.com', 'correct horse')
    expect(again.status).toBe(200)
    expect(again.body.is_signed_up).toBe(false)

    const [row] = await api.db.select().from(users).where(eq(users.email, 'new.buyer@example.com'))
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/)
  })

  it('refuses a wrong password with a 401 in Russian', async () => {
    await signIn('wrong@example.com', 'right password')
    const r = await signIn('wrong@example.com', 'not the password')
    expect(r.status).toBe(401)
    expect(r.body.code).toBe('wrong_password')
    expect(r.body.detail).toBe('Неверный пароль')
  })

  it('validates email and password length with Russian messages', async () => {
    const short = await signIn('short@example.com', '1234567')
    expect(short.status).toBe(400)
    expect(short.body.fields?.password?.[0]).toContain('не короче 8')
    const bad = await signIn('not-an-email', 'long enough pw')
    expect(bad.status).toBe(400)
    expect(bad.body.fields?.email?.[0]).toContain('почты')
  })

  it('limits attempts per account and address with a 429, Retry-After and a message', async () => {
    const address = '198.51.100.4'
    await signIn('limited@example.com', 'the password 1')
    for (let i = 0; i < 3; i++)
      expect((await signIn('limited@example.com', `guess number ${i}`, address)).status).toBe(401)
    const blocked = await signIn('limited@example.com', 'the password 1', address)
    expect(blocked.status).toBe(429)
    expect(blocked.body.code).toBe('rate_limited')
    expect(blocked.body.detail).toMatch(/Слишком много попыток/)
    const retry = Number(blocked.headers.get('retry-after'))
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(600)
  })

  it('an attacker cannot lock the owner out: the right password from another address works', async () => {
    await signIn('owner@example.com', 'the password 1')
    const attacker = '203.0.113.66'
    for (let i = 0; i < 3; i++) await signIn('owner@example.com', `guess number ${i}`, attacker)
    expect((await signIn('owner@example.com', 'guess number 4', attacker)).status).toBe(429)
    // the owner, from home
    expect((await signIn('owner@example.com', 'the password 1', '198.51.100.200')).status).toBe(200)
  })

  it('failures spread over many addresses slow the account down but never refuse its owner', async () => {
    await signIn('spread@example.com', 'the password 1')
    for (let i = 0; i < 6; i++)
      expect((await signIn('spread@example.com', `spread guess ${i}`)).status).toBe(401)
    // past SIGNIN_LIMIT_PER_ACCOUNT (3) failures each attempt waits before the check (here up to 0.4 s)
    const started = Date.now()
    const owner = await signIn('spread@example.com', 'the password 1')
    expect(owner.status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(390)
    // and the right password forgot the failures: no more waiting
    const { failures } = signInKeys(api.config.jwtSecret, 'spread@example.com', '')
    expect(await api.db.select().from(rateLimits).where(eq(rateLimits.key, failures))).toEqual([])
  })

  it('limits attempts per client address across accounts', async () => {
    const address = '192.0.2.77'
    for (let i = 0; i < 6; i++)
      expect((await signIn(`addr${i}@example.com`, 'Plum-Otter-42', address)).status).toBe(200)
    const r = await signIn('addr-next@example.com', 'Plum-Otter-42', address)
    expect(r.status).toBe(429)
    expect((await signIn('addr-next@example.com', 'Plum-Otter-42', '192.0.2.78')).status).toBe(200)
  })

  it('forgets earlier failures of an account after a successful sign-in', async () => {
    await signIn('forgiven@example.com', 'the password')
    for (let i = 0; i < 2; i++) await signIn('forgiven@example.com', `bad guess ${i}`)
    expect((await signIn('forgiven@example.com', 'the password')).status).toBe(200)
    for (let i = 0; i < 2; i++)
      expect((await signIn('forgiven@example.com', `bad again ${i}`)).status).toBe(401)
  })

  it('starts a new window once the old one has passed', async () => {
    const address = '198.51.100.9'
    await signIn('window@example.com', 'the password 1')
    for (let i = 0; i < 3; i++) await signIn('window@example.com', `bad guess ${i}`, address)
    expect((await signIn('window@example.com', 'the password 1', address)).status).toBe(429)
    await api.db
      .update(rateLimits)
      .set({ windowStart: new Date(Date.now() - 11 * 60_000) })
      .where(like(rateLimits.key, `signin:pair:%:${address}`))
    expect((await signIn('window@example.com', 'the password 1', address)).status).toBe(200)
  })
})

const jti = (jwt: string) =>
  (JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { jti: string }).jti

describe('refresh token rotation', () => {
  const refresh = (token: string) =>
    api.call<{ access: string; refresh: string } & Err>('POST', '/api/auth/jwt/refresh/', {
      body: { refresh: token },
    })

  it('rotates: each refresh token works once, the new pair works', async () => {
    const first = (await signIn('rotate@example.com', 'the password')).body
    const r1 = await refresh(first.refresh)
    expect(r1.status).toBe(200)
    expect(r1.body.refresh).not.toBe(first.refresh)
    expect((await api.call('GET', '/api/auth/profile/', { token: r1.body.access })).status).toBe(200)
    const r2 = await refresh(r1.body.refresh)
    expect(r2.status).toBe(200)
  })

  it('reusing a used token revokes the whole sign-in (400), other sign-ins stay', async () => {
    const a = (await signIn('reuse@example.com', 'the password')).body
    const b = (await signIn('reuse@example.com', 'the password')).body
    const next = await refresh(a.refresh)
    expect(next.status).toBe(200)
    // replayed later than the grace period for concurrent requests
    await api.db
      .update(refreshTokens)
      .set({ usedAt: new Date(Date.now() - (api.config.refreshReuseGraceSeconds + 1) * 1000) })
      .where(eq(refreshTokens.id, jti(a.refresh)))
    const replay = await refresh(a.refresh)
    expect(replay.status).toBe(400)
    expect(replay.body.code).toBe('refresh_reused')
    // the thief's and the owner's newer token are both dead now
    expect((await refresh(next.body.refresh)).status).toBe(400)
    // a different sign-in of the same user is untouched
    expect((await refresh(b.refresh)).status).toBe(200)
  })

  it('two requests refreshing with one token at once both keep the sign-in (grace period)', async () => {
    const t = (await signIn('concurrent@example.com', 'the password')).body
    const [first, second] = await Promise.all([refresh(t.refresh), refresh(t.refresh)])
    expect([first.status, second.status]).toEqual([200, 200])
    expect((await refresh(first.body.refresh)).status).toBe(200)
    expect((await refresh(second.body.refresh)).status).toBe(200)
  })

  it('refresh tokens expire at a fixed time after sign-in, rotation does not extend it', async () => {
    const t = (await signIn('expiry@example.com', 'the password')).body
    const rotated = (await refresh(t.refresh)).body
    const [row] = await api.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.id, jti(rotated.refresh)))
    expect(row).toBeTruthy()
    // move the family's absolute expiry into the past
    await api.db
      .update(refreshTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(refreshTokens.familyId, row!.familyId))
    const r = await refresh(rotated.refresh)
    expect(r.status).toBe(400)
    expect(['refresh_expired', 'refresh_invalid']).toContain(r.body.code)
  })

  it('keeps the absolute expiry of the first sign-in on rotated tokens', async () => {
    const t = (await signIn('fixed@example.com', 'the password')).body
    const rotated = (await refresh(t.refresh)).body
    const rows = await api.db.select().from(refreshTokens)
    const a = rows.find((r) => r.id === jti(t.refresh))!
    const b = rows.find((r) => r.id === jti(rotated.refresh))!
    expect(b.familyId).toBe(a.familyId)
    expect(b.expiresAt.getTime()).toBe(a.expiresAt.getTime())
    const ttl = (a.expiresAt.getTime() - a.created.getTime()) / 1000
    expect(Math.abs(ttl - api.config.refreshTtlSeconds)).toBeLessThan(5)
  })

  it('answers garbage and access tokens with 400', async () => {
    expect((await refresh('not-a-token')).status).toBe(400)
    const t = (await signIn('garbage@example.com', 'the password')).body
    expect((await refresh(t.access)).status).toBe(400)
    expect((await api.call('POST', '/api/auth/jwt/refresh/', { body: {} })).status).toBe(400)
  })

  it('logout revokes the sign-in', async () => {
    const t = (await signIn('logout@example.com', 'the password')).body
    const out = await api.call('POST', '/api/auth/logout/', { body: { refresh: t.refresh } })
    expect(out.status).toBe(204)
    expect((await refresh(t.refresh)).status).toBe(400)
    // unknown tokens sign out quietly
    expect((await api.call('POST', '/api/auth/logout/', { body: { refresh: 'junk' } })).status).toBe(204)
  })
})
