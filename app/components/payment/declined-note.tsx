import { Form, useNavigation } from '@remix-run/react'
import { useT } from '#app/i18n/i18n-context'
import { useHydrated } from '#app/lib/use-hydrated'
import type { PayPageData } from './types'

/**
 * A declined payment, at the top of the pay page: the money was not taken, why (the API's
 * text), and the two ways on: the same method again (a plain form post, so it works without
 * JavaScript) or the list of methods below.
 */
export function DeclinedNote({
  declined,
  email,
}: {
  declined: NonNullable<PayPageData['declined']>
  email: string | null
}) {
  const t = useT()
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'pay'
  return (
    <section className="card pay-declined-card" role="alert" aria-labelledby="declined-heading">
      <h2 id="declined-heading" className="pay-declined-card__heading">
        {t('payment.declined.heading')}
      </h2>
      <p>{declined.reason}</p>
      <div className="pay-declined__actions">
        {declined.retryMethod ? (
          <Form method="post">
            <input type="hidden" name="intent" value="pay" />
            <input type="hidden" name="method" value={declined.retryMethod} />
            <input type="hidden" name="email" value={email ?? ''} />
            {hydrated ? <input type="hidden" name="js" value="1" /> : null}
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? t('payment.paying') : t('payment.declined.retry')}
            </button>
          </Form>
        ) : null}
        <a className="button" href="#methods-heading">
          {t('payment.declined.other_method')}
        </a>
      </div>
    </section>
  )
}
