// Issue 50 (remember the right things): a guest who buys with an email and later has an account
// with that email confirmed finds those paid orders in the history. They stay guest orders (their
// links open signed out); an unpaid order anyone placed under that email, an unconfirmed account,
// another address or an alias of it lists nothing extra, and the buyer's kept pages change when
// such an order does (decision 103's page stamp).
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '#api/db/schema'
import { personalPageKey } from '#api/services/auth/page-stamp'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock, makeSandboxMethod, pay, pressOnCheckout } from './payments-fixtures'

type Item = { id: string; email: string | null; status: string }
type Page = { count: number; results: Item[] }
type Tokens = { access: string; refresh: string }

let api: TestApi
let productId: number
let method: string
beforeAll(async () => {
  api = await createTestApi()
  productId = (await makePubgStock(api, { codes: 20 })).product.id
  method = (await makeSandboxMethod(api, 'redirect')).method.name
})

/** A guest order of `email`, paid in the sandbox as its buyer would. */
async function paidGuestOrder(email: string): Promise<string> {
  const id = await createPubgOrder(api, productId, { email })
  const started = await pay(api, method, id)
  expect(started.status, JSON.stringify(started.body)).toBe(200)
  expect(
    (await pressOnCheckout(api, (started.body as { payment_id: string }).payment_id, 'confirm')).status,
  ).toBe(303)
  return id
}
afterAll(() => api?.close())

const history = async (token: string, query = '') => {
  const r = await api.call<Page>('GET', `/api/orders/${query}`, { token })
  expect(r.status).toBe(200)
  return r.body
}
const ids = (p: Page) => p.results.map((o) => o.id).sort()

describe('guest orders of a confirmed email in the account’s history', () => {
  it('joins them once the email is confirmed, and only them', async () => {
    const email = `gamer-${Date.now()}@example.com`
    const before = await paidGuestOrder(email)
    // the same address typed in capitals is the same mailbox
    const shouting = await paidGuestOrder(email.toUpperCase())
    const alias = await paidGuestOrder(email.replace('@', '+promo@'))
    const stranger = await paidGuestOrder(`other-${Date.now()}@example.com`)
    // anyone may place an order under any email: unpaid, it never went to that mailbox
    const planted = await createPubgOrder(api, productId, { email })

    const signUp = await api.call<Tokens>('POST', '/api/auth/jwt/create/', {
      body: { email, password: 'Guest-later-2026' },
    })
    expect(signUp.status).toBe(200)
    const token = signUp.body.access
    const own = await createPubgOrder(api, productId, { token })

    // not confirmed yet: whoever typed the address has not proved it
    expect(ids(await history(token))).toEqual([own])
    const keyBefore = (await personalPageKey(api.db, api.config.jwtSecret, token))?.key

    await api.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, email))
    const page = await history(token)
    expect(ids(page)).toEqual([before, own, shouting].sort())
    expect(page.count).toBe(3)
    expect(ids(page)).not.toContain(alias)
    expect(ids(page)).not.toContain(stranger)
    expect(ids(page)).not.toContain(planted)
    // the status filter still applies to them: the two guest orders are done, the own one is not paid
    expect(ids(await history(token, '?status=done'))).toEqual([before, shouting].sort())
    expect(ids(await history(token, '?status=created'))).toEqual([own])
    // the kept pages of the account are of other data now
    const keyAfter = (await personalPageKey(api.db, api.config.jwtSecret, token))?.key
    expect(keyAfter).toBeTruthy()
    expect(keyAfter).not.toBe(keyBefore)

    // a new guest order of that email shows once paid, and changes the stamp again
    const later = await paidGuestOrder(email)
    expect(ids(await history(token))).toContain(later)
    expect((await personalPageKey(api.db, api.config.jwtSecret, token))?.key).not.toBe(keyAfter)

    // they stay guest orders: the link opens signed out, as the mail promised
    const signedOut = await api.call<{ id: string }>('GET', `/api/orders/${before}/`)
    expect(signedOut.status).toBe(200)
    expect(signedOut.body.id).toBe(before)
  })

  it('another account never sees them, confirmed or not', async () => {
    const email = `owner-${Date.now()}@example.com`
    const neighbour = `neighbour-${Date.now()}@example.com`
    const guest = await paidGuestOrder(email)
    const other = await api.call<Tokens>('POST', '/api/auth/jwt/create/', {
      body: { email: neighbour, password: 'Neighbour-pass-2026' },
    })
    expect(other.status).toBe(200)
    expect(ids(await history(other.body.access))).not.toContain(guest)
    await api.db.update(users).set({ emailConfirmedAt: new Date() }).where(eq(users.email, neighbour))
    expect(ids(await history(other.body.access))).not.toContain(guest)
  })
})
