// «Возврат» on the pay page: few orders ever show it, so its code loads on demand (see <Deferred>).
import { useT } from '#app/i18n/i18n-context'
import { formatMoney } from '#app/lib/money'
import type { OrderRefund } from '#app/lib/view-models/order'

/** «Возврат»: why, how much, and where the money goes (or went). */
export function RefundNote({ refund }: { refund: OrderRefund }) {
  const t = useT()
  const currency = t('common.currency')
  const paid = formatMoney(refund.amount - refund.toBalance, currency)
  const text =
    refund.method === 'balance'
      ? t('payment.refund.to_balance', { amount: formatMoney(refund.amount, currency) })
      : refund.method === 'provider'
        ? t(`payment.refund.provider_${refund.status === 'done' ? 'done' : 'pending'}`, { amount: paid })
        : t(`payment.refund.manual_${refund.status === 'done' ? 'done' : 'pending'}`, { amount: paid })
  return (
    <div className="pay-refund" data-testid="order-refund">
      <h3>{t('payment.refund.title')}</h3>
      <p className="form-error">{t('payment.reject_reason', { reason: refund.reason })}</p>
      <p>{text}</p>
      {refund.method !== 'balance' && refund.toBalance > 0 ? (
        <p>{t('payment.refund.balance_part', { amount: formatMoney(refund.toBalance, currency) })}</p>
      ) : null}
    </div>
  )
}
