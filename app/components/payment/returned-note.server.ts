// «Платёж не засчитан — возвращаем деньги»: the text of the pay page's note about payments the shop
// took but could not accept (decision 037), made by the loader so that the page ships a string and
// no code of its own (the route's JavaScript is at its budget), and reads the same without JavaScript.
import type { TFunction } from '#app/i18n/translate'
import { formatMoney } from '#app/lib/money'
import type { ReturnedPayment } from '#app/lib/view-models/order'

/** One line per returned payment: how much, and where the money goes; null when there is none. */
export function returnedNote(t: TFunction, returned: readonly ReturnedPayment[]): string | null {
  if (returned.length === 0) return null
  return returned
    .map((r) => {
      const amount = formatMoney(r.amount, r.currency === 'RUB' ? t('common.currency') : r.currency)
      const done = r.status === 'done' ? 'done' : 'pending'
      const where = r.method === 'balance' ? 'balance' : `${r.method}_${done}`
      return `${t('payment.returned.title', { amount })}. ${t(`payment.returned.${where}`)}`
    })
    .join('\n')
}
