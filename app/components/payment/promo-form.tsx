import { Form, useNavigation } from '@remix-run/react'
import { Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import type { PromoTarget } from '#app/lib/order-form/promo-target'

/** Apply a promo code to the order, or remove the one applied; the totals follow after each. */
export function PromoForm({
  promo,
  error,
  code,
  target = 'price',
}: {
  promo: { code: string; percent: number } | null
  error: string | null
  code: string
  /** What a promo discounts on this order: its price, or only a Steam top-up's commission. */
  target?: PromoTarget
}) {
  const t = useT()
  const navigation = useNavigation()
  const busy =
    navigation.state !== 'idle' && String(navigation.formData?.get('intent') ?? '').startsWith('promo')
  return (
    <section className="card pay-card" aria-labelledby="promo-heading">
      <h2 id="promo-heading">{t('payment.promo.heading')}</h2>
      {target === 'commission' ? <p className="field__hint">{t('payment.promo.commission_only')}</p> : null}
      {promo ? (
        <Form method="post" className="promo-active">
          <p role="status">{t('payment.promo.active', { code: promo.code, percent: promo.percent })}</p>
          <input type="hidden" name="intent" value="promo_remove" />
          <button type="submit" className="button" disabled={busy}>
            {t('payment.promo.remove')}
          </button>
          {error ? (
            <p className="form-error" role="alert">
              {error}
            </p>
          ) : null}
        </Form>
      ) : (
        <Form method="post" className="promo-form">
          <input type="hidden" name="intent" value="promo_apply" />
          <Field id="promo-code" label={t('payment.promo.label')} error={error} announce>
            {(control) => (
              <div className="promo-form__row">
                <input
                  {...control}
                  name="code"
                  defaultValue={code}
                  placeholder={t('payment.promo.placeholder')}
                  autoComplete="off"
                  autoCapitalize="characters"
                  spellCheck={false}
                  maxLength={64}
                />
                <button type="submit" className="button" disabled={busy}>
                  {t('payment.promo.apply')}
                </button>
              </div>
            )}
          </Field>
        </Form>
      )}
    </section>
  )
}
