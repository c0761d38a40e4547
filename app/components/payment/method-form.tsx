import { Form, useNavigation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useT } from '#app/i18n/i18n-context'
import type { MethodGroupOption, MethodOption } from './types'
import { useHydrated } from '#app/lib/use-hydrated'

export interface PayFormState {
  error: string | null
  fieldErrors: { email?: string; phone?: string }
  values: { method: string; email: string; phone: string } | null
}

/**
 * Method groups with their methods (fee, total through the method, limits), the contact fields a
 * method asks for, and the pay button. Works without JavaScript: the email and phone fields show
 * for the checked method through CSS (:has), and the server checks them again.
 */
export function MethodForm({
  groups,
  defaultMethod,
  email,
  state,
}: {
  groups: MethodGroupOption[]
  defaultMethod: string | null
  email: string | null
  state: PayFormState
}) {
  const t = useT()
  const hydrated = useHydrated()
  const navigation = useNavigation()
  const busy = navigation.state !== 'idle' && navigation.formData?.get('intent') === 'pay'
  const checked = state.values?.method || defaultMethod
  const options = groups.flatMap((g) => g.methods)
  const anyUsable = options.some((o) => o.availability === 'ok')
  // the button names what the chosen method will charge; only once the page's script follows the
  // choice (without it the total stands under each method)
  const [chosen, setChosen] = useState(checked)
  const formRef = useRef<HTMLFormElement>(null)
  // the radio checked in the page is the truth: a tap before the scripts started, a browser's
  // restored choice, or the methods of another country after a change
  // biome-ignore lint/correctness/useExhaustiveDependencies: new methods (another country) change which radio is checked
  useEffect(() => {
    const radio = formRef.current?.querySelector<HTMLInputElement>('input[name="method"]:checked')
    setChosen(radio?.value ?? checked)
  }, [checked, groups])
  const picked = hydrated
    ? options.find((o) => o.method.name === chosen && o.availability === 'ok')
    : undefined
  const amount = picked?.amountText ?? null
  return (
    <section className="card pay-card" aria-labelledby="methods-heading">
      <h2 id="methods-heading">{t('payment.methods.heading')}</h2>
      {options.length === 0 ? (
        <p>{t('payment.methods.none')}</p>
      ) : (
        <Form
          ref={formRef}
          method="post"
          className="pay-form"
          noValidate
          onChange={(e) => {
            const input = e.target as HTMLInputElement
            if (input.name === 'method') setChosen(input.value)
          }}
        >
          <input type="hidden" name="intent" value="pay" />
          {hydrated ? <input type="hidden" name="js" value="1" /> : null}
          {groups.map((group) => (
            <fieldset key={group.name} className="method-group">
              <legend>{group.name}</legend>
              <ul className="method-list">
                {group.methods.map((option) => (
                  <li key={option.method.name}>
                    <MethodChoice option={option} checked={option.method.name === checked} />
                  </li>
                ))}
              </ul>
            </fieldset>
          ))}
          <ContactField
            kind="email"
            label={t('payment.contact.email')}
            hint={t('payment.contact.email_hint')}
            defaultValue={state.values?.email ?? email ?? ''}
            error={state.fieldErrors.email}
          />
          <ContactField
            kind="phone"
            label={t('payment.contact.phone')}
            hint={t('payment.contact.phone_hint')}
            defaultValue={state.values?.phone ?? ''}
            error={state.fieldErrors.phone}
          />
          {state.error ? (
            <p className="form-error" role="alert">
              {state.error}
            </p>
          ) : null}
          <p className="pay-muted">{t('payment.methods.fee_hint')}</p>
          {/* kept in reach at the bottom of the screen while the methods scroll by */}
          <div className="pay-form__bar">
            {picked ? (
              // the chosen method may be scrolled out of sight: the bar says which one it is
              <p className="pay-form__picked" aria-live="polite">
                {t('payment.picked_method', { method: picked.method.title })}
              </p>
            ) : null}
            <button
              type="submit"
              className="button button--primary pay-form__submit"
              disabled={busy || !anyUsable}
              data-testid="pay-button"
            >
              {busy ? t('payment.paying') : amount ? t('payment.pay_amount', { amount }) : t('payment.pay')}
            </button>
          </div>
        </Form>
      )}
    </section>
  )
}

function MethodChoice({ option, checked }: { option: MethodOption; checked: boolean }) {
  const { method } = option
  const id = `method-${method.name}`
  const disabled = option.availability !== 'ok'
  return (
    <label
      className={`method${disabled ? ' method--disabled' : ''}${method.isSecondary ? ' method--secondary' : ''}`}
      htmlFor={id}
    >
      <input
        id={id}
        type="radio"
        name="method"
        value={method.name}
        defaultChecked={checked && !disabled}
        disabled={disabled}
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-details`}
        data-needs-email={method.needsEmail ? '' : undefined}
        data-needs-phone={method.needsPhone ? '' : undefined}
      />
      {method.icon ? <img src={method.icon} alt="" width={32} height={32} className="method__icon" /> : null}
      <span className="method__text">
        <span id={`${id}-title`} className="method__title">
          {method.title}
        </span>
        <span id={`${id}-details`} className={`method__details${disabled ? ' method__details--reason' : ''}`}>
          {option.details}
        </span>
      </span>
    </label>
  )
}

function ContactField({
  kind,
  label,
  hint,
  defaultValue,
  error,
}: {
  kind: 'email' | 'phone'
  label: string
  hint: string
  defaultValue: string
  error: string | undefined
}) {
  const id = `pay-${kind}`
  return (
    <div className={`field pay-contact pay-contact--${kind}${error ? ' pay-contact--error' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={kind}
        type={kind === 'email' ? 'email' : 'tel'}
        autoComplete={kind === 'email' ? 'email' : 'tel'}
        inputMode={kind === 'email' ? 'email' : 'tel'}
        defaultValue={defaultValue}
        maxLength={kind === 'email' ? 254 : 32}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
      />
      <p id={`${id}-hint`} className="field__hint">
        {hint}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
