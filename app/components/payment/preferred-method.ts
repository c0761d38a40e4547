// Which payment method the pay page checks before the buyer chooses (issue 50): the one this order
// was last paid with when it still takes the order, else the method a repeat carries over from the
// order it repeats (`?method=` of the pay page, when it takes this order), else the cheapest for the
// buyer (the lowest total through the method, fee included), else none. Ties keep the shop's order.
import type { MethodOption } from './types'

export function preferredMethod(
  options: MethodOption[],
  lastUsed: string | null,
  currency: string | null,
  carried: string | null = null,
): string | null {
  const usable = options.filter((o) => o.availability === 'ok')
  const last = usable.find((o) => o.method.name === lastUsed) ?? usable.find((o) => o.method.name === carried)
  if (last) return last.method.name
  // totals compare only in the country's currency: a method in another one, or without a total,
  // never wins on its number (it is checked only when no method of that currency is usable)
  let best: MethodOption | null = null
  for (const o of usable)
    if (o.amount !== null && o.method.currency === currency && (best === null || o.amount < best.amount!))
      best = o
  return (best ?? usable[0])?.method.name ?? null
}
