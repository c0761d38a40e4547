import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { orders, socialAccounts, uploads, users } from '#api/db/schema'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock } from './payments-fixtures'

type Tokens = { access: string; refresh: string; is_signed_up: boolean }
type Err = { detail: string; code: string; fields?: Record<string, string[]> }
type Profile = {
  id: number
  email: string | null
  email_confirmed: boolean
  nickname: string
  avatar_img: string | null
  balance: string
  active_promo_code: string | null
  social_accounts: string[]
}

let api: TestApi
beforeAll(async () => {
  api = await createTestApi({ env: { SIGNIN_LIMIT_PER_PAIR: '4', SIGNIN_LIMIT_PER_ADDRESS: '1000' } })
})
afterAll(() => api.close())

const signUp = async (email: string) =>
  (await api.call<Tokens>('POST', '/api/auth/jwt/create/', { body: { email, password: 'password 123' } }))
    .body

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
)

async function upload(token: string, fields: Record<string, string | Blob>) {
  const form = new FormData()
  for (const [k, v] of Object.entries(fields)) form.append(k, v)
  const res = await api.app.request('/api/auth/profile/', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  })
  return { status: res.status, body: (await res.json()) as Profile & Err }
}

describe('profile', () => {
  it('is for signed-in users only', async () => {
    expect((await api.call('GET', '/api/auth/profile/')).status).toBe(401)
    expect((await api.call('GET', '/api/auth/profile/', { token: 'garbage' })).status).toBe(401)
  })

  it('has the §3 fields plus bound providers, balance as money', async () => {
    const t = await signUp('profile@example.com')
    const r = await api.call<Profile>('GET', '/api/auth/profile/', { token: t.access })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      id: expect.any(Number),
      email: 'profile@example.com',
      email_confirmed: false,
      nickname: '',
      avatar_img: null,
      balance: '0.00',
      active_promo_code: null,
      social_accounts: [],
    })
    await api.db.update(users).set({ balance: 12345 }).where(eq(users.id, r.body.id))
    expect((await api.call<Profile>('GET', '/api/auth/profile/', { token: t.access })).body.balance).toBe(
      '123.45',
    )
  })

  it('changes the nickname (JSON) with validation', async () => {
    const t = await signUp('nick@example.com')
    const ok = await api.call<Profile>('PATCH', '/api/auth/profile/', {
      token: t.access,
      body: { nickname: '  Игрок 1 ' },
    })
    expect(ok.status).toBe(200)
    expect(ok.body.nickname).toBe('Игрок 1')
    const long = await api.call<Err>('PATCH', '/api/auth/profile/', {
      token: t.access,
      body: { nickname: 'x'.repeat(51) },
    })
    expect(long.status).toBe(400)
    expect(long.body.detail).toContain('не длиннее 50')
  })

  it('stores an avatar checked by content under a random name, and drops it on request', async () => {
    const t = await signUp('avatar@example.com')
    const r = await upload(t.access, { nickname: 'Ава', avatar_img: new Blob([PNG], { type: 'image/png' }) })
    expect(r.status).toBe(200)
    expect(r.body.nickname).toBe('Ава')
    expect(r.body.avatar_img).toMatch(/^\/media\/[a-f0-9]{32}\.png$/)
    const name = r.body.avatar_img!.slice('/media/'.length)
    const stored = async () => (await api.db.select().from(uploads).where(eq(uploads.name, name))).length
    expect(await stored()).toBe(1)

    // a script named .png is not an image
    const fake = await upload(t.access, {
      avatar_img: new Blob(['<script>alert(1)</script>'], { type: 'image/png' }),
    })
    expect(fake.status).toBe(400)
    expect(fake.body.code).toBe('profile_avatar_not_image')

    const removed = await upload(t.access, { remove_avatar: '1' })
    expect(removed.body.avatar_img).toBeNull()
    expect(await stored()).toBe(0)
  })
})

describe('account deletion', () => {
  it('signs out everywhere, erases personal data and keeps its orders private without it', async () => {
    const t = await signUp('leaving@example.com')
    const me = (await api.call<Profile>('GET', '/api/auth/profile/', { token: t.access })).body
    await api.db
      .insert(socialAccounts)
      .values({ userId: me.id, provider: 'vk_id', providerUserId: 'leaving-1' })
    const { product } = await makePubgStock(api, { codes: 2 })
    const orderId = await createPubgOrder(api, product.id, { token: t.access })

    const del = await api.call('POST', '/api/auth/profile/delete/', { token: t.access })
    expect(del.status).toBe(204)

    expect((await api.call('POST', '/api/auth/jwt/refresh/', { body: { refresh: t.refresh } })).status).toBe(
      400,
    )
    expect((await api.call('GET', '/api/auth/profile/', { token: t.access })).status).toBe(401)

    const [row] = await api.db.select().from(users).where(eq(users.id, me.id))
    expect(row).toMatchObject({ email: null, passwordHash: null, nickname: '', avatarImg: null })
    expect(row?.deletedAt).toBeInstanceOf(Date)
    expect(await api.db.select().from(socialAccounts).where(eq(socialAccounts.userId, me.id))).toEqual([])

    // the orders keep their (now deleted) owner: not guest orders anyone with the id could open
    const [order] = await api.db.select().from(orders).where(eq(orders.id, orderId))
    expect(order).toMatchObject({ userId: me.id, email: null })
    expect((await api.call('GET', `/api/orders/${orderId}/`)).status).toBe(404)
    const readdress = await api.call('PATCH', `/api/orders/${orderId}/`, {
      body: { email: 'thief@example.com' },
    })
    // no operation changes an order's email at this path: 405 (issue 44), and nothing is re-addressed
    expect(readdress.status).toBe(405)
    expect((await api.db.select().from(orders).where(eq(orders.id, orderId)))[0]?.email).toBeNull()

    // the address is free again: signing up makes a new, empty account
    const again = (
      await api.call<Tokens>('POST', '/api/auth/jwt/create/', {
        body: { email: 'leaving@example.com', password: 'another password' },
      })
    ).body
    expect(again.is_signed_up).toBe(true)
    const list = await api.call<{ count: number }>('GET', '/api/orders/', { token: again.access })
    expect(list.body.count).toBe(0)
  })

  it('needs a signed-in user', async () => {
    expect((await api.call('POST', '/api/auth/profile/delete/')).status).toBe(401)
  })
})

describe('rate limit counters shared through the database', () => {
  it('lets exactly the limit through when attempts race', async () => {
    await signUp('race@example.com')
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.call('POST', '/api/auth/jwt/create/', {
          body: { email: 'race@example.com', password: 'wrong password' },
        }),
      ),
    )
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 429)).toHaveLength(6)
    expect(statuses.filter((s) => s === 401)).toHaveLength(4)
  })
})
