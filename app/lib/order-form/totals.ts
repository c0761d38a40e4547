// The cart rules of §5 in exact money (integer kopecks).
import { applyBasisPoints, type Kopecks } from '#app/lib/money'
import { PROMO_TARGET, type QuotedKind } from './promo-target'

/** One product line of a game's form, in the spec's client shape: the product's data and an amount. */
export interface CartLine {
  data: { id: number; isActive: boolean; price: Kopecks; discountPrice?: Kopecks | null }
  amount: number
}

/** Lines that count: active products with a quantity above zero (§5: only those are sent). */
export function countedLines(lines: readonly CartLine[]): CartLine[] {
  return lines.filter((l) => l.data.isActive && Number.isSafeInteger(l.amount) && l.amount > 0)
}

/** §5: the sum over lines of quantity × price. */
export function subtotal(lines: readonly CartLine[]): Kopecks {
  return countedLines(lines).reduce((sum, l) => sum + l.amount * l.data.price, 0)
}

/** §5: with a discount, 0 when the discount exceeds the subtotal, else subtotal − discount. */
export function totalAfterDiscount(sub: Kopecks, discount: Kopecks): Kopecks {
  if (discount <= 0) return sub
  return discount > sub ? 0 : sub - discount
}

export interface CartTotals {
  /** At list prices. */
  subtotal: Kopecks
  /** Product discounts over the counted lines. */
  discount: Kopecks
  /** subtotal − discount, never below 0. */
  total: Kopecks
  /** Part of the total covered by the signed-in user's balance. */
  balanceUsed: Kopecks
  /** What is left to pay. */
  toPay: Kopecks
  /** Units chosen over all counted lines. */
  units: number
}

/** Totals of a cart: product discounts first, then the user's balance (§5). */
export function cartTotals(lines: readonly CartLine[], balance: Kopecks = 0): CartTotals {
  const counted = countedLines(lines)
  const sub = subtotal(counted)
  const discount = counted.reduce((sum, l) => {
    const dp = l.data.discountPrice
    return dp != null && dp < l.data.price ? sum + l.amount * (l.data.price - dp) : sum
  }, 0)
  const total = totalAfterDiscount(sub, discount)
  const balanceUsed = Math.min(Math.max(balance, 0), total)
  return {
    subtotal: sub,
    discount,
    total,
    balanceUsed,
    toPay: total - balanceUsed,
    units: counted.reduce((n, l) => n + l.amount, 0),
  }
}

/** A Steam top-up: the commission (basis points) is added on top of the amount. */
export function steamTotals(amount: Kopecks, commissionBp: number): { commission: Kopecks; total: Kopecks } {
  const commission = amount > 0 ? applyBasisPoints(amount, commissionBp) : 0
  return { commission, total: amount + commission }
}

export interface PromoQuote {
  /** Taken off by the promo: from the price, or only from a Steam top-up's commission. */
  discount: Kopecks
  totalWithPromo: Kopecks
  balanceUsed: Kopecks
  toPay: Kopecks
}

/**
 * An order's total after a promo of `percent` % and the buyer's balance (decision 126): the percent
 * comes off the price, or on a Steam top-up (`steamAmount` the wallet amount) only off the shop's
 * commission, rounded half up; then the balance, never below zero.
 */
export function promoQuote(
  kind: QuotedKind,
  total: Kopecks,
  steamAmount: Kopecks | null,
  percent: number | null,
  balance: Kopecks = 0,
): PromoQuote {
  const base = PROMO_TARGET[kind] === 'commission' ? Math.max(0, total - (steamAmount ?? total)) : total
  const discount =
    percent && percent > 0 && base > 0 ? Math.min(base, Math.floor((base * percent + 50) / 100)) : 0
  const totalWithPromo = Math.max(0, total - discount)
  const balanceUsed = Math.max(0, Math.min(balance, totalWithPromo))
  return { discount, totalWithPromo, balanceUsed, toPay: totalWithPromo - balanceUsed }
}

/** Quantity clamped into a product's bounds; 0 stays 0 (no line). */
export function clampQuantity(value: number, min: number, max: number): number {
  if (!Number.isFinite(value) || value <= 0) return 0
  const n = Math.trunc(value)
  if (n < min) return min
  if (n > max) return max
  return n
}
