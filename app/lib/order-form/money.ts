// Client-side money: integer kopecks inside, "199.00" strings on the wire, no float arithmetic.
// (The storefront may talk to any backend that serves the contract, so it has its own copy of
// these few functions instead of importing the API's.)

export type Kopecks = number

const MONEY_RE = /^(0|[1-9]\d{0,11})(?:[.,](\d{1,2}))?$/

/** "199.5" → 19950; null when the text is not a non-negative amount with at most 2 decimals. */
export function parseMoney(text: string | null | undefined): Kopecks | null {
  if (text == null) return null
  const m = MONEY_RE.exec(text.trim())
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}

/** 19950 → "199.50" (the wire format). */
export function toMoney(kopecks: Kopecks): string {
  if (!Number.isSafeInteger(kopecks)) throw new RangeError(`not an integer amount: ${kopecks}`)
  const sign = kopecks < 0 ? '-' : ''
  const abs = Math.abs(kopecks)
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
}

/** 123450 → "1 234,50 ₽" (Russian grouping with a narrow no-break space, comma decimals). */
export function formatMoney(kopecks: Kopecks, currency = '₽'): string {
  const [whole = '0', cents = '00'] = toMoney(kopecks).split('.')
  const sign = whole.startsWith('-') ? '−' : ''
  const digits = whole.replace('-', '')
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')
  return `${sign}${grouped},${cents}\u00a0${currency}`
}

/** amount × basis points / 10000, rounded half up, integers only. */
export function applyBasisPoints(kopecks: Kopecks, bp: number): Kopecks {
  return Math.floor((kopecks * bp + 5000) / 10000)
}
