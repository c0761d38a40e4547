// The personal fill (server/personal-fill.ts) with a render that behaves like the storefront's: it
// reads the profile through the API it is given and shows it. What a template may hold, when a
// page is rendered whole instead, and that one buyer's values never reach another.
import { describe, expect, it } from 'vitest'
import { createPersonalFill, type FillHandlers, type TemplateRender } from '../../server/personal-fill'
import { PAGE_CACHE_STATUS_HEADER as STATUS } from '../../server/page-cache'
import { SHARED_PAGE_HEADER } from '#app/lib/shared-page.server'

interface Profile {
  id: number
  email: string | null
  nickname: string
  balance: string
  social_accounts: string[]
  moogold_server?: number | null
}

const ann: Profile = {
  id: 41,
  email: 'ann@example.com',
  nickname: 'Аня',
  balance: '1234.56',
  social_accounts: [],
}
const bob: Profile = {
  id: 52,
  email: 'bob@example.com',
  nickname: 'Bob K',
  balance: '777.77',
  social_accounts: [],
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

type Page = (p: Profile, key: string, nonce: string) => string
/** The header's account, a prefilled email, a form key and the page's data, as the shop has them. */
const page: Page = (p, key, nonce) =>
  `<header>${escapeHtml(p.nickname)} · ${p.balance} ₽</header>` +
  `<input name="email" value="${escapeHtml(p.email ?? '')}"><input name="key" value="${key}">` +
  `<script nonce="${nonce}">data(${JSON.stringify(JSON.stringify({ user: p }))})</script>`

/** A shop: the buyer's profile by token, and renders that count themselves. */
function shop(options: { page?: Page; extraCall?: string; shared?: boolean } = {}) {
  const profiles = new Map<string, Profile>()
  const renders: string[] = []
  const fullRenders: string[] = []
  const render = async (r: TemplateRender): Promise<Response> => {
    const profile = (await (
      await r.apiFetch(new Request('http://shop.internal/api/auth/profile/'))
    ).json()) as Profile
    if (options.extraCall) await r.apiFetch(new Request(`http://shop.internal${options.extraCall}`))
    const body = (options.page ?? page)(profile, r.formKey(), r.nonce)
    renders.push(body)
    const headers = new Headers({ 'content-type': 'text/html; charset=utf-8' })
    if (options.shared !== false) headers.set(SHARED_PAGE_HEADER, '1')
    return new Response(body, { headers })
  }
  const handlers = (token: string): FillHandlers => ({
    readAsBuyer: async (path, access) => {
      expect(path).toBe('/api/auth/profile/')
      const p = profiles.get(access)
      return p ? Response.json(p) : Response.json({ code: 'token_not_valid' }, { status: 401 })
    },
    readPublic: async () => Response.json({ results: [] }),
    renderTemplate: (req, r) => {
      // the template's request carries no token of any buyer
      expect(req.headers.get('cookie')).not.toContain(token)
      return render(r)
    },
    full: async () => {
      const p = profiles.get(token)!
      const body = (options.page ?? page)(p, crypto.randomUUID(), 'full-nonce')
      fullRenders.push(body)
      return new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8' } })
    },
  })
  return { profiles, renders, fullRenders, handlers }
}

const request = (token: string, path = '/products/1') =>
  new Request(`http://localhost${path}`, { headers: { cookie: `access=${token}; refresh=r-${token}` } })

async function get(
  fill: ReturnType<typeof createPersonalFill>,
  s: ReturnType<typeof shop>,
  token: string,
  path?: string,
) {
  const nonce = `nonce-${crypto.randomUUID()}`
  const res = await fill.serve(request(token, path), nonce, s.handlers(token))
  return { status: res.headers.get(STATUS), body: await res.text(), nonce }
}

describe('personal fill', () => {
  it('fills one template per page and shape with each buyer’s own values, and keeps nothing of theirs', async () => {
    const s = shop()
    s.profiles.set('tok-ann', ann)
    s.profiles.set('tok-bob', bob)
    const fill = createPersonalFill({ ttlMs: 60_000 })
    // first time for this page and shape: rendered whole
    expect((await get(fill, s, 'tok-ann')).status).toBeNull()
    const second = await get(fill, s, 'tok-ann')
    expect(second.status).toBe('fill')
    const third = await get(fill, s, 'tok-bob')
    expect(third.status).toBe('fill')
    // two template renders, for both buyers
    expect(s.renders).toHaveLength(2)
    for (const t of s.renders)
      for (const v of ['ann@', 'bob@', 'Аня', 'Bob K', '1234.56', '777.77', '"id":41', '"id":52'])
        expect(t).not.toContain(v)

    // the filled page is what a whole render makes, with this response's nonce and a fresh key
    const key = (body: string) => /name="key" value="([^"]+)"/.exec(body)![1]!
    expect(second.body).toBe(page(ann, key(second.body), second.nonce))
    expect(third.body).toBe(page(bob, key(third.body), third.nonce))
    expect(third.body).not.toContain('ann@example.com')
    expect(third.body).not.toContain('1234.56')
    expect(key(second.body)).not.toBe(key(third.body))
    for (const t of s.renders) {
      expect(t).not.toContain(key(second.body))
      expect(t).not.toContain(key(third.body))
    }
  })

  it('renders whole a buyer whose value needs escaping', async () => {
    const s = shop()
    const mallory = { ...bob, id: 66, nickname: '<script>alert(1)</script>' }
    s.profiles.set('tok-ann', ann)
    s.profiles.set('tok-m', mallory)
    const fill = createPersonalFill({ ttlMs: 60_000 })
    await get(fill, s, 'tok-ann')
    expect((await get(fill, s, 'tok-ann')).status).toBe('fill')
    for (let i = 0; i < 2; i++) {
      const res = await get(fill, s, 'tok-m')
      expect(res.status).toBeNull()
      expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
      expect(res.body).not.toContain('<header><script>')
    }
    for (const quote of [`O'Brien`, 'a"b', 'Tom & Jerry', 'line\u2028break']) {
      s.profiles.set('tok-q', { ...bob, nickname: quote })
      expect((await get(fill, s, 'tok-q')).status).toBeNull()
    }
  })

  it('keys by shape: an empty email is another template, and a zero balance is not a hole', async () => {
    const s = shop()
    s.profiles.set('tok-a', { ...ann, email: null, balance: '0.00' })
    s.profiles.set('tok-b', { ...bob, email: null, balance: '0.00' })
    s.profiles.set('tok-c', ann)
    const fill = createPersonalFill({ ttlMs: 60_000 })
    await get(fill, s, 'tok-a')
    expect((await get(fill, s, 'tok-b')).status).toBe('fill')
    expect((await get(fill, s, 'tok-c')).status).toBeNull()
    expect((await get(fill, s, 'tok-c')).status).toBe('fill')
    expect(s.renders).toHaveLength(4)
  })

  it('keys by the last order’s server: the select a page pre-chooses from it is right without JavaScript', async () => {
    const select: Page = (p, key, nonce) =>
      `${page(p, key, nonce)}<select>${[3, 5]
        .map((id) => `<option value="${id}"${p.moogold_server === id ? ' selected' : ''}>${id}</option>`)
        .join('')}</select>`
    const s = shop({ page: select })
    s.profiles.set('tok-a', { ...ann, moogold_server: 3 })
    s.profiles.set('tok-b', { ...bob, moogold_server: 5 })
    s.profiles.set('tok-c', { ...bob, email: 'carl@example.com', moogold_server: 5 })
    const fill = createPersonalFill({ ttlMs: 60_000 })
    for (const token of ['tok-a', 'tok-b', 'tok-a', 'tok-b', 'tok-c']) {
      const res = await get(fill, s, token)
      const server = s.profiles.get(token)!.moogold_server
      expect(res.body).toContain(`<option value="${server}" selected>`)
      expect(res.body.match(/ selected/g)).toHaveLength(1)
    }
    // tok-c shares tok-b's shape (server 5): filled from that template
    expect((await get(fill, s, 'tok-c')).status).toBe('fill')
  })

  it('renders whole a page that uses a personal value otherwise than showing it', async () => {
    const initial: Page = (p, key, nonce) =>
      `${page(p, key, nonce)}<i>${p.nickname.slice(0, 1).toUpperCase()}</i>`
    const s = shop({ page: initial })
    s.profiles.set('tok-ann', ann)
    const fill = createPersonalFill({ ttlMs: 60_000 })
    for (let i = 0; i < 4; i++) {
      const res = await get(fill, s, 'tok-ann')
      expect(res.status).toBeNull()
      expect(res.body).toContain('<i>А</i>')
    }
    // tried once for the cache time, not on every request
    expect(s.renders).toHaveLength(2)
  })

  it('renders whole a page that makes another API call, or that its route does not share', async () => {
    for (const options of [{ extraCall: '/api/orders/?page=1' }, { shared: false }]) {
      const s = shop(options)
      s.profiles.set('tok-ann', ann)
      const fill = createPersonalFill({ ttlMs: 60_000 })
      for (let i = 0; i < 4; i++) expect((await get(fill, s, 'tok-ann')).status).toBeNull()
      expect(s.renders).toHaveLength(2)
      expect(s.fullRenders).toHaveLength(4)
    }
  })

  it('leaves alone guests, other cookies, popups, posts and expired tokens', async () => {
    const s = shop()
    s.profiles.set('tok-ann', ann)
    const fill = createPersonalFill({ ttlMs: 60_000 })
    const full = async (req: Request) =>
      (await fill.serve(req, 'n', s.handlers('tok-ann'))).headers.get(STATUS)
    expect(await full(new Request('http://localhost/products/1'))).toBeNull()
    for (let i = 0; i < 2; i++) {
      expect(
        await full(new Request('http://localhost/', { headers: { cookie: 'access=tok-ann; toast=x' } })),
      ).toBeNull()
      expect(await full(request('tok-ann', '/?last-orders=1'))).toBeNull()
      expect(await full(request('tok-expired'))).toBeNull()
    }
    expect(s.renders).toHaveLength(0)
  })
})
