// What a promo code discounts (issue 45, decision 126): the one rule for the API's pricing, the
// receipts and the back-office's promo screen. A code takes its percent off the order's own price:
// the products of a PUBG, Standoff or supply order, the gift of a gift order; on a Steam top-up only
// the shop's commission, never the amount passed to the wallet (that money is not the shop's to
// discount). The owner may exclude order kinds from a code. Pure code: mutation-tested.
// The storefront's quote mirrors it (app/lib/order-form/totals.ts; a property test keeps them equal).
import type { OrderKind } from '../../db/schema'

/** What a promo takes its percent off, per order kind. */
export type PromoTarget = 'price' | 'commission'

export const PROMO_TARGET: Record<OrderKind, PromoTarget> = {
  PUBGOrder: 'price',
  StandoffOrder: 'price',
  MooGoldOrder: 'price',
  RokkyOrder: 'price',
  SteamOrder: 'commission',
}

/** The part of an order's total a promo may discount: the commission of a Steam top-up, else the total. */
export function promoBase(kind: OrderKind, total: number, steamAmount: number | null): number {
  if (PROMO_TARGET[kind] === 'commission') return Math.max(0, total - (steamAmount ?? total))
  return total
}

/** The discount of `percent` % on `base`, rounded half up, never more than the base nor below 0. */
export function promoDiscount(base: number, percent: number | null): number {
  if (!percent || percent <= 0 || base <= 0) return 0
  return Math.min(base, Math.floor((base * percent + 50) / 100))
}

/** Whether the owner left this order kind in the code's scope. */
export function promoCoversKind(excluded: readonly string[] | null | undefined, kind: OrderKind): boolean {
  return !excluded?.includes(kind)
}

/** Game orders take game codes (PromoCode), gift orders gift codes (GiftPromoCode). */
const GIFT_KINDS: readonly OrderKind[] = ['RokkyOrder']

/**
 * What a code discounts on an order of `kind`, as the promo screen says it: the price, only the
 * commission, or nothing (a kind it excludes, or a gift code on a game order and the reverse).
 */
export function promoTargetOf(
  promo: { kind: 'PromoCode' | 'GiftPromoCode'; excludedKinds: readonly string[] | null },
  kind: OrderKind,
): PromoTarget | 'none' {
  if ((promo.kind === 'GiftPromoCode') !== GIFT_KINDS.includes(kind)) return 'none'
  return promoCoversKind(promo.excludedKinds, kind) ? PROMO_TARGET[kind] : 'none'
}
