import { useId } from 'react'

/** One labelled input of the account forms, with its hint and its error (announced, linked). */
export function AccountField({
  name,
  label,
  type,
  autoComplete,
  error,
  hint,
  defaultValue,
}: {
  name: string
  label: string
  type: 'email' | 'password'
  autoComplete: string
  error?: string
  hint?: string
  defaultValue?: string
}) {
  const id = useId()
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ')
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        inputMode={type === 'email' ? 'email' : undefined}
        required
        defaultValue={defaultValue}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {hint ? (
        <span className="field__hint" id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className="field__error" id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  )
}

/** The form-level error line of an account form. */
export function FormError({ text }: { text?: string }) {
  return text ? (
    <p className="form-error" role="alert">
      {text}
    </p>
  ) : null
}
