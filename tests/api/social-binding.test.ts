// Issue 20, finding 1: a social return (code + state) made by an attacker must sign in or bind
// nothing in someone else's browser. The state is bound to the browser that asked for it (the
// `social_nonce` cookie / the BFF's nonce) and to its use (sign-in, or bind to that account).
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jobs } from '#api/db/schema'
import { MAIL_JOB } from '#api/services/mail/outbox'
import { type FakeSocialProvider, startFakeSocialProvider } from '#tests/fakes/social-provider'
import { goThroughProvider, returnAddress, returnBody, returnBodyWithNonce } from '#tests/helpers/social-flow'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'

type Tokens = { access: string; refresh: string; is_signed_up: boolean }
type Err = { detail: string; code: string }
type Profile = { id: number; email: string | null; social_accounts: string[] }

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

let n = 0
async function signUp(tag: string): Promise<{ access: string; email: string }> {
  const email = `${tag}-${++n}@example.com`
  const r = await api.call<Tokens>('POST', '/api/auth/jwt/create/', {
    body: { email, password: 'password 123' },
  })
  expect(r.status).toBe(200)
  return { access: r.body.access, email }
}

const profile = async (token: string) =>
  (await api.call<Profile>('GET', '/api/auth/profile/', { token })).body

/** The victim's browser holds a nonce of its own (it once started a flow of its own). */
async function victimNonce(provider: string, token?: string) {
  return (await goThroughProvider(api, provider, `victim-own-${++n}`, { token })).nonce
}

describe('binding CSRF: the attacker’s return in the victim’s signed-in browser', () => {
  it.each(['yandex', 'vk_id', 'vk', 'steam', 'telegram'])(
    '%s: the attacker’s account is not bound to the victim’s',
    async (provider) => {
      const victim = await signUp(`victim-${provider}`)
      const attackerLogin = `${provider.replace('_', '')}attacker${n}`
      // the attacker stops at the provider's redirect with their own code and state
      const attacker = await goThroughProvider(api, provider, attackerLogin)
      const stolen = returnBody(provider, attacker.loc)

      // the victim's browser finishes it: with its own nonce, with none, with the cookie of its own
      const ownNonce = await victimNonce(provider, victim.access)
      const attempts = [
        { body: { ...stolen, nonce: ownNonce } },
        { body: stolen },
        { body: stolen, headers: { cookie: `social_nonce=${ownNonce}` } },
      ]
      for (const [i, attempt] of attempts.entries()) {
        const r = await api.call<Err>('POST', `/api/auth/social/${provider}/bind/`, {
          token: victim.access,
          ...attempt,
        })
        expect(r.status).toBe(400)
        // later tries meet a used-up state (or, for Steam, an assertion its OP already checked)
        if (i === 0) expect(r.body.code).toBe('social_browser_mismatch')
      }
      expect((await profile(victim.access)).social_accounts).toEqual([])

      // the attacker's provider account still signs in to an account of its own, not the victim's
      const mine = await goThroughProvider(api, provider, attackerLogin)
      const signIn = await api.call<Tokens>('POST', `/api/auth/social/${provider}/auth/`, {
        body: returnBodyWithNonce(provider, mine),
      })
      expect(signIn.status).toBe(200)
      expect((await profile(signIn.body.access)).id).not.toBe((await profile(victim.access)).id)
    },
  )

  it('the first try uses the state up: the attacker cannot retry it with the right nonce', async () => {
    const victim = await signUp('victim-retry')
    const attacker = await goThroughProvider(api, 'yandex', `yxretry${n}`)
    const stolen = returnBody('yandex', attacker.loc)
    const first = await api.call<Err>('POST', '/api/auth/social/yandex/bind/', {
      token: victim.access,
      body: stolen,
    })
    expect(first.status).toBe(400)
    const again = await api.call<Err>('POST', '/api/auth/social/yandex/auth/', {
      body: { ...stolen, nonce: attacker.nonce },
    })
    expect(again.status).toBe(400)
    expect(again.body.code).toBe('social_state_invalid')
  })

  it('a sign-in state cannot bind, and a bind state binds only to the account that asked', async () => {
    const victim = await signUp('victim-mode')
    const attacker = await signUp('attacker-mode')
    // even holding the attacker's nonce (which a victim's browser never does), the use is checked
    const signInFlow = await goThroughProvider(api, 'yandex', `yxmode${n}`, { mode: 'auth' })
    const asBind = await api.call<Err>('POST', '/api/auth/social/yandex/bind/', {
      token: victim.access,
      body: returnBodyWithNonce('yandex', signInFlow),
    })
    expect(asBind.status).toBe(400)
    expect(asBind.body.code).toBe('social_browser_mismatch')

    const attackersBind = await goThroughProvider(api, 'yandex', `yxmode2${n}`, { token: attacker.access })
    const onVictim = await api.call<Err>('POST', '/api/auth/social/yandex/bind/', {
      token: victim.access,
      body: returnBodyWithNonce('yandex', attackersBind),
    })
    expect(onVictim.status).toBe(400)
    expect(onVictim.body.code).toBe('social_browser_mismatch')
    expect((await profile(victim.access)).social_accounts).toEqual([])

    // a bind state does not sign in either
    const bindFlow = await goThroughProvider(api, 'yandex', `yxmode3${n}`, { token: victim.access })
    const asSignIn = await api.call<Err>('POST', '/api/auth/social/yandex/auth/', {
      body: returnBodyWithNonce('yandex', bindFlow),
    })
    expect(asSignIn.status).toBe(400)
  })

  it('a bind flow needs a signed-in caller, and a provider that can be bound', async () => {
    const url = (p: string, mode: string) =>
      `/api/auth/social/${p}/url/?redirect_uri=${encodeURIComponent(returnAddress(p))}&mode=${mode}`
    expect((await api.call('GET', url('yandex', 'bind'))).status).toBe(401)
    const user = await signUp('bind-google')
    const google = await api.call<Err>('GET', url('google', 'bind'), { token: user.access })
    expect(google.status).toBe(400)
    expect(google.body.code).toBe('social_bind_unsupported')
  })
})

describe('login CSRF: the attacker’s return in a signed-out browser', () => {
  it.each(['yandex', 'google', 'telegram', 'steam'])('%s: signs the browser in to nothing', async (p) => {
    const attacker = await goThroughProvider(api, p, `${p}logincsrf${n}`)
    const ownNonce = await victimNonce(p)
    const r = await api.call<Tokens & Err>('POST', `/api/auth/social/${p}/auth/`, {
      body: { ...returnBody(p, attacker.loc), nonce: ownNonce },
    })
    expect(r.status).toBe(400)
    expect(r.body.code).toBe('social_browser_mismatch')
    expect(r.body.access).toBeUndefined()
  })

  it('Telegram with no round trip: a payload the attacker signed with their own account', async () => {
    const victim = await signUp('victim-tg')
    // the state from the url call, the payload from the attacker's own Telegram login
    const attacker = await goThroughProvider(api, 'telegram', `tgnoround${n}`)
    const r = await api.call<Err>('POST', '/api/auth/social/telegram/bind/', {
      token: victim.access,
      body: { ...returnBody('telegram', attacker.loc), nonce: await victimNonce('telegram', victim.access) },
    })
    expect(r.status).toBe(400)
    expect((await profile(victim.access)).social_accounts).toEqual([])
  })
})

describe('the browser nonce', () => {
  it('a browser that calls the API itself needs no new field: the cookie of the url answer does it', async () => {
    const flow = await goThroughProvider(api, 'vk_id', `vkidcookie${n}`)
    expect(flow.setCookie).toMatch(/^social_nonce=[\w-]{40,};/)
    expect(flow.setCookie).toMatch(/HttpOnly/i)
    expect(flow.setCookie).toMatch(/SameSite=Lax/i)
    expect(flow.setCookie).toMatch(/Path=\//)
    const cookie = flow.setCookie.split(';')[0]!
    const r = await api.call<Tokens>('POST', '/api/auth/social/vk_id/auth/', {
      body: returnBody('vk_id', flow.loc),
      headers: { cookie },
    })
    expect(r.status).toBe(200)
    expect(r.body.access).toBeTruthy()
  })

  it('is a __Host- cookie, Secure, when the shop is served over https', async () => {
    const https = await createTestApi({
      seed: false,
      env: { ...fake.env, PUBLIC_URL: 'https://shop.example' },
    })
    try {
      const r = await https.call<{ url: string }>(
        'GET',
        `/api/auth/social/yandex/url/?redirect_uri=${encodeURIComponent('https://shop.example/auth/yandex/redirect/')}`,
      )
      expect(r.status).toBe(200)
      const set = r.headers.get('set-cookie') ?? ''
      expect(set).toMatch(/^__Host-social_nonce=/)
      expect(set).toMatch(/Secure/)
      expect(set).not.toMatch(/Domain=/i)
      // PKCE where the provider supports it
      expect(new URL(r.body.url).searchParams.get('code_challenge_method')).toBe('S256')
    } finally {
      await https.close()
    }
  }, 90_000)
})

describe('the owner hears of a new binding', () => {
  it('queues «к аккаунту привязан …» to the account’s email, once', async () => {
    const user = await signUp('bound-mail')
    const flow = await goThroughProvider(api, 'yandex', `yxmail${n}`, { token: user.access })
    const r = await api.call<Profile>('POST', '/api/auth/social/yandex/bind/', {
      token: user.access,
      body: returnBodyWithNonce('yandex', flow),
    })
    expect(r.status).toBe(200)
    expect(r.body.social_accounts).toEqual(['yandex'])
    const queued = await api.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, MAIL_JOB)))
    const mine = queued.filter((j) => {
      const p = j.payload as { template?: string; to?: string; data?: { provider?: string } }
      return p.template === 'social_bound' && p.to === user.email
    })
    expect(mine).toHaveLength(1)
    expect((mine[0]!.payload as { data: { provider: string } }).data.provider).toBe('yandex')
  })
})
