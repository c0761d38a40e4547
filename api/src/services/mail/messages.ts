// The texts of the mails (locales/ru/mail.json) and the formats they use: dates in Moscow time,
// roubles with a comma and grouped thousands, as the storefront shows them.
import messages from '../../../../locales/ru/mail.json' with { type: 'json' }
import { formatOrderNumber } from '../../../../shared/order-number'
import { DEFAULT_SHOP_TIMEZONE, formatShopTimeLong } from '../../../../shared/shop-time'

export const M = messages

/**
 * Fills `{name}` placeholders. A text that starts with one starts a sentence, so its first letter
 * is capitalised («{placed} оплачен» → «Заказ № 10234 от … оплачен»).
 */
export function fill(text: string, params: Record<string, string | number> = {}): string {
  const out = text.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`))
  return text.startsWith('{') ? out.charAt(0).toUpperCase() + out.slice(1) : out
}

/** «1 декабря 2026 г. в 20:58 МСК»: in the shop's time zone, labelled (decision 136). */
export const formatDate = (d: Date, zone: string = DEFAULT_SHOP_TIMEZONE) => formatShopTimeLong(d, zone)

/** Kopecks as «1 234,50 ₽» (integer arithmetic only). */
export function formatRub(kopecks: number): string {
  const sign = kopecks < 0 ? '-' : ''
  const abs = Math.abs(kopecks)
  const rub = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')
  return `${sign}${rub},${String(abs % 100).padStart(2, '0')}\u00a0₽`
}

/** A wire decimal («10526.37», Standoff's gold) as a Russian number («10 526,37»); other text as it came. */
export function formatDecimalText(text: string): string {
  const m = /^(\d+)\.(\d{2})$/.exec(text)
  return m ? formatRub(Number(m[1]) * 100 + Number(m[2])).replace('\u00a0₽', '') : text
}

/** Minor units of a currency: roubles as formatRub, others as "12,50 USD". */
export function formatMoneyIn(minor: number, currency: string | undefined): string {
  const rub = formatRub(minor)
  return !currency || currency === 'RUB' ? rub : rub.replace('\u00a0₽', `\u00a0${currency}`)
}

/** The short order number people read out («№ 10234», decision 135). */
export const orderNumber = (n: number) => formatOrderNumber(n)
