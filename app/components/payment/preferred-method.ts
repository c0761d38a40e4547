// Which payment method the pay page checks before the buyer chooses (issue 50): the one this order
// was last paid with when it still takes the order, else the cheapest for the buyer (the lowest
// total through the method, fee included), else none. Ties keep the shop's order of methods.
import type { MethodOption } from './types'

export function preferredMethod(options: MethodOption[], lastUsed: string | null): string | null {
  const usable = options.filter((o) => o.availability === 'ok')
  const last = usable.find((o) => o.method.name === lastUsed)
  if (last) return last.method.name
  let best: MethodOption | null = null
  for (const o of usable) {
    if (best === null) best = o
    // totals compare only in one currency: a method in another one never wins on its number
    else if (
      o.amount !== null &&
      best.amount !== null &&
      o.method.currency === best.method.currency &&
      o.amount < best.amount
    )
      best = o
  }
  return best?.method.name ?? null
}
