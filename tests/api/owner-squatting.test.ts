// Issue 38, finding 1: a stranger signs up with the shop owner's ADMIN_EMAILS address and a password
// of their own; the real owner opens the genuine confirmation mail; the stranger's token must never
// be `owner`. Also the social variant (the stranger's own Telegram account with the owner's address
// typed in), the legitimate confirmation from the browser that signed up, and (finding 7) an audit
// entry for every role gained or lost. Decision 045.
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { auditLog, jobs, rateLimits, socialAccounts, users } from '#api/db/schema'
import { CLIENT_IP_HEADER } from '#api/lib/client-address'
import { createAccountToken, linkToken } from '#api/services/auth/account-tokens'
import { startSession } from '#api/services/auth/tokens'
import { grantRole, revokeRole, staffMember } from '#api/services/admin/roles'
import { deleteAccount } from '#api/services/auth/delete-account'
import { signInWithIdentity } from '#api/services/social/accounts'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { hex } from './payments-fixtures'

type Tokens = { access: string; refresh: string }
type Err = { detail: string; code: string }

const BOSS = `boss-${hex()}@example.com`
const SQUATTER_PASSWORD = 'Squatter-Pass-99'

let api: TestApi
beforeAll(async () => {
  api = await createTestApi({ env: { ADMIN_EMAILS: BOSS } })
})
afterAll(() => api?.close())
beforeEach(async () => {
  await api.db.delete(rateLimits)
})

let ip = 0
const signIn = (email: string, password: string) =>
  api.call<Tokens & Err>('POST', '/api/auth/jwt/create/', {
    body: { email, password },
    headers: { [CLIENT_IP_HEADER]: `10.38.1.${++ip}` },
  })
const adminMe = (token: string) => api.call<{ role?: string } & Err>('GET', '/api/admin/me/', { token })

/** The token of the newest confirmation mail queued for `email` (the link the mailbox receives). */
async function mailedConfirmToken(email: string): Promise<string> {
  const queued = (await api.db.select().from(jobs)).filter(
    (j) => j.payload.template === 'confirm_email' && j.payload.to === email,
  )
  const data = queued.at(-1)?.payload.data as { tokenId?: string } | undefined
  expect(data?.tokenId, 'a confirmation mail was queued').toBeTruthy()
  return linkToken(api.config.jwtSecret, data!.tokenId!)
}

const confirm = (token: string, bearer?: string) =>
  api.call<Err>('POST', '/api/auth/email/confirm/', {
    body: { token },
    token: bearer,
    headers: { [CLIENT_IP_HEADER]: '10.38.2.1' },
  })

const roleEntries = (userId: number) =>
  api.db
    .select()
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entity, 'user'),
        eq(auditLog.entityId, String(userId)),
        eq(auditLog.action, 'staff.role'),
      ),
    )

describe('owner squatting (finding 1)', () => {
  it('the squatter’s token is never owner after the real owner confirms the mailbox', async () => {
    const squatter = await signIn(BOSS, SQUATTER_PASSWORD)
    expect(squatter.status).toBe(200)
    // before any confirmation the account is told to confirm (issue 37), as the real owner would be
    const before = await adminMe(squatter.body.access)
    expect([before.status, before.body.code]).toEqual([403, 'owner_email_unconfirmed'])
    const [account] = await api.db.select().from(users).where(eq(users.email, BOSS))

    // the real owner opens the genuine mail in their own browser (not signed in to that account)
    const opened = await confirm(await mailedConfirmToken(BOSS))
    expect(opened.status).toBe(200)
    expect(opened.body.detail).toMatch(/прежний пароль и все входы в аккаунт отменены/)

    // the squatter's token, refresh and password are all dead; never owner
    const me = await adminMe(squatter.body.access)
    expect(me.status).toBe(401)
    expect(me.body.role).toBeUndefined()
    const refreshed = await api.call('POST', '/api/auth/jwt/refresh/', {
      body: { refresh: squatter.body.refresh },
    })
    expect(refreshed.status).toBe(400)
    expect((await signIn(BOSS, SQUATTER_PASSWORD)).status).toBe(401)
    const [row] = await api.db.select().from(users).where(eq(users.id, account!.id))
    expect(row?.passwordHash).toBeNull()
    expect(row?.emailConfirmedAt).toBeInstanceOf(Date)

    // the owner sets a password through a reset link and is owner; the role gained is audited
    // (the reset job's link, as the mailbox receives it)
    const link = await createAccountToken(api.db, api.config.jwtSecret, account!.id, BOSS, 'password_reset')
    const done = await api.call('POST', '/api/auth/password/reset/confirm/', {
      body: { token: link.token, password: 'Owners-Own-Key-48' },
      headers: { [CLIENT_IP_HEADER]: '10.38.3.2' },
    })
    expect(done.status).toBe(200)
    const owner = await signIn(BOSS, 'Owners-Own-Key-48')
    expect((await adminMe(owner.body.access)).body.role).toBe('owner')
    const entries = await roleEntries(account!.id)
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({
      before: { role: null },
      after: { role: 'owner', via: 'ADMIN_EMAILS' },
    })

    // and the account, now the owner's, is merged with a later Google sign-in without any stranger in it
    expect(await api.db.select().from(socialAccounts).where(eq(socialAccounts.userId, account!.id))).toEqual(
      [],
    )
  })

  it('the social variant: the squatter’s own Telegram account with the owner’s address typed in', async () => {
    const boss = `boss-tg-${hex()}@example.com`
    const cfg = { ...api.config, adminEmails: [boss] }
    const { userId } = await signInWithIdentity(
      api.db,
      api.config.jwtSecret,
      'telegram',
      { id: `tg-${hex()}`, email: null, nickname: 'squatter' },
      boss,
    )
    const session = await startSession(api.db, api.config, userId)
    expect(await staffMember(api.db, userId, cfg.adminEmails)).toBeNull()

    expect((await confirm(await mailedConfirmToken(boss))).status).toBe(200)
    // the squatter's sign-in ended and their Telegram account is no way in any more
    expect((await api.call('GET', '/api/auth/profile/', { token: session.access })).status).toBe(401)
    expect(await api.db.select().from(socialAccounts).where(eq(socialAccounts.userId, userId))).toEqual([])
  })

  it('a confirmation from the browser that signed up keeps the account as it is', async () => {
    const boss = `boss-self-${hex()}@example.com`
    const up = await signIn(boss, 'Owners-Own-Key-48')
    const opened = await confirm(await mailedConfirmToken(boss), up.body.access)
    expect(opened.status).toBe(200)
    expect(opened.body.detail).toBe('Почта подтверждена')
    expect((await api.call('GET', '/api/auth/profile/', { token: up.body.access })).status).toBe(200)
    expect((await signIn(boss, 'Owners-Own-Key-48')).status).toBe(200)
  })

  it('another account’s session opening the link is not the browser that signed up', async () => {
    const victim = `victim-${hex()}@example.com`
    const squatter = await signIn(victim, SQUATTER_PASSWORD)
    const someoneElse = await signIn(`other-${hex()}@example.com`, 'Owners-Own-Key-48')
    expect((await confirm(await mailedConfirmToken(victim), someoneElse.body.access)).status).toBe(200)
    expect((await api.call('GET', '/api/auth/profile/', { token: squatter.body.access })).status).toBe(401)
  })
})

describe('every role gained or lost is audited (finding 7)', () => {
  it('grant, change, revoke, ADMIN_EMAILS and a deleted account each leave one entry', async () => {
    const email = `staff-${hex()}@example.com`
    const up = await signIn(email, 'Owners-Own-Key-48')
    const [u] = await api.db.select().from(users).where(eq(users.email, email))
    const id = u!.id
    // a role needs the confirmed email (issue 42)
    expect((await confirm(await mailedConfirmToken(email), up.body.access)).status).toBe(200)
    await grantRole(api.db, email, 'support', 'cli')
    await grantRole(api.db, email, 'support', 'cli') // no change, no entry
    await grantRole(api.db, email, 'owner', 'cli')
    expect((await staffMember(api.db, id, []))?.role).toBe('owner') // matches the record: no entry
    await revokeRole(api.db, id)
    expect(await staffMember(api.db, id, [])).toBeNull()
    // ADMIN_EMAILS: gained while the confirmed email is on the list, lost when it leaves it
    expect((await staffMember(api.db, id, [email]))?.role).toBe('owner')
    expect((await staffMember(api.db, id, [email]))?.role).toBe('owner')
    expect(await staffMember(api.db, id, [])).toBeNull()
    expect((await staffMember(api.db, id, [email]))?.role).toBe('owner')
    await deleteAccount(api.db, id)
    expect(await staffMember(api.db, id, [email])).toBeNull()

    const moves = (await roleEntries(id))
      .sort((a, b) => a.id - b.id)
      .map((e) => [
        (e.before as { role: string | null }).role,
        (e.after as { role: string | null; via: string }).role,
        (e.after as { via: string }).via,
      ])
    expect(moves).toEqual([
      [null, 'support', 'cli'],
      ['support', 'owner', 'cli'],
      ['owner', null, 'cli'],
      [null, 'owner', 'ADMIN_EMAILS'],
      ['owner', null, 'ADMIN_EMAILS'],
      [null, 'owner', 'ADMIN_EMAILS'],
      ['owner', null, 'account deleted'],
    ])
  })
})
