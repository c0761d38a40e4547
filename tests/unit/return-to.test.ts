// Issue 20, finding 2: the one `returnTo` rule. Whatever comes in, what goes out is our fallback
// or a path that a browser's URL parser (the WHATWG parser, as Node's URL) resolves on our own
// origin, and that is safe in a Location header.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { safeReturnTo } from '#app/lib/return-to'

const SHOP = 'https://shop.example'

/** Where a browser on our page goes with `Location: value`, and whether the header can carry it. */
function browserTarget(value: string): URL {
  new Headers({ location: value }) // throws on what a header cannot carry (a 500 before)
  return new URL(value, `${SHOP}/auth?x=1`)
}

function expectSafe(input: string) {
  const out = safeReturnTo(input, '/fallback')
  const target = browserTarget(out)
  expect(target.origin, `${JSON.stringify(input)} → ${JSON.stringify(out)}`).toBe(SHOP)
  // a path of the shop: one slash, not `//host` nor `/\host`
  expect(out).toMatch(/^\/(?![/\\])/)
  expect(out, 'header-safe').toMatch(/^[\x21-\x7e]*$/)
  // the rule is stable: a value it returns passes again unchanged
  expect(safeReturnTo(out, '/fallback')).toBe(out)
  return out
}

describe('safeReturnTo', () => {
  it.each([
    '/%09/evil.example/x',
    '/\t/evil.example/x',
    '/\t\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '/.//evil.example',
    '/./\\evil.example',
    '/%2F/evil.example',
    '/%2f%2fevil.example',
    '/%5C%5Cevil.example',
    'https://evil.example/',
    'http:evil.example',
    'javascript:alert(1)',
    ' /x',
    '/\u0000/evil.example',
    '/\u007f',
    '/\u3000/evil.example',
    '/a b?c=d e#f g',
    '',
    `/${'a'.repeat(3000)}`,
  ])('%j stays on our origin and is header-safe', (input) => {
    expectSafe(input)
    expectSafe(decodeURIComponent(input.replace(/%(?![0-9a-f]{2})/gi, '%25')))
  })

  it('refuses what a browser would read as another origin, or a header cannot carry', () => {
    for (const bad of [
      '/\t/evil.example/x',
      '/\n/x',
      '//evil.example',
      '/\\evil.example',
      '/.//evil.example',
    ])
      expect(safeReturnTo(bad)).toBe('/')
  })

  it('keeps ordinary paths, queries and fragments', () => {
    expect(safeReturnTo('/gifts?page=2')).toBe('/gifts?page=2')
    expect(safeReturnTo('/products/7?repeat=abc#form')).toBe('/products/7?repeat=abc#form')
    expect(safeReturnTo('/profile')).toBe('/profile')
    expect(safeReturnTo('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example') // a path on our host
    expect(safeReturnTo(null, '/profile')).toBe('/profile')
    expect(safeReturnTo(42)).toBe('/')
  })

  it('property: any string made of tricky pieces ends on our origin (raw and once decoded)', () => {
    const piece = fc.constantFrom(
      '/',
      '//',
      '\\',
      '\t',
      '\n',
      '\r',
      ' ',
      '%09',
      '%0a',
      '%0d',
      '%2F',
      '%2f',
      '%5C',
      '%25',
      '.',
      '..',
      'evil.example',
      'shop.example',
      ':',
      '@',
      '?',
      '#',
      '&',
      '=',
      'http:',
      'https://',
      'javascript:',
      '\u0000',
      '\u00a0',
      '\u3000',
      'x',
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), fc.string({ maxLength: 8 }), (pieces, tail) => {
        const raw = pieces.join('') + tail
        expectSafe(raw)
        let decoded: string
        try {
          decoded = decodeURIComponent(raw)
        } catch {
          return
        }
        expectSafe(decoded)
      }),
      { numRuns: 3000, seed: 20 },
    )
  })
})
