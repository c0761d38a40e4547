import { createHmac } from 'node:crypto'
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

// the key is derived from the shop's secret when first needed: this file's own
process.env.JWT_SECRET = 'unit-test-secret-of-at-least-32-characters'

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

  it('ignores a broken cookie value instead of failing the page', () => {
    expect(decodeToasts('%%%not-base64')).toEqual([])
    expect(decodeToasts('')).toEqual([])
    const { toasts, headers } = readToasts(
      new Request('https://x/', { headers: { cookie: 'toast=garbage' } }),
    )
    expect(toasts).toEqual([])
    expect(headers.getSetCookie()[0]).toMatch(/^toast=;/)
  })

  it('is signed: an unsigned, tampered or otherwise-keyed value shows nothing', () => {
    const payload = Buffer.from(JSON.stringify([{ type: 'error', text: 'Переведите деньги на …' }])).toString(
      'base64url',
    )
    // the unsigned format of before
    expect(decodeToasts(payload)).toEqual([])
    // a signature made with another key
    const otherKey = createHmac('sha256', 'another-shop').update('toast-cookie-v1').digest()
    const foreign = createHmac('sha256', otherKey).update(payload).digest('base64url')
    expect(decodeToasts(`${payload}.${foreign}`)).toEqual([])
    // our signature on other text
    const good = encodeToasts([{ type: 'success', text: 'Сохранено' }])
    const signature = good.slice(good.lastIndexOf('.') + 1)
    expect(decodeToasts(`${payload}.${signature}`)).toEqual([])
    expect(decodeToasts(`${good.slice(0, -2)}AA`)).toEqual([])
    expect(decodeToasts(good)).toEqual([{ type: 'success', text: 'Сохранено' }])
    const { toasts } = readToasts(
      new Request('https://x/', { headers: { cookie: `toast=${payload}.${foreign}` } }),
    )
    expect(toasts).toEqual([])
  })

  it('cleans even a signed value: only known types, bounded text', () => {
    const signed = (value: unknown) => {
      const payload = Buffer.from(JSON.stringify(value)).toString('base64url')
      const key = createHmac('sha256', process.env.JWT_SECRET!).update('toast-cookie-v1').digest()
      return `${payload}.${createHmac('sha256', key).update(payload).digest('base64url')}`
    }
    expect(decodeToasts(signed({ type: 'error' }))).toEqual([])
    expect(
      decodeToasts(signed([{ type: 'error', text: 'ok' }, { type: 'script', text: 'x' }, { text: 5 }])),
    ).toEqual([{ type: 'error', text: 'ok' }])
  })

  it('bounds the number and length of toasts', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ type: 'warning' as const, text: `${i}`.repeat(900) }))
    const decoded = decodeToasts(encodeToasts(many))
    expect(decoded).toHaveLength(5)
    expect(decoded[0]?.text).toHaveLength(500)
  })
})
