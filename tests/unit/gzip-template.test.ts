// A page gzipped once with holes (server/gzip-template.ts): what a browser decodes from each filled
// copy must be the page with that response's values, byte for byte, whatever the values are.
import { randomBytes, randomUUID } from 'node:crypto'
import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { compileGzipTemplate, fillGzipTemplate, type TemplatePart } from '../../server/gzip-template'

const NONCE = -1
const nonce = () => Buffer.from(randomBytes(16).toString('base64'))
const key = () => Buffer.from(randomUUID())

/** The text a browser should see: the parts with each hole's value. */
function expected(parts: TemplatePart[], values: Map<number, Buffer>): string {
  return Buffer.concat(parts.map((p) => (typeof p === 'number' ? values.get(p)! : p))).toString()
}

async function roundTrip(parts: TemplatePart[], values: Map<number, Buffer>) {
  const holeBytes = new Map([...values].map(([id, v]) => [id, v.byteLength]))
  const template = await compileGzipTemplate(parts, holeBytes)
  const gz = fillGzipTemplate(template, (id) => values.get(id)!)
  expect(gz).not.toBeNull()
  return { gz: gz!, template }
}

/** A small deterministic generator: the same cases on every run. */
function prng(seed: number) {
  let s = seed
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff
    return s / 0x80000000
  }
}

const t = (s: string) => Buffer.from(s)

describe('gzip template', () => {
  it('decodes to the page with this response’s nonce and keys, the same value wherever one hole stands', async () => {
    const parts: TemplatePart[] = [
      t('<!doctype html><html><head><link nonce="'),
      NONCE,
      t('" rel="modulepreload" href="/assets/a.js"/><link nonce="'),
      NONCE,
      t('" rel="modulepreload" href="/assets/b.js"/></head><body><p>Пополнение UC</p><input value="'),
      0,
      t('"><script nonce="'),
      NONCE,
      t('">data({"key":"'),
      0,
      t('"})</script></body></html>'),
    ]
    const first = new Map([
      [NONCE, nonce()],
      [0, key()],
    ])
    const { gz, template } = await roundTrip(parts, first)
    expect(gunzipSync(gz).toString()).toBe(expected(parts, first))
    // the same template filled again with other values: another response
    const second = new Map([
      [NONCE, nonce()],
      [0, key()],
    ])
    const again = fillGzipTemplate(template, (id) => second.get(id)!)!
    expect(gunzipSync(again).toString()).toBe(expected(parts, second))
    expect(gunzipSync(again).toString()).not.toContain(first.get(NONCE)!.toString())
  })

  it('holes at the start, side by side and at the end', async () => {
    const parts: TemplatePart[] = [NONCE, 0, t('между'), 1, NONCE, 0]
    const values = new Map([
      [NONCE, nonce()],
      [0, key()],
      [1, key()],
    ])
    const { gz } = await roundTrip(parts, values)
    expect(gunzipSync(gz).toString()).toBe(expected(parts, values))
  })

  it('a page longer than deflate’s window, whose text repeats the values around it', async () => {
    const values = new Map([
      [NONCE, nonce()],
      [0, key()],
    ])
    const row = (i: number) => `<li class="product">UC ${i % 7} — 89 ₽ nonce=" value="</li>`
    const parts: TemplatePart[] = [t(Array.from({ length: 900 }, (_, i) => row(i)).join(''))]
    for (let i = 0; i < 30; i++) parts.push(i % 2 ? 0 : NONCE, t(row(i).repeat(40)))
    const { gz } = await roundTrip(parts, values)
    expect(gunzipSync(gz).toString()).toBe(expected(parts, values))
  })

  it('any mix of text and holes decodes right (200 generated pages)', async () => {
    const random = prng(20261124)
    const words = ['<div>', '</div>', 'nonce="', 'Стандофф 2 ', 'голда ', '"', '{"a":1}', '₽', 'AAAA', '\n']
    for (let n = 0; n < 200; n++) {
      const holes = 1 + Math.floor(random() * 3)
      const parts: TemplatePart[] = []
      for (let i = Math.floor(random() * 40); i >= 0; i--) {
        if (random() < 0.3) parts.push(Math.floor(random() * holes) - 1)
        else
          parts.push(
            t(
              Array.from(
                { length: Math.floor(random() * 30) },
                () => words[Math.floor(random() * words.length)],
              ).join(''),
            ),
          )
      }
      const values = new Map<number, Buffer>([[NONCE, nonce()]])
      for (let id = 0; id < holes - 1; id++)
        values.set(id, random() < 0.5 ? key() : Buffer.from('AAAA'.repeat(9)))
      const { gz } = await roundTrip(parts, values)
      expect(gunzipSync(gz).toString()).toBe(expected(parts, values))
    }
  })

  it('a reference deflate ends inside another hole never gets through (found by an outside review)', async () => {
    // Two keys whose placeholders begin with the same byte, each after the same 257 bytes: deflate's
    // longest match (258) can copy key 0's first byte where key 1's belongs. A check with random
    // values let such a template through 1 time in 256; every compile here must decode right.
    const holeBytes = new Map<number, number>([[NONCE, 24]])
    for (let id = 0; id < 40; id++) holeBytes.set(id, 36)
    const random = prng(7)
    const letters = (n: number) =>
      t(Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join(''))
    const x = letters(257)
    const parts: TemplatePart[] = [letters(100), x, 0, letters(110), x, 1, letters(110), x, 0, letters(50)]
    // values with a different byte at every hole position: any byte from the wrong place shows
    let c = 0
    const values = new Map(
      [...holeBytes].map(([id, n]) => [id, Buffer.from(Array.from({ length: n }, () => 32 + (c++ % 90)))]),
    )
    for (let i = 0; i < 300; i++) {
      const template = await compileGzipTemplate(parts, holeBytes)
      expect(gunzipSync(fillGzipTemplate(template, (id) => values.get(id)!)!).toString()).toBe(
        expected(parts, values),
      )
    }
  })

  it('more holes than placeholders can tell apart: each in a block of its own, still right', async () => {
    const values = new Map<number, Buffer>(Array.from({ length: 70 }, (_, id) => [id, key()]))
    const parts: TemplatePart[] = []
    for (let i = 0; i < 140; i++) parts.push(t(`<input name="k${i}" value="`), i % 70, t('">'))
    const { gz } = await roundTrip(parts, values)
    expect(gunzipSync(gz).toString()).toBe(expected(parts, values))
  })

  it('refuses a value of another length than its hole (then the page is compressed as usual)', async () => {
    const parts: TemplatePart[] = [t('<p nonce="'), NONCE, t('">x</p>')]
    const template = await compileGzipTemplate(parts, new Map([[NONCE, 24]]))
    expect(fillGzipTemplate(template, () => Buffer.from('short'))).toBeNull()
    expect(fillGzipTemplate(template, () => nonce())).not.toBeNull()
  })

  it('costs a page about what gzipping it whole does', async () => {
    const html = (n: string) =>
      `<!doctype html><html><head>${Array.from({ length: 15 }, (_, i) => `<link nonce="${n}" rel="modulepreload" href="/assets/chunk-${i}.js"/>`).join('')}</head><body>${Array.from({ length: 120 }, (_, i) => `<a class="card" href="/products/${i}"><h3>PUBG Mobile ${i} UC</h3><p>от ${89 + i} ₽</p></a>`).join('')}<script nonce="${n}">x()</script></body></html>`
    const n = nonce()
    const parts: TemplatePart[] = html('\0')
      .split('\0')
      .flatMap((s, i) => (i ? [NONCE, t(s)] : [t(s)]))
    const { gz } = await roundTrip(parts, new Map([[NONCE, n]]))
    const whole = gzipSync(html(n.toString()), { level: 9 }).byteLength
    // the nonce's repeats are references to its first occurrence, as in a whole gzip
    expect(gz.byteLength).toBeLessThan(whole * 1.05)
  })
})
