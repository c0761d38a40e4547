// The cart of §3: in local storage, a map of game id → map of product id → quantity.
// Browser-only; every function takes the storage so it is easy to use with any Storage.

export const CART_KEY = 'cart'

export type GameCart = Record<string, number>
export type Cart = Record<string, GameCart>

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

function browserStorage(): StorageLike | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage
  } catch {
    // storage disabled (privacy settings): the cart simply is not kept
    return null
  }
}

const isQuantity = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v > 0
const isIdKey = (k: string) => /^\d{1,9}$/.test(k)

/** The stored cart; anything malformed in it is dropped rather than trusted. */
export function readCart(storage: StorageLike | null = browserStorage()): Cart {
  if (!storage) return {}
  let raw: unknown
  try {
    raw = JSON.parse(storage.getItem(CART_KEY) ?? '{}')
  } catch {
    return {}
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return {}
  const cart: Cart = {}
  for (const [gameId, lines] of Object.entries(raw as Record<string, unknown>)) {
    if (!isIdKey(gameId) || !lines || typeof lines !== 'object' || Array.isArray(lines)) continue
    const clean: GameCart = {}
    for (const [productId, qty] of Object.entries(lines as Record<string, unknown>)) {
      if (isIdKey(productId) && isQuantity(qty)) clean[productId] = qty
    }
    if (Object.keys(clean).length > 0) cart[gameId] = clean
  }
  return cart
}

export function writeCart(cart: Cart, storage: StorageLike | null = browserStorage()): void {
  if (!storage) return
  try {
    if (Object.keys(cart).length === 0) storage.removeItem(CART_KEY)
    else storage.setItem(CART_KEY, JSON.stringify(cart))
  } catch {
    // quota exceeded or storage disabled: keeping the cart is a convenience, not a must
  }
}

/** One game's quantities by product id. */
export function gameQuantities(cart: Cart, gameId: number): Map<number, number> {
  const out = new Map<number, number>()
  for (const [productId, qty] of Object.entries(cart[String(gameId)] ?? {})) out.set(Number(productId), qty)
  return out
}

/** A new cart with one game's quantities replaced (zero quantities and empty games removed). */
export function withGameQuantities(cart: Cart, gameId: number, quantities: Iterable<[number, number]>): Cart {
  const lines: GameCart = {}
  for (const [productId, qty] of quantities) if (isQuantity(qty)) lines[String(productId)] = qty
  const next: Cart = { ...cart }
  if (Object.keys(lines).length > 0) next[String(gameId)] = lines
  else delete next[String(gameId)]
  return next
}

/** Saves one game's quantities, keeping the other games' lines. */
export function saveGameQuantities(
  gameId: number,
  quantities: Iterable<[number, number]>,
  storage: StorageLike | null = browserStorage(),
): void {
  writeCart(withGameQuantities(readCart(storage), gameId, quantities), storage)
}

/**
 * Forgets a paid order's picks: its products' quantities of its game, so coming back to the game
 * and tapping «+» starts from one again, not from what was already bought (issue 50).
 */
export function forgetPaidPicks(
  gameId: number,
  productIds: Iterable<number>,
  storage: StorageLike | null = browserStorage(),
): void {
  const cart = readCart(storage)
  const lines = cart[String(gameId)]
  if (!lines) return
  const paid = new Set([...productIds].map(String))
  const kept = Object.entries(lines)
    .filter(([productId]) => !paid.has(productId))
    .map(([productId, qty]): [number, number] => [Number(productId), qty])
  writeCart(withGameQuantities(cart, gameId, kept), storage)
}

/** Forgets the whole cart (on logout, §4). */
export function clearCart(storage: StorageLike | null = browserStorage()): void {
  try {
    storage?.removeItem(CART_KEY)
  } catch {
    // nothing to do
  }
}
