// Issue 20 item 9: without PUBLIC_URL a forged Host header must not reach canonical links, the
// sitemap or robots.txt; the demo's links point at localhost on its own port.
import { describe, expect, it } from 'vitest'
import { siteOrigin } from '#app/lib/seo.server'

const forged = new Request('http://evil.example/products/1', { headers: { host: 'evil.example' } })

describe('the public origin', () => {
  it('is PUBLIC_URL when set, whatever Host the request carried', () => {
    expect(siteOrigin(forged, { PUBLIC_URL: 'https://shop.example/ru/' })).toBe('https://shop.example')
  })

  it('is localhost on the configured port without PUBLIC_URL, never the request’s Host', () => {
    expect(siteOrigin(forged, { PORT: '3420' })).toBe('http://localhost:3420')
    expect(siteOrigin(forged, {})).toBe('http://localhost:3000')
  })
})
