import { Form } from '@remix-run/react'
import { Field } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'
import type { ActiveCountry, Country } from '#app/lib/view-models/order'

/** The country the shopper pays from: decides the currency and the methods offered. */
export function CountryForm({
  countries,
  country,
  error,
}: {
  countries: Country[]
  country: ActiveCountry
  error: string | null
}) {
  const t = useT()
  const rate = country.currency === 'RUB' ? null : formatRate(country.rateMicro)
  return (
    <section className="card pay-card" aria-labelledby="country-heading">
      <h2 id="country-heading">{t('payment.country.heading')}</h2>
      <Form method="post" className="country-form">
        <input type="hidden" name="intent" value="country" />
        <Field id="pay-country" label={t('payment.country.label')} error={error} announce>
          {(control) => (
            <div className="country-form__row">
              {country.flag ? (
                <img src={country.flag} alt="" width={32} height={24} className="country-form__flag" />
              ) : null}
              <select {...control} name="country_id" defaultValue={String(country.id)} key={country.id}>
                {countries.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
              <button type="submit" className="button">
                {t('payment.country.submit')}
              </button>
            </div>
          )}
        </Field>
        <p className="pay-muted">
          {t('payment.country.currency', { currency: country.currency })}
          {rate ? ` · ${t('payment.country.rate', { rate, currency: country.currency })}` : null}
        </p>
      </Form>
    </section>
  )
}

/** 5 600 000 (micro units) → "5,6"; exact, no floats. */
function formatRate(rateMicro: number): string {
  const whole = Math.trunc(rateMicro / 1_000_000)
  const frac = String(rateMicro % 1_000_000)
    .padStart(6, '0')
    .replace(/0+$/, '')
  return frac ? `${whole},${frac}` : String(whole)
}
