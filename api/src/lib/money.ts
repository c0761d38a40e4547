// Money is integer minor units (kopecks) inside and a decimal string ("199.00") on the wire.

const MONEY_RE = /^(0|[1-9]\d{0,11})(?:\.(\d{1,2}))?$/

/** 19900 → "199.00" */
export function toMoney(minor: number): string {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`not an integer amount: ${minor}`)
  const sign = minor < 0 ? '-' : ''
  const abs = Math.abs(minor)
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** "199.5" → 19950; null when the text is not a non-negative amount with at most 2 decimals. */
export function parseMoney(text: string | number): number | null {
  const s = typeof text === 'number' ? String(text) : text.trim()
  const m = MONEY_RE.exec(s)
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}

/** amount × basis points / 10000, rounded half up (integer arithmetic only). */
export function applyBasisPoints(minor: number, bp: number): number {
  return Math.floor((minor * bp + 5000) / 10000)
}

/** Percent off: amount − amount × percent / 100, rounded half up on the discount. */
export function percentOff(minor: number, percent: number): number {
  return minor - Math.floor((minor * percent + 50) / 100)
}
