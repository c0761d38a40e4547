// Logout must clear the stored cart (§4), but the cart lives in the browser's localStorage. The
// server therefore sets this readable cookie (`cart_clear=1`, a few minutes, path /) along with
// the expired token cookies; the browser code calls `consumeCartClearSignal()` when it starts,
// empties the stored cart when it returns true, and the signal is gone after one read.
// Safe to import in browser code (no server-only imports).

export const CART_CLEAR_COOKIE = 'cart_clear'

/** In the browser: true once after a logout asked for the stored cart to be cleared. */
export function consumeCartClearSignal(doc: Pick<Document, 'cookie'> = document): boolean {
  const present = doc.cookie.split(/;\s*/).includes(`${CART_CLEAR_COOKIE}=1`)
  if (present) doc.cookie = `${CART_CLEAR_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`
  return present
}
