import { describe, expect, it } from 'vitest'
import { CacheStore } from '../../server/cache-store'

type E = { bytes: number }
const store = (maxEntries: number, maxBytes = 1e9) =>
  new CacheStore<E>({ maxEntries, maxBytes, sizeOf: (e) => e.bytes })
const keys = (s: CacheStore<E>, all: string[]) => all.filter((k) => s.peek(k) !== undefined)

describe('cache store: never-read entries go first, then the least recently read', () => {
  it('drops the oldest never-read entry, sparing the one just stored', () => {
    const s = store(2)
    s.set('a', { bytes: 1 })
    s.set('b', { bytes: 1 })
    s.set('c', { bytes: 1 })
    expect(keys(s, ['a', 'b', 'c'])).toEqual(['b', 'c'])
  })

  it('keeps read entries while one-off ones displace one another', () => {
    const s = store(3)
    for (const k of ['r1', 'r2']) {
      s.set(k, { bytes: 1 })
      s.read(k)
    }
    for (const k of ['x1', 'x2', 'x3']) s.set(k, { bytes: 1 })
    expect(keys(s, ['r1', 'r2', 'x1', 'x2', 'x3'])).toEqual(['r1', 'r2', 'x3'])
  })

  it('among read entries drops the least recently read; peek does not count as a read', () => {
    const s = store(2)
    s.set('a', { bytes: 1 })
    s.read('a')
    s.set('b', { bytes: 1 })
    s.read('b')
    s.read('a')
    s.peek('b')
    s.set('c', { bytes: 1 })
    // c is spared while never read, so the least recently read goes: b
    expect(keys(s, ['a', 'b', 'c'])).toEqual(['a', 'c'])
  })

  it('counts bytes through replace, delete and growth, and keeps within the byte bound', () => {
    const s = store(10, 10)
    s.set('a', { bytes: 4 })
    s.set('a', { bytes: 3 })
    expect(s.bytes).toBe(3)
    const b = { bytes: 4 }
    s.set('b', b)
    s.read('b')
    expect(s.bytes).toBe(7)
    b.bytes += 5
    s.grew('b', 5) // 12 > 10: the never-read a goes, not b
    expect(keys(s, ['a', 'b'])).toEqual(['b'])
    expect(s.bytes).toBe(9)
    s.delete('b')
    s.delete('b')
    expect([s.size, s.bytes]).toEqual([0, 0])
  })

  it('drops even the spared entry when it alone is over the bounds', () => {
    const s = store(10, 5)
    s.set('big', { bytes: 6 })
    expect([s.size, s.bytes]).toEqual([0, 0])
  })
})
