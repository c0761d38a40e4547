// Social sign-in as a browser goes through it against the local fake provider: ask our API for
// the provider's address (with the browser nonce it hands out), let the fake approve as a given
// person, and read where it sends the browser back. Shared by the social API tests.
import { expect } from 'vitest'
import type { TestApi } from '#tests/helpers/test-api'

export const SHOP_ORIGIN = 'http://localhost:3000'
export const returnAddress = (p: string) => `${SHOP_ORIGIN}/auth/${p}/redirect/`

const TG_FIELDS = ['id', 'first_name', 'last_name', 'username', 'photo_url', 'auth_date', 'hash']

export interface ProviderReturn {
  /** Where the provider sent the browser back (Telegram's payload is in its fragment). */
  loc: URL
  /** The nonce the /url/ answer gave this browser (also its `social_nonce` cookie). */
  nonce: string
  /** The Set-Cookie of the /url/ answer. */
  setCookie: string
}

export async function goThroughProvider(
  api: TestApi,
  provider: string,
  user: string,
  opts: { extra?: Record<string, string>; token?: string; mode?: 'auth' | 'bind' } = {},
): Promise<ProviderReturn> {
  const mode = opts.mode ? `&mode=${opts.mode}` : ''
  const r = await api.call<{ url: string; nonce: string }>(
    'GET',
    `/api/auth/social/${provider}/url/?redirect_uri=${encodeURIComponent(returnAddress(provider))}${mode}`,
    { token: opts.token },
  )
  expect(r.status, JSON.stringify(r.body)).toBe(200)
  const u = new URL(r.body.url)
  u.searchParams.set('fake_user', user)
  for (const [k, v] of Object.entries(opts.extra ?? {})) u.searchParams.set(k, v)
  const res = await fetch(u, { redirect: 'manual' })
  expect(res.status).toBe(302)
  return {
    loc: new URL(res.headers.get('location')!),
    nonce: r.body.nonce,
    setCookie: r.headers.get('set-cookie') ?? '',
  }
}

/** What the storefront's /auth/{provider}/redirect page sends to the API (without the nonce). */
export function returnBody(provider: string, loc: URL) {
  const q = loc.searchParams
  const state = q.get('state') ?? undefined
  if (provider === 'steam') return { code: loc.search, redirect_uri: returnAddress(provider), state }
  if (provider === 'telegram') {
    const fragment = new URLSearchParams(loc.hash.slice(1)).get('tgAuthResult')
    const payload =
      fragment ?? JSON.stringify(Object.fromEntries([...q].filter(([k]) => TG_FIELDS.includes(k))))
    return { code: payload, redirect_uri: returnAddress(provider), state }
  }
  return {
    code: q.get('code')!,
    redirect_uri: returnAddress(provider),
    state,
    device_id: q.get('device_id') ?? undefined,
  }
}

/** The return body with this browser's nonce, as the storefront sends it. */
export const returnBodyWithNonce = (provider: string, r: ProviderReturn) => ({
  ...returnBody(provider, r.loc),
  nonce: r.nonce,
})
