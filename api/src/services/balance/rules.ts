// The arithmetic of the balance ledger, kept apart from the database so each rule has one home
// and a unit test: which way each kind of entry moves the balance, and how cashback is counted.
import type { BalanceEntryKind } from '../../db/schema'

/**
 * The signed change an entry makes, from the amount its caller gives: cashback and refunds credit
 * (a positive amount), a spend debits (a positive amount, stored negative), a correction carries
 * its own sign. Zero, fractional or wrongly signed amounts are a bug in the caller: they throw.
 */
export function signedDelta(kind: BalanceEntryKind, amount: number): number {
  if (!Number.isSafeInteger(amount) || amount === 0)
    throw new RangeError(`a balance entry needs a whole, non-zero amount: ${amount}`)
  if (kind === 'correction') return amount
  if (amount < 0) throw new RangeError(`a ${kind} entry takes a positive amount: ${amount}`)
  return kind === 'spend' ? -amount : amount
}

/** Whether a balance of `balance` can take `delta` without going below zero. */
export function canApply(balance: number, delta: number): boolean {
  return balance + delta >= 0
}

/**
 * Cashback of a gift order: `percent` % of the kopecks actually paid, rounded down (the shop
 * never credits a fraction of a kopeck it did not earn). Percents outside 0..100 count as none.
 */
export function cashbackFor(paid: number, percent: number): number {
  if (!Number.isSafeInteger(paid) || paid <= 0) return 0
  if (!Number.isInteger(percent) || percent <= 0 || percent > 100) return 0
  return Math.floor((paid * percent) / 100)
}

/**
 * Taking back the cashback of an order refunded after it was done (decision 082): as much of it as
 * the balance still holds, never taking the balance below zero; what the buyer already spent is
 * written off (the shop keeps no debt on a balance).
 */
export function cashbackTakeBack(cashback: number, balance: number): { take: number; writtenOff: number } {
  const owed = Math.max(cashback, 0)
  const take = Math.min(owed, Math.max(balance, 0))
  return { take, writtenOff: owed - take }
}
