import { useT } from '#app/i18n/i18n-context'
import { errorId } from '#app/lib/order-form/fields'
import type { FieldError } from '#app/lib/order-form/schema'

/** The text of a field error: the API's own words, or our message key. */
export function useErrorText(): (error: FieldError) => string {
  const t = useT()
  return (error) => error.text || t(error.key, error.params)
}

/** The message under a field; its id is what the input's aria-describedby points to. */
export function FieldErrorText({ name, error }: { name: string; error: FieldError | undefined }) {
  const text = useErrorText()
  if (!error) return null
  return (
    <p className="field__error" id={errorId(name)}>
      {text(error)}
    </p>
  )
}

/** aria attributes of an input with an optional hint and error. */
export function describedBy(name: string, error: FieldError | undefined, hintId?: string) {
  const ids = [error ? errorId(name) : null, hintId ?? null].filter(Boolean).join(' ')
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': ids || undefined,
  } as const
}
