// The unticked box «Я даю согласие на обработку персональных данных» (152-ФЗ) of every form that
// first collects an email: the order form for guests, sign-up, the gift purchase. It links to the
// consent document; a real checkbox, so it works without JavaScript.
import { CheckField } from '#app/components/form/field'
import { useT } from '#app/i18n/i18n-context'

/** The form field's name: the same as the API's optional extension field. */
export const CONSENT_FIELD = 'personal_data_consent'

/** Whether a posted form carries the ticked box. */
export const consentTicked = (value: unknown) => value === 'on' || value === 'true'

export function ConsentField({
  id,
  error,
  defaultChecked,
  autoFocus,
  hint,
}: {
  id: string
  /** The error text shown under the box. */
  error?: string | null
  defaultChecked?: boolean
  autoFocus?: boolean
  hint?: string
}) {
  const t = useT()
  return (
    <CheckField
      id={id}
      className="consent-field"
      name={CONSENT_FIELD}
      value="on"
      defaultChecked={defaultChecked}
      // the first invalid field after a post without JavaScript
      autoFocus={autoFocus}
      hint={hint}
      error={error}
      label={
        <>
          {t('legal.consent.before_link')}
          <a href="/info/consent" target="_blank" rel="noopener">
            {t('legal.consent.link')}
          </a>
        </>
      }
    />
  )
}
