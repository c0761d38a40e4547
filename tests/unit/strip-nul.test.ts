import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { stripNulBytes } from '#app/lib/strip-nul.server'

async function run(chunks: Buffer[]): Promise<string> {
  const out: Buffer[] = []
  for await (const c of Readable.from(chunks).pipe(stripNulBytes())) out.push(c as Buffer)
  return Buffer.concat(out).toString('utf8')
}

describe('stripNulBytes', () => {
  it('restores Cyrillic text that React padded with a NUL at a buffer boundary', async () => {
    const broken = Buffer.concat([
      Buffer.from('…>Войт', 'utf8'),
      Buffer.from([0]),
      Buffer.from('и</a>', 'utf8'),
    ])
    expect(await run([broken])).toBe('…>Войти</a>')
  })

  it('keeps chunks without NUL bytes as they are, even a character split across chunks', async () => {
    const whole = Buffer.from('Пополнение игр', 'utf8')
    expect(await run([whole.subarray(0, 5), whole.subarray(5)])).toBe('Пополнение игр')
  })
})
