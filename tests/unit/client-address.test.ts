// The client's address (issue 19): X-Forwarded-For only from a trusted proxy, read from the right;
// a storefront's signed address believed; everything else is the socket peer.
import { describe, expect, it } from 'vitest'
import {
  CLIENT_SIGNATURE_HEADER,
  parseTrustProxy,
  resolveClientAddress,
  signClientAddress,
} from '../../server/client-address'

const SECRET = 'k'.repeat(40)
const rule = (trust: string, secret: string | null = null) => ({
  trustProxy: parseTrustProxy(trust),
  secret,
  addressHeader: 'x-shop-client-ip',
})
const h = (headers: Record<string, string>) => new Headers(headers)

describe('TRUST_PROXY', () => {
  it('reads addresses and CIDRs, IPv4 and IPv6, and names a bad entry', () => {
    const peers = parseTrustProxy(' 10.0.0.0/8, 192.168.1.5 ,::1, fd00::/8')
    expect(peers.has('10.200.3.4')).toBe(true)
    expect(peers.has('::ffff:10.1.1.1')).toBe(true)
    expect(peers.has('192.168.1.5')).toBe(true)
    expect(peers.has('192.168.1.6')).toBe(false)
    expect(peers.has('::1')).toBe(true)
    expect(peers.has('fd12::1')).toBe(true)
    expect(peers.has('not an address')).toBe(false)
    expect(() => parseTrustProxy('10.0.0.0/8, proxy.local')).toThrow(/proxy\.local/)
    expect(() => parseTrustProxy('10.0.0.0/40')).toThrow(/10\.0\.0\.0\/40/)
  })
})

describe('the client address', () => {
  it('is the socket peer when no proxy is trusted, whatever the headers say', () => {
    const headers = h({ 'x-forwarded-for': '203.0.113.5', 'x-real-ip': '203.0.113.6' })
    expect(resolveClientAddress('::ffff:198.51.100.7', headers, rule(''))).toBe('198.51.100.7')
    expect(resolveClientAddress(undefined, headers, rule(''))).toBe('unknown')
  })

  it('believes X-Forwarded-For from a trusted proxy: the rightmost hop that is not a proxy', () => {
    const r = rule('10.0.0.0/8')
    expect(resolveClientAddress('10.0.0.2', h({ 'x-forwarded-for': '203.0.113.5' }), r)).toBe('203.0.113.5')
    // the client wrote the left part itself: never believed
    expect(resolveClientAddress('10.0.0.2', h({ 'x-forwarded-for': '1.1.1.1, 203.0.113.5' }), r)).toBe(
      '203.0.113.5',
    )
    // two trusted proxies in a row
    expect(resolveClientAddress('10.0.0.2', h({ 'x-forwarded-for': '203.0.113.5, 10.0.0.9' }), r)).toBe(
      '203.0.113.5',
    )
    // no header: the proxy itself
    expect(resolveClientAddress('10.0.0.2', h({}), r)).toBe('10.0.0.2')
    // garbage stops the walk at the last trusted hop
    expect(resolveClientAddress('10.0.0.2', h({ 'x-forwarded-for': 'evil, 10.0.0.9' }), r)).toBe('10.0.0.9')
  })

  it('stays right for addresses seen before, after many others (its parse cache is bounded)', () => {
    const r = rule('10.0.0.0/8')
    const viaProxy = (xff: string) => resolveClientAddress('10.0.0.2', h({ 'x-forwarded-for': xff }), r)
    expect(viaProxy('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(viaProxy('not-an-ip, 10.0.0.9')).toBe('10.0.0.9')
    // a client cycling X-Forwarded-For values: far more than the cache keeps
    for (let i = 0; i < 3000; i++) {
      expect(viaProxy(`198.51.${i >> 8}.${i & 255}`)).toBe(`198.51.${i >> 8}.${i & 255}`)
    }
    expect(viaProxy('::ffff:203.0.113.5')).toBe('203.0.113.5')
    expect(viaProxy('not-an-ip, 10.0.0.9')).toBe('10.0.0.9')
    expect(resolveClientAddress('::ffff:10.0.0.2', h({}), r)).toBe('10.0.0.2')
  })

  it('ignores X-Forwarded-For from anyone not trusted (a spoofing client)', () => {
    const r = rule('10.0.0.0/8')
    expect(resolveClientAddress('203.0.113.50', h({ 'x-forwarded-for': '10.0.0.1, 1.2.3.4' }), r)).toBe(
      '203.0.113.50',
    )
  })

  it('believes a storefront-signed address, and nothing forged, stale or signed with another key', () => {
    const r = rule('', SECRET)
    const signed = (addr: string, sig: string) =>
      h({ 'x-shop-client-ip': addr, [CLIENT_SIGNATURE_HEADER]: sig })
    const now = Date.now()
    expect(
      resolveClientAddress('10.0.0.2', signed('203.0.113.5', signClientAddress(SECRET, '203.0.113.5')), r),
    ).toBe('203.0.113.5')
    // the signature covers the address
    expect(
      resolveClientAddress('10.0.0.2', signed('203.0.113.6', signClientAddress(SECRET, '203.0.113.5')), r),
    ).toBe('10.0.0.2')
    expect(
      resolveClientAddress(
        '10.0.0.2',
        signed('203.0.113.5', signClientAddress('other'.repeat(8), '203.0.113.5')),
        r,
      ),
    ).toBe('10.0.0.2')
    expect(
      resolveClientAddress(
        '10.0.0.2',
        signed('203.0.113.5', signClientAddress(SECRET, '203.0.113.5', now - 3_600_000)),
        r,
      ),
    ).toBe('10.0.0.2')
    expect(resolveClientAddress('10.0.0.2', signed('203.0.113.5', 'garbage'), r)).toBe('10.0.0.2')
    // without a secret nothing signed is believed
    expect(
      resolveClientAddress(
        '10.0.0.2',
        signed('203.0.113.5', signClientAddress(SECRET, '203.0.113.5')),
        rule(''),
      ),
    ).toBe('10.0.0.2')
  })
})
