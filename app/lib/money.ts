// The storefront's money: integer kopecks inside, "199.00" strings on the wire, no float
// arithmetic, and ONE way of writing an amount for the shopper (formatMoney: "1 234,50 ₽") that
// every screen uses. (The storefront may talk to any backend that serves the contract, so it has
// its own copy of these few functions instead of importing the API's.)

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

/**
 * Hundredths as a Russian number with two decimals: 123450 → "1 234,50" (grouped with a narrow
 * no-break space, a comma before the decimals). Amounts with their own unit, such as Standoff's
 * gold («526,42 G»), are written with it.
 */
export function formatDecimal(hundredths: number): string {
  const [whole = '0', cents = '00'] = toMoney(hundredths).split('.')
  const sign = whole.startsWith('-') ? '−' : ''
  const digits = whole.replace('-', '')
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f')
  return `${sign}${grouped},${cents}`
}

/** A wire decimal ("526.42") as formatDecimal writes it; text that is not one is shown as it came. */
export function formatWireDecimal(text: string): string {
  const hundredths = parseMoney(text)
  return hundredths === null ? text : formatDecimal(hundredths)
}

/** 123450 → "1 234,50 ₽" (Russian grouping with a narrow no-break space, comma decimals). */
export function formatMoney(kopecks: Kopecks, currency = '₽'): string {
  return `${formatDecimal(kopecks)}\u00a0${currency}`
}

const SIGNS: Record<string, string> = { RUB: '₽' }

/** Minor units of a currency code as the shopper reads them: "1 030,00 ₽", "5 768,00 KZT". */
export function formatAmount(minor: Kopecks, currency = 'RUB'): string {
  return formatMoney(minor, SIGNS[currency] ?? currency)
}

/**
 * A wire amount ("89.00", "-5.5") as the shopper reads it ("89,00 ₽"); text that is not an
 * amount is shown as it came, so a backend's surprise never hides a figure.
 */
export function formatWireMoney(text: string | null | undefined, currency = '₽'): string {
  if (text == null) return ''
  const negative = text.trim().startsWith('-')
  const kopecks = parseMoney(negative ? text.trim().slice(1) : text)
  if (kopecks === null) return `${text}\u00a0${currency}`
  return formatMoney(negative ? -kopecks : kopecks, currency)
}

/**
 * A wire amount in a currency code as people read it: ("3396.21", "RUB") → «3 396,21 ₽»,
 * ("-5", "KZT") → «−5,00 KZT»; text that is not an amount is shown as it came.
 */
export function formatWireAmount(text: string, currency = 'RUB'): string {
  const trimmed = text.trim()
  const negative = trimmed.startsWith('-')
  const minor = parseMoney(negative ? trimmed.slice(1) : trimmed)
  if (minor === null) return formatWireMoney(text, SIGNS[currency] ?? currency)
  return formatAmount(negative ? -minor : minor, currency)
}

/** A currency code as people read it: "RUB" → «₽», others as they are. */
export const currencySign = (currency: string): string => SIGNS[currency] ?? currency

/** A currency code's Russian name: "RUB" → «российский рубль»; the code when Intl has none. */
export function currencyName(code: string): string {
  try {
    return new Intl.DisplayNames(['ru'], { type: 'currency' }).of(code) ?? code
  } catch {
    return code
  }
}

/** Basis points as a percent without needless zeros: 300 → "3", 350 → "3,5", 125 → "1,25". */
export function formatPercent(bp: number): string {
  const whole = Math.trunc(bp / 100)
  const frac = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '')
  return frac ? `${whole},${frac}` : String(whole)
}

/** amount × basis points / 10000, rounded half up, integers only. */
export function applyBasisPoints(kopecks: Kopecks, bp: number): Kopecks {
  return Math.floor((kopecks * bp + 5000) / 10000)
}
