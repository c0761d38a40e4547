// The texts of the mails (locales/ru/mail.json) and the formats they use: dates in Moscow time,
// roubles with a comma and grouped thousands, as the storefront shows them.
import messages from '../../../../locales/ru/mail.json' with { type: 'json' }

export const M = messages

/** Fills `{name}` placeholders. */
export function fill(text: string, params: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (_, k: string) => String(params[k] ?? `{${k}}`))
}

const dateFormat = new Intl.DateTimeFormat('ru-RU', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'Europe/Moscow',
})

export const formatDate = (d: Date) => dateFormat.format(d)

/** Kopecks as «1 234,50 ₽» (integer arithmetic only). */
export function formatRub(kopecks: number): string {
  const sign = kopecks < 0 ? '-' : ''
  const abs = Math.abs(kopecks)
  const rub = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0')
  return `${sign}${rub},${String(abs % 100).padStart(2, '0')}\u00a0₽`
}

/** Minor units of a currency: roubles as formatRub, others as "12,50 USD". */
export function formatMoneyIn(minor: number, currency: string | undefined): string {
  const rub = formatRub(minor)
  return !currency || currency === 'RUB' ? rub : rub.replace('\u00a0₽', `\u00a0${currency}`)
}

/** The short order number the storefront shows (the id's first 8 characters). */
export const orderNumber = (id: string) => fill(M.order.number, { number: id.slice(0, 8) })
