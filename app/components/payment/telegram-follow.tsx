// «Следить в Telegram» (issue 49): a plain post form (the same with JavaScript off) to
// /orders/{id}/telegram, which answers a redirect to the shop bot's one-time deep link.
import { useT } from '#app/i18n/i18n-context'

export function TelegramFollow({ orderId, error }: { orderId: string; error?: string | null }) {
  const t = useT()
  return (
    <section className="card pay-telegram" aria-labelledby="pay-telegram-heading">
      <h2 id="pay-telegram-heading">{t('payment.telegram.heading')}</h2>
      <p>{t('payment.telegram.note')}</p>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <form method="post" action={`/orders/${orderId}/telegram`}>
        <button type="submit" className="button">
          {t('payment.telegram.button')}
        </button>
      </form>
    </section>
  )
}
