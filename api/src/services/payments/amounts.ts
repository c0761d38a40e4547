// Exact amount arithmetic for payments: integers only (BigInt where products may exceed 2^53).
import { applyBasisPoints } from '../../lib/money'

export const RATE_SCALE = 1_000_000n

/** Minor units of roubles → minor units of a currency at `rateMicro` (units per rouble × 1e6), half up. */
export function convertByRate(minorRub: number, rateMicro: number): number {
  const v = (BigInt(minorRub) * BigInt(rateMicro) + RATE_SCALE / 2n) / RATE_SCALE
  return Number(v)
}

/** rate_micro → "1.000000" (six decimals, exact). */
export function formatRate(rateMicro: number): string {
  const int = Math.trunc(rateMicro / 1_000_000)
  const frac = String(rateMicro % 1_000_000).padStart(6, '0')
  return `${int}.${frac}`
}

/** Basis points → percent string: 250 → "2.50". */
export function formatPercentBp(bp: number): string {
  return `${Math.trunc(bp / 100)}.${String(bp % 100).padStart(2, '0')}`
}

/**
 * What the shopper pays through a method: the order's total_to_pay converted to the payment
 * currency, plus the method's percent fee on it (basis points, half up), plus its fixed fee (already
 * in the payment currency's minor units).
 */
export function paymentAmount(
  totalToPayRub: number,
  rateMicro: number,
  method: { fee: number; fixFee: number },
): { converted: number; fee: number; amount: number } {
  const converted = convertByRate(totalToPayRub, rateMicro)
  const fee = applyBasisPoints(converted, method.fee)
  return { converted, fee, amount: converted + fee + method.fixFee }
}

/**
 * What the buyer was charged for the order in roubles: the payment's own amount, the method's fee
 * included (the provider refunds that whole payment); a payment in another currency counts as the
 * order's total_to_pay, the balance being kept in roubles.
 */
export function chargedInRoubles(payment: { amount: number; currency: string }, totalToPay: number): number {
  return payment.currency === 'RUB' ? Math.max(payment.amount, totalToPay) : totalToPay
}
