import { formatMoney } from '#app/lib/order-form/money'

const SIGNS: Record<string, string> = { RUB: '₽' }

/** Minor units of a currency as the shopper reads them: "1 030,00 ₽", "5 768,00 KZT". */
export function formatAmount(minor: number, currency = 'RUB'): string {
  return formatMoney(minor, SIGNS[currency] ?? currency)
}

/** Basis points as a percent without needless zeros: 300 → "3", 350 → "3,5", 125 → "1,25". */
export function formatPercent(bp: number): string {
  const whole = Math.trunc(bp / 100)
  const frac = String(bp % 100)
    .padStart(2, '0')
    .replace(/0+$/, '')
  return frac ? `${whole},${frac}` : String(whole)
}
