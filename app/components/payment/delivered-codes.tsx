import { useT } from '#app/i18n/i18n-context'
import type { Order } from '#app/lib/view-models/order'
import { Copyable } from './copy-button'
import type { DoneTexts } from './types'

/**
 * The success screen's card, first under «Готово»: the codes of a done order (PUBG vouchers per
 * line, or the gift's code) with their copy buttons, how and where to activate them; or, for an
 * order without codes, what was topped up and for whom.
 */
export function DeliveredCodes({ order, texts }: { order: Order; texts: DoneTexts | null }) {
  const t = useT()
  const codes = order.lines.flatMap((l) => l.codes.map((c) => ({ ...c, title: l.title })))
  if (order.status !== 'done') return null
  const hasCodes = codes.length > 0 || order.giftCode !== null
  if (!hasCodes && !texts?.delivered) return null
  const activation = texts?.activation
  return (
    <section
      className="card pay-codes"
      aria-labelledby={hasCodes ? 'codes-heading' : undefined}
      aria-label={hasCodes ? undefined : t('payment.status.done')}
      data-testid="done-card"
    >
      {hasCodes ? (
        <h2 id="codes-heading" className="pay-codes__heading">
          {order.giftCode ? t('payment.gift_code_heading') : t('payment.codes_heading')}
        </h2>
      ) : null}
      {order.giftCode ? (
        <p>
          <Copyable value={order.giftCode} what={t('payment.gift_code_heading')} />
        </p>
      ) : codes.length > 0 ? (
        <ul className="pay-codes__list">
          {codes.map((c) => (
            <li key={c.code}>
              <span className="pay-codes__amount">{t('payment.code_amount_uc', { amount: c.amountUc })}</span>
              <Copyable value={c.code} what={c.code} />
            </li>
          ))}
        </ul>
      ) : null}
      {texts?.delivered ? <p className="pay-codes__delivered">{texts.delivered}</p> : null}
      {activation ? (
        <>
          <h3>{activation.heading}</h3>
          <p>{activation.text}</p>
          {activation.link ? (
            <p>
              <a
                className="button pay-codes__activate"
                href={activation.link.href}
                {...(activation.link.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
              >
                {activation.link.external ? t('payment.activation_link') : t('payment.gift_page_link')}
                {activation.link.external ? (
                  <span className="visually-hidden"> {t('payment.scenario.opens_new_window')}</span>
                ) : null}
              </a>
            </p>
          ) : null}
        </>
      ) : null}
      {texts?.keep ? <p className="pay-muted">{texts.keep}</p> : null}
      {hasCodes ? <p className="pay-muted">{t('payment.codes_note')}</p> : null}
    </section>
  )
}
