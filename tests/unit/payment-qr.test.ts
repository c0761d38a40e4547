// The payment page's QR codes, drawn on our server: a well-formed SVG that needs no inline CSS,
// the same drawing for the same text, and the modules of a valid QR code of that text.
import QRCode from 'qrcode-svg'
import { describe, expect, it } from 'vitest'
import { QUIET_ZONE, qrImage, qrMatrix, qrSvg } from '#app/lib/qr.server'

const URL_TEXT = 'http://localhost:3200/api/payments/sandbox/checkout/7c0a4f1e-1d2b-4c6e-9a8b-0123456789ab/'
const INVOICE = 'ST00012|Name=ООО «ИгроМаркет»|PersonalAcc=40702810900000000001|Sum=92597'

/** The path's runs drawn back onto a grid (what a renderer would paint). */
function rasterize(path: string, size: number): boolean[][] {
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false))
  const run = /M(\d+) (\d+)h(\d+)v1h-(\d+)z/g
  let consumed = 0
  for (const m of path.matchAll(run)) {
    const [x, y, w, back] = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]
    expect(back).toBe(w)
    for (let i = 0; i < w; i++) {
      expect(grid[y]![x + i]).toBe(false) // runs never overlap
      grid[y]![x + i] = true
    }
    consumed += m[0].length
  }
  expect(consumed).toBe(path.length) // nothing but runs in the path
  return grid
}

/** Tags open and close in order (a small well-formedness check of our own markup). */
function expectWellFormed(xml: string) {
  const stack: string[] = []
  for (const m of xml.matchAll(/<(\/?)([a-z]+)([^>]*?)(\/?)>/g)) {
    const [, closing, name, , selfClosing] = m
    if (selfClosing) continue
    if (closing) expect(stack.pop()).toBe(name)
    else stack.push(name!)
  }
  expect(stack).toEqual([])
  expect(xml.replace(/<[^>]*>/g, '')).toBe('') // no stray text
}

function finderAt(m: boolean[][], row: number, col: number) {
  for (let r = 0; r < 7; r++)
    for (let c = 0; c < 7; c++) {
      const ring = r === 0 || r === 6 || c === 0 || c === 6
      const core = r >= 2 && r <= 4 && c >= 2 && c <= 4
      expect(m[row + r]![col + c], `finder module ${row + r},${col + c}`).toBe(ring || core)
    }
}

/** BCH(15,5) code of the QR format information. */
function formatBch(data: number): number {
  let d = data << 10
  const g = 0b10100110111
  for (let i = 14; i >= 10; i--) if ((d >> i) & 1) d ^= g << (i - 10)
  return (data << 10) | d
}

describe('qrSvg', () => {
  it('is one well-formed SVG document with presentation attributes only (no style for the CSP to block)', () => {
    const svg = qrSvg(URL_TEXT, 'QR-код для оплаты')
    expect(svg).toMatch(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1" role="img" aria-label="QR-код для оплаты"/,
    )
    expectWellFormed(svg)
    expect(svg).not.toMatch(/style=/)
    expect(svg.match(/<rect /g)).toHaveLength(1)
    expect(svg.match(/<path /g)).toHaveLength(1)
    expect(svg).toContain('fill="#fff"')
    expect(svg).toContain('fill="#000"')
  })

  it('escapes its label', () => {
    expect(qrSvg('x', 'a "b" <c> & d')).toContain('aria-label="a &#34;b&#34; &#60;c&#62; &#38; d"')
  })

  it('draws the same code for the same text, and another for another text', () => {
    expect(qrSvg(URL_TEXT)).toBe(qrSvg(URL_TEXT))
    expect(qrImage(URL_TEXT)).toEqual(qrImage(URL_TEXT))
    expect(qrImage(URL_TEXT).path).not.toBe(qrImage(`${URL_TEXT}x`).path)
  })

  it('refuses to encode nothing', () => {
    expect(() => qrImage('')).toThrow(RangeError)
  })
})

describe.each([
  ['a payment link', URL_TEXT],
  ['an invoice string with Cyrillic', INVOICE],
])('the code of %s', (_name, text) => {
  const matrix = qrMatrix(text)
  const n = matrix.length

  it('paints exactly the encoder’s dark modules, inside a 4-module quiet zone', () => {
    const { size, path } = qrImage(text)
    expect(size).toBe(n + 2 * QUIET_ZONE)
    const grid = rasterize(path, size)
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++) {
        const inside = y >= QUIET_ZONE && y < QUIET_ZONE + n && x >= QUIET_ZONE && x < QUIET_ZONE + n
        expect(grid[y]![x], `module ${x},${y}`).toBe(
          inside ? matrix[y - QUIET_ZONE]![x - QUIET_ZONE]! : false,
        )
      }
    // not transposed or mirrored: row-major as the encoder built it
    const model = new QRCode({ content: text, ecl: 'M', padding: 0 }).qrcode
    expect(matrix).toEqual(model.modules)
  })

  it('is a valid QR symbol: size of its version, finder and timing patterns, format information for level M', () => {
    expect((n - 17) % 4).toBe(0)
    finderAt(matrix, 0, 0)
    finderAt(matrix, 0, n - 7)
    finderAt(matrix, n - 7, 0)
    for (let i = 8; i < n - 8; i++) {
      expect(matrix[6]![i]).toBe(i % 2 === 0)
      expect(matrix[i]![6]).toBe(i % 2 === 0)
    }
    expect(matrix[n - 8]![8]).toBe(true) // the always-dark module
    // the 15 format bits next to the top-left finder: BCH-valid, masked with 0x5412, level M (00)
    let bits = 0
    for (let i = 0; i < 15; i++) {
      const dark = i < 6 ? matrix[i]![8] : i < 8 ? matrix[i + 1]![8] : matrix[n - 15 + i]![8]
      if (dark) bits |= 1 << i
    }
    const format = bits ^ 0x5412
    const data = format >> 10
    expect(formatBch(data)).toBe(format)
    expect(data >> 3).toBe(0b00) // error correction level M
  })
})
