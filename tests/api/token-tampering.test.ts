// JWT tampering (issue 20's review list): a real access token of an attacker's account, altered in
// every way an attacker can, must never read the victim's data. Each refusal is the API's 401 with
// its Russian error body and nothing else. Where the test forges a token with the real secret
// (tests know JWT_SECRET), a control request shows the same recipe works when the token is valid,
// so the refusal comes from the check under test, not from a broken forgery.
import { base64url, decodeJwt, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApi, type TestApi } from '#tests/helpers/test-api'
import { createPubgOrder, makePubgStock } from './payments-fixtures'

type Tokens = { access: string; refresh: string }
type Err = { detail: string; code: string }

const REFUSED = { detail: 'Сессия истекла, войдите снова', code: 'token_not_valid' }

let api: TestApi
let victim: Tokens & { id: number; email: string; sid: string; orderId: string }
let attacker: Tokens & { id: number; sid: string }

beforeAll(async () => {
  api = await createTestApi({ env: { SIGNIN_LIMIT_PER_ADDRESS: '1000' } })
  const signUp = async (email: string) => {
    const r = await api.call<Tokens>('POST', '/api/auth/jwt/create/', {
      body: { email, password: 'a long password 1' },
    })
    expect(r.status).toBe(200)
    const me = await api.call<{ id: number }>('GET', '/api/auth/profile/', { token: r.body.access })
    expect(me.status).toBe(200)
    return { ...r.body, id: me.body.id, sid: String(decodeJwt(r.body.access).sid) }
  }
  const v = await signUp('victim.tamper@example.com')
  const { product } = await makePubgStock(api, { codes: 1 })
  const orderId = await createPubgOrder(api, product.id, { token: v.access })
  victim = { ...v, email: 'victim.tamper@example.com', orderId }
  attacker = await signUp('attacker.tamper@example.com')
})
afterAll(() => api.close())

/** Endpoints that answer with the victim's personal data when the victim's token is valid. */
const personal = () => [
  ['GET', '/api/auth/profile/'],
  ['GET', '/api/orders/'],
  ['GET', `/api/orders/${victim.orderId}/`],
]

const parts = (token: string) => {
  const [h, p, s] = token.split('.') as [string, string, string]
  return {
    header: JSON.parse(new TextDecoder().decode(base64url.decode(h))) as Record<string, unknown>,
    payload: JSON.parse(new TextDecoder().decode(base64url.decode(p))) as Record<string, unknown>,
    signature: s,
  }
}
const encode = (o: unknown) => base64url.encode(JSON.stringify(o))
/** The token with its header and payload replaced, the original signature kept. */
const alter = (token: string, change: { header?: object; payload?: object; signature?: string }) => {
  const t = parts(token)
  return [
    encode({ ...t.header, ...change.header }),
    encode({ ...t.payload, ...change.payload }),
    change.signature ?? t.signature,
  ].join('.')
}
const sign = (payload: Record<string, unknown>, secret: string, alg = 'HS256') =>
  new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(new TextEncoder().encode(secret))
const now = () => Math.floor(Date.now() / 1000)

/** The token is refused on every personal endpoint: 401, the error body alone, no victim data. */
async function expectRefused(token: string) {
  for (const [method, url] of personal()) {
    const r = await api.call<Err>(method!, url!, { token })
    expect(r.status, `${method} ${url}`).toBe(401)
    expect(r.body, `${method} ${url}`).toEqual(REFUSED)
    const text = JSON.stringify(r.body)
    expect(text).not.toContain(victim.email)
    expect(text).not.toContain(victim.orderId)
  }
}

/** The token reads the victim's data (controls: the recipe is right, only the check refuses). */
async function expectVictimData(token: string) {
  const me = await api.call<{ id: number; email: string }>('GET', '/api/auth/profile/', { token })
  expect(me.status).toBe(200)
  expect(me.body).toMatchObject({ id: victim.id, email: victim.email })
  const list = await api.call<{ results: { id: string }[] }>('GET', '/api/orders/', { token })
  expect(list.body.results.map((o) => o.id)).toEqual([victim.orderId])
}

describe('real tokens', () => {
  it('each account reads its own data only', async () => {
    await expectVictimData(victim.access)
    const me = await api.call<{ email: string }>('GET', '/api/auth/profile/', { token: attacker.access })
    expect(me.body.email).toBe('attacker.tamper@example.com')
    const order = await api.call('GET', `/api/orders/${victim.orderId}/`, { token: attacker.access })
    expect(order.status).toBe(404)
  })
})

describe('payload altered, signature kept', () => {
  it('user id changed to the victim’s', async () => {
    await expectRefused(alter(attacker.access, { payload: { sub: String(victim.id) } }))
  })

  it('sign-in id changed to the victim’s', async () => {
    await expectRefused(alter(attacker.access, { payload: { sid: victim.sid } }))
  })

  it('user id and sign-in id both the victim’s (the victim’s claims under the attacker’s signature)', async () => {
    await expectRefused(alter(attacker.access, { payload: { sub: String(victim.id), sid: victim.sid } }))
  })

  it('expiry pushed into the future', async () => {
    await expectRefused(alter(attacker.access, { payload: { exp: now() + 365 * 86400 } }))
  })
})

describe('signature stripped or replaced', () => {
  const victimClaims = () => alter(victim.access, {})

  it('the original token re-encoded unchanged still works (control)', async () => {
    await expectVictimData(victimClaims())
  })

  it('empty signature, or no signature part at all', async () => {
    const [h, p] = victim.access.split('.')
    await expectRefused(`${h}.${p}.`)
    await expectRefused(`${h}.${p}`)
  })

  it('random bytes, another token’s signature, a truncated signature', async () => {
    const forged = alter(attacker.access, { payload: { sub: String(victim.id), sid: victim.sid } })
    const [h, p] = forged.split('.')
    await expectRefused(`${h}.${p}.${base64url.encode(crypto.getRandomValues(new Uint8Array(32)))}`)
    await expectRefused(`${h}.${p}.${parts(victim.refresh).signature}`)
    await expectRefused(`${h}.${p}.${parts(attacker.access).signature.slice(0, -2)}`)
  })
})

describe('algorithm tricks', () => {
  it('`alg: none` with the victim’s claims, with and without a signature', async () => {
    const none = alter(victim.access, { header: { alg: 'none' }, signature: '' })
    await expectRefused(none)
    await expectRefused(alter(victim.access, { header: { alg: 'none' } }))
    await expectRefused(alter(victim.access, { header: { alg: 'NONE' }, signature: '' }))
  })

  it('another HMAC algorithm, even signed with the real secret', async () => {
    const claims = { ...decodeJwt(victim.access), exp: now() + 600 }
    await expectRefused(await sign(claims, api.config.jwtSecret, 'HS512'))
    await expectVictimData(await sign(claims, api.config.jwtSecret, 'HS256'))
  })
})

describe('forged tokens', () => {
  const victimClaims = () => ({ typ: 'access', sub: String(victim.id), sid: victim.sid, iat: now() })

  it('signed with another secret', async () => {
    const payload = { ...victimClaims(), exp: now() + 600 }
    await expectRefused(await sign(payload, 'another-secret-another-secret-another!'))
    await expectRefused(await sign(payload, 'x'))
  })

  it('expired (same secret, `exp` in the past)', async () => {
    await expectRefused(await sign({ ...victimClaims(), exp: now() - 60 }, api.config.jwtSecret))
    await expectRefused(await sign({ ...victimClaims(), exp: now() - 1 }, api.config.jwtSecret))
    await expectVictimData(await sign({ ...victimClaims(), exp: now() + 600 }, api.config.jwtSecret))
  })

  it('with the secret, the victim’s user id on the attacker’s sign-in (the sign-in must be the user’s)', async () => {
    const exp = now() + 600
    await expectRefused(await sign({ ...victimClaims(), sid: attacker.sid, exp }, api.config.jwtSecret))
    await expectRefused(
      await sign(
        { ...victimClaims(), sid: '00000000-0000-4000-8000-000000000000', exp },
        api.config.jwtSecret,
      ),
    )
  })

  it('with the secret but no `typ`, a wrong `typ`, or no `exp`', async () => {
    const { typ: _, ...untyped } = { ...victimClaims(), exp: now() + 600 }
    await expectRefused(await sign(untyped, api.config.jwtSecret))
    await expectRefused(await sign({ ...untyped, typ: 'refresh' }, api.config.jwtSecret))
    // no `exp`: refused too, an access token that never ends is not one the API issues
    await expectRefused(await sign(victimClaims(), api.config.jwtSecret))
  })
})

describe('one kind of token for another', () => {
  it('a refresh token used as an access token', async () => {
    await expectRefused(victim.refresh)
  })

  it('an access token used as a refresh token: 400, no tokens, and the sign-in goes on', async () => {
    const r = await api.call<Err & Partial<Tokens>>('POST', '/api/auth/jwt/refresh/', {
      body: { refresh: victim.access },
    })
    expect(r.status).toBe(400)
    expect(r.body).toEqual({ detail: 'Сессия недействительна, войдите снова', code: 'refresh_invalid' })
    await expectVictimData(victim.access)
  })

  it('a tampered token never falls back to a guest: it cannot create an order either', async () => {
    const { product } = await makePubgStock(api, { codes: 1 })
    const forged = alter(attacker.access, { payload: { sub: String(victim.id) } })
    const r = await api.call<Err>('POST', '/api/orders/pubg/', {
      body: { products: [{ product_id: product.id, quantity: 1 }], email: 'guest@example.com' },
      token: forged,
    })
    expect(r.status).toBe(401)
    expect(r.body).toEqual(REFUSED)
  })
})
