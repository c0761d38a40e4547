import { useT } from '#app/i18n/i18n-context'
import type { Order } from '#app/lib/view-models/order'
import { Copyable } from './copy-button'

/** The codes of a done order: PUBG vouchers per line, or the gift's code. */
export function DeliveredCodes({ order }: { order: Order }) {
  const t = useT()
  const codes = order.lines.flatMap((l) => l.codes.map((c) => ({ ...c, title: l.title })))
  if (order.status !== 'done' || (codes.length === 0 && !order.giftCode)) return null
  return (
    <section className="pay-codes" aria-labelledby="codes-heading">
      <h3 id="codes-heading">
        {order.giftCode ? t('payment.gift_code_heading') : t('payment.codes_heading')}
      </h3>
      {order.giftCode ? (
        <p>
          <Copyable value={order.giftCode} what={t('payment.gift_code_heading')} />
        </p>
      ) : (
        <ul className="pay-codes__list">
          {codes.map((c) => (
            <li key={c.code}>
              <span className="pay-codes__amount">{t('payment.code_amount_uc', { amount: c.amountUc })}</span>
              <Copyable value={c.code} what={c.code} />
            </li>
          ))}
        </ul>
      )}
      <p className="pay-muted">{t('payment.codes_note')}</p>
    </section>
  )
}
