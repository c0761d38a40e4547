import { describe, expect, it } from 'vitest'
import {
  decodeToasts,
  encodeToasts,
  readToasts,
  redirectWithToast,
  TOAST_COOKIE,
  TOAST_MAX_AGE_SECONDS,
  toastHeaders,
  toastsFrom,
} from '#app/lib/toast.server'

/** The request a browser sends next, carrying the cookies a response set. */
function followWithCookies(url: string, res: { headers: Headers }): Request {
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')
  return new Request(url, { headers: { cookie } })
}

describe('flash toasts through a cookie', () => {
  it('a redirect carries the toast to the next page, where the root loader reads and clears it', () => {
    const res = redirectWithToast('/profile', { type: 'success', text: 'Сохранено' })
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/profile')
    expect(res.headers.get('x-remix-revalidate')).toBe('yes')
    const [cookie] = res.headers.getSetCookie()
    expect(cookie).toMatch(new RegExp(`^${TOAST_COOKIE}=`))
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(new RegExp(`Max-Age=${TOAST_MAX_AGE_SECONDS}`))

    const next = followWithCookies('https://shop.example/profile', res)
    const { toasts, headers } = readToasts(next)
    expect(toasts).toEqual([{ type: 'success', text: 'Сохранено' }])
    const [cleared] = headers.getSetCookie()
    expect(cleared).toMatch(/^toast=;/)
    expect(cleared).toMatch(/Max-Age=0/)
  })

  it('is Secure outside plain-http localhost', () => {
    const local = toastHeaders({ type: 'error', text: 'x' }, new Request('http://localhost:3000/'))
    const real = toastHeaders({ type: 'error', text: 'x' }, new Request('https://shop.example/'))
    expect(local.getSetCookie()[0]).not.toMatch(/Secure/i)
    expect(real.getSetCookie()[0]).toMatch(/Secure/i)
  })

  it('keeps the order of several toasts and those still waiting in the request', () => {
    const first = toastHeaders([
      { type: 'error', text: 'Первая' },
      { type: 'error', text: 'Вторая' },
    ])
    const chained = toastHeaders(
      { type: 'success', text: 'Третья' },
      followWithCookies('https://shop.example/a', { headers: first }),
    )
    const toasts = toastsFrom(followWithCookies('https://shop.example/b', { headers: chained }))
    expect(toasts.map((t) => t.text)).toEqual(['Первая', 'Вторая', 'Третья'])
  })

  it('no cookie: no toasts and nothing to clear', () => {
    const { toasts, headers } = readToasts(new Request('https://shop.example/'))
    expect(toasts).toEqual([])
    expect(headers.getSetCookie()).toEqual([])
  })

  it('ignores a forged or broken cookie value instead of failing the page', () => {
    expect(decodeToasts('%%%not-base64')).toEqual([])
    expect(decodeToasts(Buffer.from('{"type":"error"}').toString('base64url'))).toEqual([])
    const forged = Buffer.from(
      JSON.stringify([{ type: 'error', text: 'ok' }, { type: 'script', text: 'x' }, { text: 5 }]),
    ).toString('base64url')
    expect(decodeToasts(forged)).toEqual([{ type: 'error', text: 'ok' }])
    const { toasts, headers } = readToasts(
      new Request('https://x/', { headers: { cookie: 'toast=garbage' } }),
    )
    expect(toasts).toEqual([])
    expect(headers.getSetCookie()[0]).toMatch(/^toast=;/)
  })

  it('bounds the number and length of toasts', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ type: 'warning' as const, text: `${i}`.repeat(900) }))
    const decoded = decodeToasts(encodeToasts(many))
    expect(decoded).toHaveLength(5)
    expect(decoded[0]?.text).toHaveLength(500)
  })
})
