// Per-kind settings the order form shows, as plain serialisable view models.
import { parseMoney, type Kopecks } from '#app/lib/money'

export interface StandoffSettings {
  skinName: string
  skinPicture: string
  /** Market fee in basis points (5 % = 500). */
  marketFeeBp: number
  isSurplusEnabled: boolean
}

export interface SteamSettings {
  /** Commission in basis points. */
  commissionBp: number
  minAmount: Kopecks | null
  maxAmount: Kopecks | null
}

/** A percent on the wire ("8.00", "8" or 8) in basis points; 0 when unreadable. */
export function percentToBp(value: string | number | null | undefined): number {
  if (value == null) return 0
  return parseMoney(String(value)) ?? 0
}

/** Basis points as a percent for people: 800 → "8", 550 → "5,5". */
export function bpToPercentText(bp: number): string {
  const whole = Math.trunc(bp / 100)
  const frac = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '')
  return frac ? `${whole},${frac}` : String(whole)
}
