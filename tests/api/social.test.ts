import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeSocialProvider, type FakeSocialProvider } from '#tests/fakes/social-provider'
import {
  goThroughProvider as goThrough,
  returnAddress,
  returnBodyWithNonce,
  SHOP_ORIGIN,
} from '#tests/helpers/social-flow'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

type Tokens = { access: string; refresh: string; is_signed_up: boolean }
type Err = { detail: string; code: string }
type Profile = { id: number; email: string | null; nickname: string; social_accounts: string[] }

const ORIGIN = SHOP_ORIGIN
const back = returnAddress

let fake: FakeSocialProvider
let api: TestApi
beforeAll(async () => {
  fake = await startFakeSocialProvider()
  api = await createTestApi({ env: fake.env })
})
afterAll(async () => {
  await api.close()
  await fake.close()
})

const goThroughProvider = (provider: string, user: string, extra: Record<string, string> = {}) =>
  goThrough(api, provider, user, { extra })
const returnBody = returnBodyWithNonce
const TG_FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash']

async function socialSignIn(provider: string, user: string, body: Record<string, unknown> = {}) {
  const loc = await goThroughProvider(provider, user)
  return api.call<Tokens & Err>('POST', `/api/auth/social/${provider}/auth/`, {
    body: { ...returnBody(provider, loc), ...body },
  })
}

const profile = async (token: string) =>
  (await api.call<Profile>('GET', '/api/auth/profile/', { token })).body

describe('social providers', () => {
  it('lists the configured providers with what each can do', async () => {
    const r = await api.call<{ providers: string[]; bind: string[]; unbind: string[] }>(
      'GET',
      '/api/auth/social/providers/',
    )
    expect(r.status).toBe(200)
    expect(r.body.providers.sort()).toEqual([
      'facebook',
      'google',
      'steam',
      'telegram',
      'vk',
      'vk_id',
      'yandex',
    ])
    expect(r.body.bind).not.toContain('google')
    expect(r.body.unbind).toContain('facebook')
  })

  it('answers an unconfigured provider with a clear 400 and lists none', async () => {
    const bare = await createTestApi({ seed: false })
    try {
      const r = await bare.call<Err>(
        'GET',
        `/api/auth/social/vk_id/url/?redirect_uri=${encodeURIComponent(back('vk_id'))}`,
      )
      expect(r.status).toBe(400)
      expect(r.body.code).toBe('social_provider_not_configured')
      expect(r.body.detail).toContain('VK ID')
      const list = await bare.call<{ providers: string[] }>('GET', '/api/auth/social/providers/')
      expect(list.body.providers).toEqual([])
    } finally {
      await bare.close()
    }
  })

  it('refuses an unknown provider and a return address that is not ours', async () => {
    expect((await api.call('GET', `/api/auth/social/myspace/url/?redirect_uri=${back('x')}`)).status).toBe(
      400,
    )
    const evil = await api.call<Err>(
      'GET',
      `/api/auth/social/vk_id/url/?redirect_uri=${encodeURIComponent('https://evil.example/auth/vk_id/redirect/')}`,
    )
    expect(evil.status).toBe(400)
    expect(evil.body.code).toBe('social_redirect_invalid')
    const wrongPath = await api.call(
      'GET',
      `/api/auth/social/vk_id/url/?redirect_uri=${encodeURIComponent(`${ORIGIN}/profile`)}`,
    )
    expect(wrongPath.status).toBe(400)
  })

  it('builds a VK ID authorize URL with client_id, state and a PKCE challenge', async () => {
    const r = await api.call<{ url: string }>(
      'GET',
      `/api/auth/social/vk_id/url/?redirect_uri=${encodeURIComponent(back('vk_id'))}`,
    )
    const u = new URL(r.body.url)
    expect(u.origin + u.pathname).toBe(`${fake.origin}/vk_id/authorize`)
    expect(u.searchParams.get('client_id')).toBe('fake-client')
    expect(u.searchParams.get('redirect_uri')).toBe(back('vk_id'))
    expect(u.searchParams.get('state')?.length).toBeGreaterThan(20)
    expect(u.searchParams.get('code_challenge_method')).toBe('S256')
  })
})

describe.each(['vk_id', 'vk', 'yandex', 'google', 'facebook', 'steam', 'telegram'])(
  'sign-in with %s',
  (provider) => {
    it('signs up on the first visit and signs the same person in later', async () => {
      const user = `${provider.replace('_', '')}alice`
      const first = await socialSignIn(provider, user)
      expect(first.status, JSON.stringify(first.body)).toBe(200)
      expect(first.body.is_signed_up).toBe(true)
      const p1 = await profile(first.body.access)
      expect(p1.social_accounts).toEqual([provider])
      if (!['steam', 'telegram'].includes(provider)) expect(p1.email).toBe(`${user}@example.test`)
      else expect(p1.email).toBeNull()

      const second = await socialSignIn(provider, user)
      expect(second.status).toBe(200)
      expect(second.body.is_signed_up).toBe(false)
      expect((await profile(second.body.access)).id).toBe(p1.id)
    })

    it('refuses a state that was already used', async () => {
      const loc = await goThroughProvider(provider, `${provider}replay`)
      const body = returnBody(provider, loc)
      expect((await api.call('POST', `/api/auth/social/${provider}/auth/`, { body })).status).toBe(200)
      const again = await api.call<Err>('POST', `/api/auth/social/${provider}/auth/`, { body })
      expect(again.status).toBe(400)
    })
  },
)

describe('provider-specific checks', () => {
  it('telegram: a tampered payload or an old auth_date is refused', async () => {
    const loc = await goThroughProvider('telegram', 'tgmallory')
    const body = returnBody('telegram', loc)
    const payload = JSON.parse(Buffer.from(body.code, 'base64url').toString('utf8'))
    const forged = { ...body, code: JSON.stringify({ ...payload, id: '1' }) }
    const r = await api.call<Err>('POST', '/api/auth/social/telegram/auth/', { body: forged })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('social_signature_invalid')

    const old = await goThroughProvider('telegram', 'tgold', {
      fake_auth_date: String(Math.floor(Date.now() / 1000) - 3 * 86400),
    })
    const r2 = await api.call<Err>('POST', '/api/auth/social/telegram/auth/', {
      body: returnBody('telegram', old),
    })
    expect(r2.status).toBe(400)
    expect(r2.body.code).toBe('social_auth_expired')
  })

  it('telegram: accepts the payload as a query string too', async () => {
    const r0 = await goThroughProvider('telegram', 'tgquery', { fake_tg_query: '1' })
    const fields = new URLSearchParams([...r0.loc.searchParams].filter(([k]) => TG_FIELDS.includes(k)))
    expect(fields.get('hash')).toMatch(/^[a-f0-9]{64}$/)
    const r = await api.call('POST', '/api/auth/social/telegram/auth/', {
      body: {
        code: fields.toString(),
        redirect_uri: back('telegram'),
        state: r0.loc.searchParams.get('state'),
        nonce: r0.nonce,
      },
    })
    expect(r.status).toBe(200)
  })

  it('steam: an assertion with a changed identity fails the OP check', async () => {
    const r0 = await goThroughProvider('steam', 'steamforger')
    const q = new URLSearchParams(r0.loc.search)
    const claimed = q.get('openid.claimed_id')!.replace(/\d{5}$/, '00000')
    q.set('openid.claimed_id', claimed)
    q.set('openid.identity', claimed)
    const r = await api.call<Err>('POST', '/api/auth/social/steam/auth/', {
      body: { code: `?${q}`, redirect_uri: back('steam'), state: q.get('state'), nonce: r0.nonce },
    })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('social_code_invalid')
  })

  it('oauth: a code that the provider does not know is refused', async () => {
    const loc = await goThroughProvider('yandex', 'yxcode')
    const r = await api.call<Err>('POST', '/api/auth/social/yandex/auth/', {
      body: { ...returnBody('yandex', loc), code: 'made-up' },
    })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('social_code_invalid')
  })
})

describe('emails and accounts', () => {
  const signUp = (email: string) =>
    api.call<Tokens>('POST', '/api/auth/jwt/create/', { body: { email, password: 'password 123' } })

  it('uses the typed email for a provider without one, and refuses one that belongs to an account', async () => {
    const r = await socialSignIn('telegram', 'tgtyped', { email: 'Typed@Example.com' })
    expect(r.status).toBe(200)
    expect((await profile(r.body.access)).email).toBe('typed@example.com')

    await signUp('owner@example.com')
    const takeover = await socialSignIn('steam', 'steamthief', { email: 'owner@example.com' })
    expect(takeover.status).toBe(409)
    expect((takeover.body as unknown as Err).code).toBe('social_email_taken')
  })

  it('links a provider-verified email to the existing account', async () => {
    const mine = await signUp('yxlinked@example.test')
    const me = await profile(mine.body.access)
    const r = await socialSignIn('yandex', 'yxlinked')
    expect(r.status).toBe(200)
    expect(r.body.is_signed_up).toBe(false)
    const p = await profile(r.body.access)
    expect(p.id).toBe(me.id)
    expect(p.social_accounts).toEqual(['yandex'])
  })
})

describe('bind and unbind', () => {
  /** A bind flow started by the signed-in `token` (no mode given: the spec's call binds then). */
  async function bindBody(provider: string, user: string, token?: string) {
    return returnBody(provider, await goThrough(api, provider, user, { token }))
  }

  it('binds providers to a signed-in account and unbinds them', async () => {
    const t = (
      await api.call<Tokens>('POST', '/api/auth/jwt/create/', {
        body: { email: 'binder@example.com', password: 'password 123' },
      })
    ).body
    const b1 = await api.call<Profile>('POST', '/api/auth/social/telegram/bind/', {
      token: t.access,
      body: await bindBody('telegram', 'tgbinder', t.access),
    })
    expect(b1.status).toBe(200)
    expect(b1.body.social_accounts).toEqual(['telegram'])
    const b2 = await api.call<Profile>('POST', '/api/auth/social/vk_id/bind/', {
      token: t.access,
      body: await bindBody('vk_id', 'vkidbinder', t.access),
    })
    expect(b2.body.social_accounts).toEqual(['telegram', 'vk_id'])

    // the bound Telegram account now signs in to this same account
    const viaTg = await socialSignIn('telegram', 'tgbinder')
    expect((await profile(viaTg.body.access)).email).toBe('binder@example.com')

    const u = await api.call<Profile>('POST', '/api/auth/social/telegram/unbind/', {
      token: t.access,
      body: { code: '', redirect_uri: back('telegram') },
    })
    expect(u.status).toBe(200)
    expect(u.body.social_accounts).toEqual(['vk_id'])
    const again = await api.call<Err>('POST', '/api/auth/social/telegram/unbind/', {
      token: t.access,
      body: {},
    })
    expect(again.status).toBe(404)
  })

  it('refuses binding an identity that belongs to someone else, and guests', async () => {
    const owner = await socialSignIn('vk', 'vkowner')
    expect(owner.status).toBe(200)
    const other = (
      await api.call<Tokens>('POST', '/api/auth/jwt/create/', {
        body: { email: 'other@example.com', password: 'password 123' },
      })
    ).body
    const r = await api.call<Err>('POST', '/api/auth/social/vk/bind/', {
      token: other.access,
      body: await bindBody('vk', 'vkowner', other.access),
    })
    expect(r.status).toBe(409)
    expect(r.body.code).toBe('social_already_bound')
    const guest = await api.call('POST', '/api/auth/social/vk/bind/', {
      body: await bindBody('vk', 'vkguest'),
    })
    expect(guest.status).toBe(401)
  })

  it('offers bind and unbind only for the providers of the spec', async () => {
    const t = (await socialSignIn('google', 'gonly')).body
    expect(
      (
        await api.call('POST', '/api/auth/social/google/bind/', {
          token: t.access,
          body: { code: 'x', redirect_uri: back('google') },
        })
      ).status,
    ).toBe(400)
    expect(
      (await api.call('POST', '/api/auth/social/google/unbind/', { token: t.access, body: {} })).status,
    ).toBe(400)
  })

  it('will not unbind the only way into an account', async () => {
    const t = (await socialSignIn('steam', 'steamonly')).body
    const r = await api.call<Err>('POST', '/api/auth/social/steam/unbind/', { token: t.access, body: {} })
    expect(r.status).toBe(409)
    expect(r.body.code).toBe('social_last_login_method')
  })
})
