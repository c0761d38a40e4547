import { describe, expect, it } from 'vitest'
import {
  CART_KEY,
  clearCart,
  forgetPaidPicks,
  gameQuantities,
  readCart,
  saveGameQuantities,
  withGameQuantities,
  writeCart,
} from '#app/lib/cart'

/** An in-memory Web Storage (the browser's localStorage is not there in Node). */
class MemoryStorage implements Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  readonly data = new Map<string, string>()
  getItem(key: string) {
    return this.data.get(key) ?? null
  }
  setItem(key: string, value: string) {
    this.data.set(key, String(value))
  }
  removeItem(key: string) {
    this.data.delete(key)
  }
}

describe('cart in local storage (§3: game id → product id → quantity)', () => {
  it('stores one game and reads it back under the key "cart"', () => {
    const storage = new MemoryStorage()
    saveGameQuantities(
      7,
      [
        [17, 2],
        [18, 1],
      ],
      storage,
    )
    expect(JSON.parse(storage.getItem(CART_KEY)!)).toEqual({ '7': { '17': 2, '18': 1 } })
    expect([...gameQuantities(readCart(storage), 7)]).toEqual([
      [17, 2],
      [18, 1],
    ])
  })

  it('keeps the other games when one game changes, and drops zero lines and empty games', () => {
    const storage = new MemoryStorage()
    saveGameQuantities(1, [[1, 3]], storage)
    saveGameQuantities(
      2,
      [
        [5, 1],
        [6, 0],
      ],
      storage,
    )
    expect(readCart(storage)).toEqual({ '1': { '1': 3 }, '2': { '5': 1 } })
    saveGameQuantities(1, [[1, 0]], storage)
    expect(readCart(storage)).toEqual({ '2': { '5': 1 } })
    saveGameQuantities(2, [], storage)
    expect(storage.getItem(CART_KEY)).toBeNull()
  })

  it('ignores what is malformed instead of trusting it', () => {
    const storage = new MemoryStorage()
    storage.setItem(CART_KEY, '{not json')
    expect(readCart(storage)).toEqual({})
    storage.setItem(CART_KEY, JSON.stringify([1, 2]))
    expect(readCart(storage)).toEqual({})
    storage.setItem(
      CART_KEY,
      JSON.stringify({ '3': { '1': 2, '2': -1, '3': 1.5, '4': '2', x: 1 }, abc: { '1': 1 }, '4': 'x' }),
    )
    expect(readCart(storage)).toEqual({ '3': { '1': 2 } })
  })

  it('is a new object on change (the old cart is untouched)', () => {
    const before = { '1': { '1': 1 } }
    const after = withGameQuantities(before, 1, [[1, 4]])
    expect(before).toEqual({ '1': { '1': 1 } })
    expect(after).toEqual({ '1': { '1': 4 } })
  })

  it('clears the whole cart (logout, §4)', () => {
    const storage = new MemoryStorage()
    writeCart({ '1': { '2': 3 } }, storage)
    clearCart(storage)
    expect(readCart(storage)).toEqual({})
  })

  it("forgets a paid order's products of its game, keeping other packs and other games (issue 50)", () => {
    const storage = new MemoryStorage()
    writeCart({ '7': { '17': 3, '18': 1 }, '9': { '17': 2 } }, storage)
    forgetPaidPicks(7, [17], storage)
    expect(readCart(storage)).toEqual({ '7': { '18': 1 }, '9': { '17': 2 } })
    forgetPaidPicks(7, [18, 40], storage)
    expect(readCart(storage)).toEqual({ '9': { '17': 2 } })
    forgetPaidPicks(9, [17], storage)
    expect(storage.getItem(CART_KEY)).toBeNull()
    // a game with nothing stored: nothing changes, nothing throws
    expect(() => forgetPaidPicks(5, [1], storage)).not.toThrow()
  })

  it('survives a storage that throws (disabled or full)', () => {
    const broken = {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('quota')
      },
      removeItem: () => {
        throw new Error('denied')
      },
    }
    expect(() => saveGameQuantities(1, [[1, 1]], broken)).not.toThrow()
    expect(() => clearCart(broken)).not.toThrow()
    expect(() => forgetPaidPicks(1, [1], broken)).not.toThrow()
    expect(readCart(null)).toEqual({})
  })
})
