// A signed-in buyer's kept pages (server/personal-pages.ts, decision 103) over the page cache with a
// personal marker: which requests may use a kept copy, that the key names the buyer and their data
// stamp, and that a copy is kept only when the route marked it personal.
import { describe, expect, it } from 'vitest'
import { PERSONAL_PAGE_HEADER, SHARED_PAGE_HEADER } from '#app/lib/shared-page.server'
import { createPageCache, PAGE_CACHE_STATUS_HEADER as STATUS, type PageRender } from '../../server/page-cache'
import { createPersonalPages } from '../../server/personal-pages'

const ORDER = '0b8f7c1e-2f4a-4c1b-9a55-3f2d6e7a8b90'
const NONCE = 'bm9uY2UtUC0xMjM0NTY3OA=='

function page(path: string, cookie: string, init: RequestInit = {}) {
  return new Request(`http://shop.test${path}`, { ...init, headers: { cookie, ...(init.headers ?? {}) } })
}

/** A render of one buyer's page: their name, the nonce and a form key; marked as told. */
function renderer(name: string, mark: string | null = PERSONAL_PAGE_HEADER) {
  let calls = 0
  const render = async (r: PageRender) => {
    calls++
    const headers = new Headers({ 'content-type': 'text/html; charset=utf-8' })
    if (mark) headers.set(mark, '1')
    const body = `<script nonce="${r.nonce}"></script><p>${name}</p><input value="${r.formKey()}">`
    return new Response(body, { headers })
  }
  return { render, calls: () => calls }
}

function setup(stamps: Record<string, string | null>) {
  const asked: string[] = []
  const pages = createPersonalPages(
    createPageCache({ ttlMs: 60_000, marker: PERSONAL_PAGE_HEADER }),
    async (access, orderId) => {
      asked.push(orderId ? `${access} ${orderId}` : access)
      if (access === 'broken') throw new Error('database away')
      const key = stamps[access]
      return key ? { key } : null
    },
  )
  return { pages, asked }
}

describe('personal pages', () => {
  it('keeps a buyer’s profile and pay page under their stamp, with a fresh nonce and form key', async () => {
    const { pages } = setup({ tokA: '1:s1', tokB: '2:s1' })
    for (const path of ['/profile', '/profile.data', `/orders/${ORDER}/pay`, `/orders/${ORDER}/pay.data`]) {
      const a = renderer('Аня')
      const first = await pages.serve(page(path, 'access=tokA; refresh=r'), NONCE, a.render)
      expect(first!.headers.get(STATUS), path).toBe('miss')
      expect(first!.headers.has(PERSONAL_PAGE_HEADER)).toBe(false)
      const firstBody = await first!.text()
      const again = await pages.serve(
        page(path, 'access=tokA; refresh=r'),
        'bm9uY2UtUS0xMjM0NTY3OA==',
        a.render,
      )
      expect(again!.headers.get(STATUS), path).toBe('hit')
      const body = await again!.text()
      expect(body).toContain('<p>Аня</p>')
      expect(body).toContain('bm9uY2UtUS0xMjM0NTY3OA==')
      expect(body).not.toContain(NONCE)
      expect(body.match(/value="([^"]+)"/)![1]).not.toBe(firstBody.match(/value="([^"]+)"/)![1])
      expect(a.calls()).toBe(1)
      // another buyer's request for the same page never gets that copy
      const b = renderer('Боря')
      const other = await pages.serve(page(path, 'access=tokB'), NONCE, b.render)
      expect(await other!.text()).toContain('<p>Боря</p>')
      expect(b.calls()).toBe(1)
    }
  })

  it('asks for the stamp of the pay page’s own order', async () => {
    const { pages, asked } = setup({ tokA: '1:s1' })
    const a = renderer('Аня')
    for (const path of ['/profile', `/orders/${ORDER}/pay`, `/orders/${ORDER}/pay.data`])
      await (await pages.serve(page(path, 'access=tokA'), NONCE, a.render))!.text()
    expect(asked).toEqual(['tokA', `tokA ${ORDER}`, `tokA ${ORDER}`])
  })

  it('renders again when the buyer’s stamp changes', async () => {
    const stamps: Record<string, string | null> = { tokA: '1:s1' }
    const { pages } = setup(stamps)
    const a = renderer('Аня')
    await (await pages.serve(page('/profile', 'access=tokA'), NONCE, a.render))!.text()
    stamps.tokA = '1:s2'
    const after = await pages.serve(page('/profile', 'access=tokA'), NONCE, a.render)
    expect(after!.headers.get(STATUS)).toBe('miss')
    expect(a.calls()).toBe(2)
  })

  it('leaves every other request to the whole render', async () => {
    const { pages, asked } = setup({ tokA: '1:s1' })
    const a = renderer('Аня')
    const refused = [
      page('/products/1', 'access=tokA'), // not a personal page
      page('/profile/security', 'access=tokA'),
      page(`/orders/${ORDER}/pay`, 'access=tokA', { method: 'POST' }),
      page('/profile', ''), // no sign-in
      page('/profile', 'access=tokA; toast=x'), // a toast to show once
      page('/profile?auth=login', 'access=tokA'), // a popup open
      page('/profile', 'access=tokA', { headers: { authorization: 'Bearer tokA' } }),
      page('/profile', 'access=dead'), // a sign-in that ended
      page('/profile', 'access=broken'), // the database away
    ]
    for (const req of refused) expect(await pages.serve(req, NONCE, a.render), req.url).toBeNull()
    expect(a.calls()).toBe(0)
    expect(asked).toEqual(['dead', 'broken'])
  })

  it('keeps only an answer its route marked personal', async () => {
    const { pages } = setup({ tokA: '1:s1' })
    for (const mark of [null, SHARED_PAGE_HEADER]) {
      const a = renderer('Аня', mark)
      for (let i = 0; i < 2; i++) {
        const res = await pages.serve(page(`/profile?page=${mark}`, 'access=tokA'), NONCE, a.render)
        expect(res!.headers.has(SHARED_PAGE_HEADER)).toBe(false)
        await res!.text()
      }
      expect(a.calls(), String(mark)).toBe(2)
    }
  })
})
