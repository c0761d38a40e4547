// The unticked box «Я даю согласие на обработку персональных данных» (152-ФЗ) of every form that
// first collects an email: the order form for guests, sign-up, the gift purchase. It links to the
// consent document; a real checkbox, so it works without JavaScript.
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
  const errorId = `${id}-error`
  const hintId = `${id}-hint`
  const described = [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ')
  return (
    <div className="field field--check consent-field">
      <input
        id={id}
        type="checkbox"
        name={CONSENT_FIELD}
        value="on"
        defaultChecked={defaultChecked}
        // biome-ignore lint/a11y/noAutofocus: the first invalid field after a post without JavaScript
        autoFocus={autoFocus}
        aria-invalid={error ? true : undefined}
        aria-describedby={described || undefined}
      />
      <label htmlFor={id}>
        {t('legal.consent.before_link')}
        <a href="/info/consent" target="_blank" rel="noopener">
          {t('legal.consent.link')}
        </a>
      </label>
      {hint ? (
        <span className="field__hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field__error" id={errorId}>
          {error}
        </span>
      ) : null}
    </div>
  )
}
