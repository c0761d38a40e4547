import { Form } from '@remix-run/react'
import { useEffect, useRef } from 'react'
import { useT } from '#app/i18n/i18n-context'
import type { Scenario } from '#app/lib/view-models/order'
import { Copyable } from './copy-button'
import { formatAmount } from '#app/lib/money'
import type { ShownPayment } from './types'

/**
 * The next step of a started payment (§3, §4), by scenario type. `justStarted` is true right after
 * the shopper pressed pay on this page (with JavaScript): then a provider form is sent at once and
 * focus moves here.
 */
export function ScenarioView({ payment, justStarted }: { payment: ShownPayment; justStarted: boolean }) {
  const t = useT()
  const ref = useRef<HTMLElement>(null)
  useEffect(() => {
    if (justStarted) ref.current?.focus()
  }, [justStarted])
  const { scenario } = payment
  return (
    <section
      id="payment"
      ref={ref}
      tabIndex={-1}
      className={`card pay-scenario pay-scenario--${scenario.type}`}
      aria-labelledby="scenario-heading"
      data-scenario={scenario.type}
    >
      <h2 id="scenario-heading">{t('payment.scenario.heading')}</h2>
      <p className="pay-scenario__amount">
        {t('payment.scenario.amount', { amount: formatAmount(payment.amount, payment.currency) })}
      </p>
      <ScenarioBody payment={payment} scenario={scenario} autoSubmit={justStarted} />
      {scenario.type !== 'form' && scenario.type !== 'wait_order_state' ? <CheckStatus /> : null}
    </section>
  )
}

function ScenarioBody({
  payment,
  scenario,
  autoSubmit,
}: {
  payment: ShownPayment
  scenario: Scenario
  autoSubmit: boolean
}) {
  const t = useT()
  const link = payment.url ? <PaymentLink url={payment.url} /> : null
  switch (scenario.type) {
    case 'external':
      return (
        <>
          <p className="pay-scenario__help">{scenario.helpText}</p>
          <p className="pay-muted">{t('payment.scenario.external_note')}</p>
          {link}
        </>
      )
    case 'form':
      return <ProviderForm scenario={scenario} autoSubmit={autoSubmit} />
    case 'invoice_qr':
      if (payment.qrExpiry?.expired) return <ExpiredQr payment={payment} />
      return (
        <>
          <p>{t('payment.scenario.invoice_qr_note')}</p>
          <QrPicture payment={payment} />
          {/^https?:\/\//.test(scenario.qrStr) && payment.url !== scenario.qrStr ? (
            // on a phone the QR cannot be scanned by itself: the link opens the bank chooser
            <p>
              <a className="button button--primary pay-bank-link" href={scenario.qrStr}>
                {t('payment.sbp.open_bank')}
              </a>
            </p>
          ) : null}
          {payment.qrExpiry ? (
            <p className="pay-muted">{t('payment.sbp.valid_until', { time: payment.qrExpiry.until })}</p>
          ) : null}
          {link}
        </>
      )
    case 'qr':
      return (
        <>
          <p>{t('payment.scenario.qr_note')}</p>
          <QrPicture payment={payment} />
          {link}
        </>
      )
    case 'p2p':
      return (
        <>
          <p>{t('payment.scenario.p2p_note')}</p>
          <dl className="pay-dl pay-card-details">
            <div className="pay-dl__row">
              <dt>{t('payment.scenario.card_number')}</dt>
              <dd>
                <Copyable value={scenario.cardNumber} what={t('payment.scenario.card_number')} />
              </dd>
            </div>
            <div className="pay-dl__row">
              <dt>{t('payment.scenario.card_name')}</dt>
              <dd>
                <Copyable value={scenario.cardName} what={t('payment.scenario.card_name')} />
              </dd>
            </div>
          </dl>
          {link}
        </>
      )
    case 'p2p_redirect':
    case 'redirect':
      return (
        <>
          <p>{t('payment.scenario.redirect_note')}</p>
          {link}
        </>
      )
    case 'wait_order_state':
      return (
        <>
          <p role="status">{t('payment.scenario.wait')}</p>
          {link}
        </>
      )
  }
}

/**
 * Paid in another window or app: this page notices by itself with JavaScript (status polling);
 * «Проверить оплату» asks the payment system now, with JavaScript or without.
 */
function CheckStatus() {
  const t = useT()
  return (
    <Form method="post" className="pay-check">
      <input type="hidden" name="intent" value="check" />
      <span className="pay-muted">{t('payment.scenario.paid_elsewhere')}</span>{' '}
      <button type="submit" className="button">
        {t('payment.scenario.check_status')}
      </button>
    </Form>
  )
}

/** The QR code drawn on the server (an image for screen readers). */
function QrPicture({ payment }: { payment: ShownPayment }) {
  const t = useT()
  if (!payment.qr) return null
  return (
    <svg
      className="pay-qr"
      viewBox={`0 0 ${payment.qr.size} ${payment.qr.size}`}
      role="img"
      aria-label={t('payment.scenario.qr_label')}
      shapeRendering="crispEdges"
    >
      <rect width={payment.qr.size} height={payment.qr.size} fill="#fff" />
      <path fill="#000" d={payment.qr.path} />
    </svg>
  )
}

/** The QR's time is up: a new one for the same method (the old payment is superseded). */
function ExpiredQr({ payment }: { payment: ShownPayment }) {
  const t = useT()
  return (
    <>
      <p role="status">{t('payment.sbp.expired')}</p>
      {payment.methodName ? (
        <Form method="post">
          <input type="hidden" name="intent" value="pay" />
          <input type="hidden" name="method" value={payment.methodName} />
          <button type="submit" className="button button--primary">
            {t('payment.sbp.new_qr')}
          </button>
        </Form>
      ) : null}
    </>
  )
}

/** Payment data with a url opens in a new window (§4). */
function PaymentLink({ url }: { url: string }) {
  const t = useT()
  return (
    <p>
      <a className="button button--primary" href={url} target="_blank" rel="noopener noreferrer">
        {t('payment.scenario.open_page')}
        <span className="visually-hidden"> {t('payment.scenario.opens_new_window')}</span>
      </a>
    </p>
  )
}

/** The provider's form: sent at once with JavaScript right after paying, a visible button otherwise. */
function ProviderForm({
  scenario,
  autoSubmit,
}: {
  scenario: Extract<Scenario, { type: 'form' }>
  autoSubmit: boolean
}) {
  const t = useT()
  const ref = useRef<HTMLFormElement>(null)
  useEffect(() => {
    if (autoSubmit) ref.current?.submit()
  }, [autoSubmit])
  return (
    <form ref={ref} method={scenario.method === 'GET' ? 'get' : 'post'} action={scenario.action}>
      {scenario.fields.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <p>{autoSubmit ? t('payment.scenario.form_note') : t('payment.scenario.form_note_nojs')}</p>
      <button type="submit" className="button button--primary">
        {t('payment.scenario.form_submit')}
      </button>
    </form>
  )
}
